//===- solver/AffinityGraph.h - The align pass (thesis section 5.1) -*- C++ -*-===//
//
// Detector: for every assignment to an array element, each rhs reference to
// a different array, pairs of lhs and rhs subscripts that are both
// single-index with the same variation level are alignment constraints (the
// first unused candidate is taken, Fig. 5.3). An operand of a reduction
// into an array element is paired with the home operand instead, where the
// instances run (model/Reduction.h; not under the thesis's placement).
// Driver: the quality of a constraint is t2 - t1 (section 5.1.2): the
// statement's communication for that reference with the primary pair (and
// its secondary pair, Fig. 5.4) aligned, against the two pairs swapped
// (Fig. 5.5), under the default parameters (every dimension blocked, the
// processors spread evenly, N1 = sqrt(N)); two primary pairs each get half.
// Solver: the component affinity graph (one column per array, one node per
// dimension, weights summed over the program) is partitioned into classes by
// Li and Chen's column merging with exhaustive bipartite matching, and
// exactly by the minimum cut on Z3 (AlignmentCut.h); the lower cut is used.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "solver/Plan.h"

#include <map>
#include <tuple>
#include <vector>

namespace dlayout::solver {

struct CagNode {
  int array = -1, dim = -1;
  auto operator<=>(const CagNode &) const = default;
};

struct CagEdge {
  CagNode a, b; // a < b
  double weight = 0;
  /// The statement contributing most to the weight, for the explanation.
  SourceLoc loc;
  double strongest = 0;
};

struct AffinityGraph {
  std::vector<int> dims; // per array: number of dimensions (a column each)
  std::map<std::pair<CagNode, CagNode>, CagEdge> edges;

  void addEdge(CagNode x, CagNode y, double w, const SourceLoc &loc = {});
  double weight(CagNode x, CagNode y) const;
};

/// Detector + driver: the CAG of the program, weights in seconds.
Result<AffinityGraph> buildAffinityGraph(SolverContext &ctx, int classes);

/// Li-Chen merging: columns sorted by decreasing number of dimensions (the
/// first column must have D nodes for every later column to match into it),
/// each merged into the first by the maximum-weight matching, found by
/// enumerating every injective map (columns have at most a few nodes).
/// Returns per array, per dimension, the class in [0, classes).
std::vector<std::vector<int>> liChenPartition(const AffinityGraph &g, int classes);

/// Total weight of edges whose endpoints are in different classes (the
/// quantity the alignment minimises).
double cutWeight(const AffinityGraph &g, const std::vector<std::vector<int>> &align);

struct AlignmentChoice;

struct AlignOptions {
  bool exact = true;             // also the exact minimum cut (AlignmentCut.h)
  double timeLimitSeconds = 1.0; // for it
  z3::context *solver = nullptr; // to solve it in (AdviseOptions::solver)
};

/// The align pass: builds the CAG, partitions it by Li-Chen and exactly
/// (AlignmentCut.h), keeps the lower cut, fills plan.align and records the
/// decisive constraints. `choice` (if given) receives both cuts.
Status alignPass(SolverContext &ctx, Plan &plan, const AlignOptions &opts = {},
                 AlignmentChoice *choice = nullptr, AffinityGraph *out = nullptr);

} // namespace dlayout::solver
