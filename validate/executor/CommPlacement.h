//===- validate/executor/CommPlacement.h - Where the executor communicates -*- C++ -*-===//
//
// placeCommunication() decides, for a compiled program whose distributed loop
// trees are built, where each statement's communication runs: the
// CommActions attached to the tree's nodes, run before the node.
//
// How far out. A statement's instances must be enumerable where its fetches
// run (CStmt::aheadLevel): what its subscript expressions, its private
// scalar's readers' subscripts and the bounds of its loops read must already
// hold the values the instances will see. A subscript L read from a scalar
// is vectorised over the loops that do not assign L; an element a subscript
// expression reads is broadcast per instance.
//
// Indirect left-hand sides. The index values of Y(NODE(I,1)) = ... are
// all-gathered by their homes before the outermost loop, from there in, in
// which no statement writes the index array (CStmt::gatheredAt): edge's
// NODE(I,1) once per sweep, not once per edge. The statement's other
// communication can then be placed there too.
//
// Index values. An indirect reference's index values (YOLD(NODE(I,1)):
// NODE(I,1)) are fetched at the estimator's level for the index reference
// (Plan::indexLevels), refined on the index array and no further out than
// the instances can be enumerated; the data reference at that level or
// deeper (edge's NODE(I,1) once, YOLD's elements once per sweep).
//
// The estimator's levels. `levels` holds, per statement and reference, the
// level the estimator places the reference's communication at (Fig. 4.4 of
// the thesis, costmodels/ProgramAnalysis.h: 0 = before the statement's
// outermost loop, k = in each iteration of its level-k loop, vectorised over
// the deeper ones; the loops as written: where doall loops were brought
// inside a recurrence (Interchange.h), level k becomes the number of the k
// outer loops not brought inside, which run outermost, and a dependence's
// carrying loop is counted where it runs). The estimator assumes loop
// distribution (thesis §4.3.1):
// a value an earlier component of the same loop produces is there before the
// component that reads it starts, and in the distributed tree it is. A fetch
// placed before a loop node is still stale when a flow dependence into the
// statement on that array, within one iteration of the loops outside the
// node (nesting level > c), has its source inside the node: where the
// estimator's components and the executor's differ (scalars tie statements
// together here), or where the plan has no paths. Such a placement is moved
// one level in until none remains; each move is counted in
// ExecProgram::refinements, and every placement is listed in
// ExecProgram::placements. Except (thesis section 3.3.1) where those
// dependences are all the statement's own, carried by that loop, through
// the element one iteration alone writes (A(I) = F(A(K))): the loop node is
// split at that source iteration (Node::split) and the fetch made before
// the iterations up to it and again after it (CommAction::part), as the
// estimator prices it (RhsFacts::splitLoop).
//
// Fetches of the same array and kind before the same node share one action;
// an action is invariant (its plan, or an indirect action's schedule, built
// once, not per visit) when nothing its enumeration evaluates depends on the
// loops outside the node: their indices, and the arrays it reads (index
// values, bounds' elements) written by no statement inside them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "validate/executor/ExecProgram.h"

#include <vector>

namespace dlayout::exec {

/// Where each statement sits in its phase's distributed loop tree.
struct DistributedNest {
  std::vector<std::vector<int>> stmtLoops; // its loop nodes, outermost first
  std::vector<int> stmtNode;               // its own node; -1: in no executable phase
  /// Its loop slots as written, where CStmt::loops has them as they run
  /// (doall loops brought inside, Interchange.h).
  std::vector<std::vector<int>> writtenLoops;
};

/// Sets CStmt::aheadLevel and gatheredAt, CRef::level and estimatorLevel,
/// the nodes' actions, x.placements and x.refinements. Needs CStmt::consumers.
void placeCommunication(const Program &p, const Plan &plan,
                        const DistributedNest &nest, ExecProgram &x);

} // namespace dlayout::exec
