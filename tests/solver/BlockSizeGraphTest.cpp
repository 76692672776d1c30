// The block-size pass (thesis section 5.3, digest section 6.3): the BCG's
// merge rule, the heaviest of parallel edges, the maximum spanning tree on
// cycles, Theorem 5.1's construction, and Fig. 5.11 through the estimator.
#include "Helpers.h"

#include "solver/AdviceRender.h"
#include "solver/BlockSizeGraph.h"
#include "solver/Passes.h"

using namespace dlayout;
using namespace dlayout::solver;

namespace {
const BcgNode a{0, 0}, b{1, 0}, c{2, 0}, d{3, 0};
}

TEST(BlockSizeGraph, SameRatioMergesWithLcm) {
  BlockSizeGraph g;
  g.addConstraint(a, 2, b, 4, 1.5);
  g.addConstraint(b, 2, a, 1, 0.5); // same ratio, written the other way round
  ASSERT_EQ(g.edges.size(), 1u);
  EXPECT_EQ(g.edges[0].wx, 2); // lcm(2, 1)
  EXPECT_EQ(g.edges[0].wy, 4); // 4 * lcm / 2
  EXPECT_DOUBLE_EQ(g.edges[0].weight, 2.0);
  g.addConstraint(a, 1, b, 3, 0.25); // another ratio: a parallel edge
  EXPECT_EQ(g.edges.size(), 2u);
}

TEST(BlockSizeGraph, Theorem5_1OnATree) {
  BlockSizeGraph g;
  g.addConstraint(a, 1, b, 3, 5); // b_a : b_b = 1 : 3
  g.addConstraint(b, 2, c, 1, 4); // b_b must be even: the visited nodes are scaled
  g.addConstraint(a, 1, d, 1, 3);
  auto sol = solveBlockSizes(g);
  EXPECT_EQ(sol.tree.size(), 3u);
  EXPECT_TRUE(sol.dropped.empty());
  // Root a: 1, b: 3; edge b-c scales a, b by lcm(3, 2) / 3 = 2; c = 6 / 2.
  EXPECT_EQ(sol.block[a], 2);
  EXPECT_EQ(sol.block[b], 6);
  EXPECT_EQ(sol.block[c], 3);
  EXPECT_EQ(sol.block[d], 2);
  for (auto &e : g.edges) EXPECT_TRUE(honours(e, sol.block[e.x], sol.block[e.y]));
}

TEST(BlockSizeGraph, HeaviestParallelEdgeWins) {
  BlockSizeGraph g;
  g.addConstraint(a, 1, b, 2, 5);
  g.addConstraint(a, 1, b, 3, 2);
  auto sol = solveBlockSizes(g);
  EXPECT_EQ(sol.block[a], 1);
  EXPECT_EQ(sol.block[b], 2);
  ASSERT_EQ(sol.dropped.size(), 1u);
  EXPECT_EQ(g.edges[sol.dropped[0]].wy, 3);
  EXPECT_FALSE(honours(g.edges[sol.dropped[0]], 1, 2));
}

TEST(BlockSizeGraph, CycleDropsTheLightestConflict) {
  BlockSizeGraph g;
  g.addConstraint(a, 1, b, 2, 5);
  g.addConstraint(b, 1, c, 2, 4);
  g.addConstraint(a, 1, c, 2, 1); // the cycle asks 1:4 by the path: conflict
  auto sol = solveBlockSizes(g);
  EXPECT_EQ(sol.block[a], 1);
  EXPECT_EQ(sol.block[b], 2);
  EXPECT_EQ(sol.block[c], 4);
  ASSERT_EQ(sol.dropped.size(), 1u);
  EXPECT_DOUBLE_EQ(g.edges[sol.dropped[0]].weight, 1);
  // A cycle without conflict (tred2, section 6.2.1): every edge honoured.
  BlockSizeGraph h;
  h.addConstraint(a, 1, b, 1, 3);
  h.addConstraint(b, 1, c, 1, 2);
  h.addConstraint(a, 1, c, 1, 1);
  auto s2 = solveBlockSizes(h);
  for (auto &e : h.edges) EXPECT_TRUE(honours(e, s2.block[e.x], s2.block[e.y]));
  EXPECT_EQ(s2.block[a], 1);
  EXPECT_EQ(s2.block[c], 1);
}

// Fig. 5.11, A(i) = F(B(3*i)), both cyclic: the detector finds A1-B1 with
// (1, 3); not honoured costs n * (1 - 1/N1) * Transfer(1) more
// (section 5.3.2), so the quality is positive and the blocks are 1 and 3.
TEST(BlockSizeGraph, Figure5_11ThroughTheEstimator) {
  auto p = test::sample("fig5_11", {});
  ASSERT_FALSE(p.arrays.empty());
  auto m = loadMachine("ipsc2");
  EstimateOptions eo;
  eo.placement = PlacementSource::SequentialLoops;
  auto est = Estimator::build(p, eo);
  ASSERT_TRUE(est.ok());
  cost::AnalysisOptions ao;
  ao.placement = eo.placement;
  auto facts = cost::analyzeProgram(p, ao);
  ASSERT_TRUE(facts.ok());
  SolverContext ctx(p, *m, *est, *facts, 4);
  Plan plan = identityPlan(p, 1);
  plan.kept = {0};
  for (auto &k : plan.kind) k[0] = DistKind::Cyclic;
  BlockSizeGraph g;
  BlockSizeSolution sol;
  ASSERT_TRUE(blockSizePass(ctx, plan, &g, &sol).ok());
  int A = -1, B = -1;
  for (size_t i = 0; i < p.arrays.size(); ++i) {
    if (p.arrays[i].name == "A") A = int(i);
    if (p.arrays[i].name == "B") B = int(i);
  }
  ASSERT_GE(A, 0);
  ASSERT_GE(B, 0);
  ASSERT_EQ(g.edges.size(), 1u);
  const auto &e = g.edges[0];
  EXPECT_EQ(e.x.array == A ? e.wx : e.wy, 1);
  EXPECT_EQ(e.x.array == B ? e.wx : e.wy, 3);
  EXPECT_GT(e.weight, 0);
  EXPECT_EQ(sol.block[(BcgNode{A, 0})], 1);
  EXPECT_EQ(sol.block[(BcgNode{B, 0})], 3);
  EXPECT_EQ(plan.kind[B][0], DistKind::BlockCyclic);
  EXPECT_EQ(plan.block[B][0], 3);
  EXPECT_EQ(plan.kind[A][0], DistKind::Cyclic);
  bool decisive = false;
  for (auto &k : ctx.constraints) decisive |= k.kind == "block-size" && k.qualitySeconds > 0;
  EXPECT_TRUE(decisive);
}

// tred2 (section 6.2.1): every BCG coefficient is (1, 1), so every block is
// 1 -- the passes' layout is cyclic, not block-cyclic.
TEST(BlockSizeGraph, Tred2KeepsBlockOne) {
  auto p = test::sample("tred2", {{"N", 64}});
  auto a = test::adviseThesis(p, 16, /*exact=*/false);
  for (auto &[name, al] : a.solver.heuristic.arrays)
    for (auto &dl : al.dims) EXPECT_NE(dl.kind, DistKind::BlockCyclic) << name;
}
