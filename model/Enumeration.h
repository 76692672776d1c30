//===- model/Enumeration.h - Where a statement's instances are known -*- C++ -*-===//
//
// Communication for a statement's instances can be placed before a loop
// only if the instances inside it can be enumerated there: what their
// subscripts and their loops' bounds read must already hold the values the
// instances will see. olda's DO 260 ML = LMIN, LMAX, with LMIN and LMAX
// assigned in the enclosing DO 290 MK, knows its instances only inside MK;
// dgefa's A(L,J) = A(K,J), with L assigned in DO 60 K but not in DO 80 J,
// knows them before DO 80.
//
// enumerationLevel is the outermost such loop level: a subscript expression
// that reads an array element (edge's NODE(IE + IX, 1)) is known only per
// instance; a scalar read by a subscript expression (of the statement or of
// the statements reading the private scalar it assigns: they are evaluated
// with it) or by a bound of its loops, only inside the loops that assign
// it. Array elements read by bounds are the caller's (`from`): the executor
// gathers them ahead (validate/executor/CommPlacement.cpp), the estimator
// prices them apart. The estimator places communication no further out,
// and so does the executor: the measurement tests the plan that was priced.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Program.h"

#include <vector>

namespace dlayout {

/// Level 0 is outside every loop of statement s, s.loops.size() inside all;
/// the result is at least `from`. `readers`: the statements that read the
/// private scalar s assigns (model/PrivateScalars.h), if any.
int enumerationLevel(const Program &p, size_t s, const std::vector<size_t> &readers,
                     int from = 0);

} // namespace dlayout
