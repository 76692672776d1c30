//===- analyzer/Dependences.h - Exact dependence test on the model -*- C++ -*-===//
//
// Data dependences between the array references of a program, decided
// exactly for affine subscripts and bounds by Z3 (integer linear arithmetic
// with the parameters bound to their values), and the parallel loops that
// follow from them.
//
// For two references to one array, at least one a write, in statements S1
// and S2 of the same phase with common loops l_1..l_n, there is a dependence
// carried by l_k when some instances i (of S1) and j (of S2) touch the same
// element with i_1..i_{k-1} = j_1..j_{k-1} and i_k before j_k; it is loop-
// independent when all n are equal and S1 comes first in the text. The kind
// is flow (write then read), anti (read then write) or output (two writes).
// For each dependence the direction vector ("<", "=", ">" or "*" where
// several hold) and the distances that are constant are found.
//
// A subscript that is not affine is assumed to meet every other ("*"), and
// a bound that is not affine bounds nothing.
//
// A loop is parallel when it carries no dependence other than those of a
// reduction statement on its own target (scalar dependences found by the
// builder count too).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Program.h"

namespace z3 {
class context;
}

namespace dlayout {

/// Fills P.dependences (keeping and numbering the scalar ones already
/// there) and Loop::carries, and clears Loop::parallel (which the builder
/// sets, but for a loop left early) where a loop carries a dependence other
/// than a reduction's, deciding them in the Z3
/// context C (none: one of its own). Z3 4.8 takes tens of milliseconds to
/// make a context, longer than a small program's tests take: extract()
/// makes it while the compiler runs. Where the tests are many (tred2,
/// olda), a second thread takes half of them in a context it makes itself
/// (`threads`: at most that many, 1 this one alone), and the dependences are
/// the same as one thread finds.
Status computeDependences(Program &P, z3::context *C = nullptr, unsigned threads = 2);

} // namespace dlayout
