//===- solver/BlockSizeGraph.h - The block-size pass (thesis section 5.3) -*- C++ -*-===//
//
// For dimensions the block-cyclic pass made cyclic, block sizes that keep
// the elements of aligned arrays aligned (digest section 6.3):
//
// Detector (5.3.1): for every assignment, each rhs reference to a different
//   array, each pair of aligned dimensions (same class, distributed, cyclic)
//   whose lhs and rhs subscripts are both single-index with the same
//   variation level, alpha1 * j + beta1 and alpha2 * j + beta2: a constraint
//   that the blocks be k * omega1 and k * omega2 (omega = |alpha|, k a
//   positive integer) -- e.g. A(i) = F(B(3*i)) (Fig. 5.11) asks b_A : b_B =
//   1 : 3.
// Driver (5.3.2): quality = t2 - t1, the statement's communication on the
//   rhs array under the default mesh with the blocks (omega1, omega2) (t1)
//   and not honoured (t2): both blocks 1 when either omega differs from 1,
//   else lhs 1 and rhs 2.
// Graph (BCG): nodes are array dimensions; a new constraint on an existing
//   edge with the same ratio merges into it (coefficients lcm(omega1°,
//   omega1ⁿ) and omega2° * lcm / omega1°, weights added); another ratio is a
//   parallel edge.
// Solver (5.3.3): of parallel edges only the heaviest is kept; per connected
//   component a maximum-weight spanning tree (Prim's algorithm with the
//   comparison reversed) drops the lightest edges of cycles; Theorem 5.1's
//   construction then satisfies every tree edge. Cyclic dimensions outside
//   the graph keep block 1.
//
// Reading: the proof of Theorem 5.1 tests "omega1 divides b1 * omega2";
// that gives the ratio but not k integral when an edge's coefficients share
// a factor (merged edges can, e.g. (2, 2)), so the construction here tests
// "omega1 divides b1" -- the same test when omega1 and omega2 are coprime --
// and otherwise scales the visited nodes by lcm(b1, omega1) / b1, which is
// the thesis's l / (b1 * omega2) in the coprime case. Edges whose quality is
// not positive are not recorded (honouring them saves nothing).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "solver/Plan.h"

#include <map>
#include <string>
#include <vector>

namespace dlayout::solver {

struct BcgNode {
  int array = -1, dim = -1;
  auto operator<=>(const BcgNode &) const = default;
};

struct BcgEdge {
  BcgNode x, y;          // x < y
  int64_t wx = 1, wy = 1; // omega of x and of y: blocks k * wx and k * wy
  double weight = 0;      // summed quality measures, seconds
  SourceLoc loc;          // the strongest contributing reference
  std::string statement;
};

struct BlockSizeGraph {
  std::vector<BcgEdge> edges; // parallel edges are separate entries

  /// Records the constraint b_x : b_y = wx : wy of quality `weight`,
  /// merging it into an edge of the same ratio between x and y (5.3.2).
  void addConstraint(BcgNode x, int64_t wx, BcgNode y, int64_t wy, double weight,
                     const SourceLoc &loc = {}, const std::string &statement = "");
  std::vector<BcgNode> nodes() const;
};

struct BlockSizeSolution {
  std::map<BcgNode, int64_t> block; // every node of the graph
  std::vector<size_t> tree;         // edges of the spanning forest, in Prim's order
  std::vector<size_t> dropped;      // parallel edges and edges off the tree
};

/// Whether blocks (bx, by) are k * wx and k * wy for a positive integer k.
bool honours(const BcgEdge &e, int64_t bx, int64_t by);

/// Heaviest parallel edge, maximum-weight spanning forest, Theorem 5.1.
BlockSizeSolution solveBlockSizes(const BlockSizeGraph &g);

/// Detector and driver on `plan` (alignment and blocked/cyclic decided).
Result<BlockSizeGraph> buildBlockSizeGraph(SolverContext &ctx, const Plan &plan);

/// The block-size pass: block sizes of the cyclic dimensions from the BCG,
/// BlockCyclic(b) where b > 1; decisive constraints recorded.
Status blockSizePass(SolverContext &ctx, Plan &plan, BlockSizeGraph *graph = nullptr,
                     BlockSizeSolution *solution = nullptr);

} // namespace dlayout::solver
