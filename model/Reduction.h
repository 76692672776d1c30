//===- model/Reduction.h - Where a reduction into an array runs -*- C++ -*-===//
//
// A reduction into an array element, matmul's
//
//     C(I,J) = C(I,J) + A(I,K) * B(K,J)
//
// (Statement::reduction with write >= 0), is the thesis's "reduction op"
// (Tables 4.2 and 4.3): each instance is formed where its home operand
// lives -- the first read reference that is neither indirect nor of the
// written array, A(I,K) -- the other operands are brought there, and the
// partial results for one element of C are combined onto C's holders by a
// Reduction. The partial results are kept until the region ends: the
// outermost of the statement's loops inside which no other statement reads
// or writes C and the instances can be enumerated (model/Enumeration.h);
// they are combined once per execution of that loop, after it.
//
// arrayReduction gives the home and the region, or none (-1) where the
// statement is no such reduction: it reads C other than through the
// element it writes, writes an indirect element, or has no home or region.
// Reductions into scalars have their own region (model/PrivateScalars.h).
//
// The estimator (costmodels/ProgramAnalysis) prices this plan, and the
// executor (validate/executor) runs it: the measurement tests the plan that
// was priced.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Program.h"

namespace dlayout {

struct ArrayReduction {
  int home = -1;     // index into the statement's refs
  int selfRead = -1; // the read of the written element (refs index), if any
  int region = -1;   // position in the statement's loops
  bool planned() const { return home >= 0 && region >= 0; }
};

ArrayReduction arrayReduction(const Program &p, size_t s);

} // namespace dlayout
