//===- costmodels/LoopDistribution.h - The nest the estimator assumes -*- C++ -*-===//
//
// The estimator assumes loop distribution (thesis sections 3.2.1 and 4.3.1):
// every loop split over the strongly connected components of its body's
// dependence graph, so that a component reads what an earlier component of
// the same loop produced only after that component's copy of the loop has
// run to completion. That is what lets Fig. 4.4 place a reference's
// communication outside a loop which also holds the statement producing the
// data, and a loop be a doall for one component while it carries a
// recurrence in another (DependenceLevels.h). distributeLoops gives that
// distributed nest, so that the executor (validate/) runs the plan the
// estimator costed.
//
// A body is what one iteration of k enclosing loops holds (k = 0: a phase).
// Its graph has the body's statements and an edge for every dependence
// between two of them that can hold within one iteration of the k loops (no
// "<", ">" or "!=" at levels 1..k: DG_k+1 of section 3.1, plus the loop-
// independent dependences between different units). Scalars add edges too:
// a scalar assigned in the body orders the statements touching it as the
// program does, and ties together those inside one inner loop (no scalar
// expansion: the thesis keeps scalars replicated or private). The body's
// units, the components of that graph, are each a statement directly in the
// body or a copy of one of its loops; they run in topological order, ties in
// program order, and each loop copy's body is distributed in turn.
//
// The result, per statement (index into p.statements): its path, where
// path[k] is the position of its unit among the units of its depth-k body
// (depth + 1 entries; empty for a statement in no phase). Sorting a phase's
// statements by path, and letting statements share a loop copy where their
// paths agree above it, rebuilds the distributed nest; all-zero paths in
// program order are the nest as written.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/DependenceLevels.h"
#include "model/Program.h"

#include <vector>

namespace dlayout::cost {

std::vector<std::vector<int>> distributeLoops(const Program &p, const DependenceLevels &levels);

} // namespace dlayout::cost
