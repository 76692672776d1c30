//===- validate/executor/Interchange.h - Doall loops brought inside -*- C++ -*-===//
//
// The estimator combines a statement's communication over the loops it is
// parallel with respect to outside its innermost recurrence, as though they
// ran inside it: "any doall loops outside the loop L_lmax need to be brought
// inside through loop interchange" (thesis section 3.2.1; section 4.3.1,
// Figs. 4.5 -> 4.7 and 4.8). bringDoallsInside does that to a phase's
// distributed nest, so that the executor runs what the estimator prices:
//
//   while a loop node L has one child, a loop node M, and every statement
//   below L runs M before L in the plan's order (Plan::orders), M takes L's
//   place and L, copied once per statement or loop of M's body, goes
//   inside it: fig4_5's I { J { S1; S2 } } becomes J { I { S1 }; I { S2 } }.
//
// Valid because L is a doall for every statement below it: no dependence is
// carried by L, so its iterations may run in any order inside each
// iteration of M, and one statement's instances all before the next's.
// A pair stays as written where the swap would not be plain: M's bounds
// read L's index, an array element or a scalar, or a statement below is not
// an affine array assignment (a reduction; a scalar assignment, which
// keeps the readers of a private scalar, in its loop copy, as written; an
// indirect or computed subscript). Triangular nests (DO J = I + 1, N)
// stay as written: their bounds would have to be rewritten.
//
// compile() then sets each statement's CStmt::loops to its loop nodes'
// slots, outermost first (DistributedNest::writtenLoops keeps them as
// written); placeCommunication maps the estimator's levels, which count the
// loops as written, into that order.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "validate/executor/ExecProgram.h"

#include <vector>

namespace dlayout::exec {

/// Rewrites the trees at `roots` (node indices, replaced where a root is
/// swapped with its child). `order[s]`: statement s's loop slots in the
/// order the plan wants them, or empty (as written).
void bringDoallsInside(ExecProgram &x, const std::vector<std::vector<int>> &order,
                       std::vector<int> &roots);

} // namespace dlayout::exec
