// The passes on their own: mesh enumeration, the CAG's Li-Chen partition,
// the optimiser's guarantee, bad input.
#include "Helpers.h"

#include "solver/AdviceRender.h"
#include "solver/AffinityGraph.h"
#include "solver/Plan.h"
#include "model/LayoutJson.h"

#include <algorithm>

using namespace dlayout;
using namespace dlayout::solver;

TEST(MeshShapes, EveryFactorisationOfTwelve) {
  auto shapes = factorisations(12, 2);
  for (auto &s : shapes) EXPECT_EQ(s[0] * s[1], 12);
  auto has = [&](std::vector<int64_t> s) {
    return std::find(shapes.begin(), shapes.end(), s) != shapes.end();
  };
  EXPECT_TRUE(has({3, 4}));
  EXPECT_TRUE(has({4, 3}));
  EXPECT_TRUE(has({2, 6}));
  EXPECT_TRUE(has({6, 2}));
  EXPECT_TRUE(has({1, 12}));
  EXPECT_EQ(shapes.size(), 6u); // one per divisor of 12
  auto three = factorisations(12, 3);
  for (auto &s : three) EXPECT_EQ(s[0] * s[1] * s[2], 12);
  EXPECT_EQ(three.size(), 18u); // sum over divisors d of 12 of tau(12/d)
  auto sq = balancedShape(12, 2);
  EXPECT_EQ(sq[0] * sq[1], 12);
  EXPECT_LE(std::max(sq[0], sq[1]), 4);
}

TEST(AffinityGraph, LiChenFollowsTheHeavierMatching) {
  // A(i,j) = F(B(j,i)) twice as strongly as A(i,j) = F(B(i,j)).
  AffinityGraph g;
  g.dims = {2, 2, 1};
  g.addEdge({0, 0}, {1, 1}, 10);
  g.addEdge({0, 1}, {1, 0}, 10);
  g.addEdge({0, 0}, {1, 0}, 3);
  g.addEdge({2, 0}, {1, 0}, 5); // C(k) with B's first dimension
  auto al = liChenPartition(g, 2);
  EXPECT_EQ(al[0][0], al[1][1]);
  EXPECT_EQ(al[0][1], al[1][0]);
  EXPECT_NE(al[0][0], al[0][1]);
  EXPECT_EQ(al[2][0], al[1][0]);
  // The partition cuts only the light edge, and no other partition cuts less.
  EXPECT_DOUBLE_EQ(cutWeight(g, al), 3);
  std::vector<std::vector<int>> identity = {{0, 1}, {0, 1}, {0}};
  EXPECT_GT(cutWeight(g, identity), cutWeight(g, al));
}

TEST(AffinityGraph, ColumnsMatchIntoTheWidestColumn) {
  // A 1-D array first in program order must not fix the classes.
  AffinityGraph g;
  g.dims = {1, 3, 3};
  g.addEdge({0, 0}, {2, 2}, 4);
  g.addEdge({1, 0}, {2, 2}, 7);
  g.addEdge({1, 1}, {2, 0}, 2);
  auto al = liChenPartition(g, 3);
  EXPECT_EQ(al[1][0], al[2][2]);
  EXPECT_EQ(al[1][1], al[2][0]);
  EXPECT_EQ(al[0][0], al[2][2]);
  for (auto &a : al) { // a dimension per class at most
    auto s = a;
    std::sort(s.begin(), s.end());
    EXPECT_EQ(std::adjacent_find(s.begin(), s.end()), s.end());
  }
}

TEST(Align, Figure5_2AlignsAWithTransposedB) {
  // Fig. 5.2: A(i,j) = F(B(j,3*i)) gives A1-B2 and A2-B1.
  auto p = test::sample("fig5_2", {});
  auto a = test::adviseThesis(p);
  const Layout &h = a.solver.heuristic;
  for (int md = 0; md < int(h.mesh.size()); ++md) {
    int da = test::dimOn(h, "A", md), db = test::dimOn(h, "B", md);
    if (da >= 0 && db >= 0) {
      EXPECT_NE(da, db) << "mesh dim " << md;
    }
  }
  bool found = false;
  for (auto &c : a.constraints)
    if (c.kind == "alignment" && c.qualitySeconds > 0) found = true;
  EXPECT_TRUE(found);
}

TEST(Advise, OptimumNeverWorseThanHeuristicAndLayoutsEstimate) {
  auto p = test::sample("jacobi", {{"NP2", 66}});
  for (int64_t P : {4, 12, 16}) {
    auto a = test::adviseThesis(p, P);
    EXPECT_LE(a.solver.optimalSeconds, a.solver.heuristicSeconds * (1 + 1e-12)) << P;
    EXPECT_GE(a.solver.gap, 0);
    EXPECT_LE(a.recommended.seconds, a.solver.heuristicSeconds * (1 + 1e-12));
    EXPECT_EQ(a.recommended.layout.procs(), P);
    // Every alternative is a distinct valid layout, best first, no better
    // than the recommendation.
    for (size_t i = 0; i < a.alternatives.size(); ++i) {
      EXPECT_NE(a.alternatives[i].layout, a.recommended.layout);
      EXPECT_TRUE(validateLayout(p, a.alternatives[i].layout, P).ok());
      EXPECT_GE(a.alternatives[i].seconds, a.recommended.seconds * (1 - 1e-12));
      if (i) {
        EXPECT_GE(a.alternatives[i].seconds, a.alternatives[i - 1].seconds);
      }
    }
    // The JSON layouts read back as dlayout-layout/1 and estimate the same.
    auto j = toJson(a);
    EXPECT_EQ(j["schema"], "dlayout-advice/1");
    auto rec = j["recommended"];
    // model/LayoutJson's reader rejects unknown fields, so the keys beside
    // the layout (predicted_seconds, ...) are dropped first.
    for (const char *k : {"predicted_seconds", "origin", "computation_seconds",
                          "communication_seconds"})
      rec.erase(k);
    auto back = parseLayout(rec.dump());
    ASSERT_TRUE(back.ok()) << back.error().str();
    EXPECT_EQ(*back, a.recommended.layout);
    EstimateOptions eo;
    eo.placement = PlacementSource::SequentialLoops;
    auto e = estimate(p, *back, *loadMachine("ipsc2"), eo);
    ASSERT_TRUE(e.ok());
    EXPECT_NEAR(e->predictedSeconds, a.recommended.seconds, 1e-9 * e->predictedSeconds);
  }
}

TEST(Advise, TwelveProcessorsConsidersNonPowerOfTwoMeshes) {
  auto p = test::sample("jacobi", {{"NP2", 66}});
  auto a = test::adviseThesis(p, 12);
  std::set<std::vector<int64_t>> meshes;
  meshes.insert(a.recommended.layout.mesh);
  for (auto &r : a.alternatives) meshes.insert(r.layout.mesh);
  bool nonPow2 = false;
  for (auto &m : meshes)
    for (auto n : m) nonPow2 |= n == 3 || n == 6 || n == 12;
  EXPECT_TRUE(nonPow2);
}

TEST(Advise, BadInput) {
  auto p = test::sample("jacobi", {{"NP2", 66}});
  auto m = loadMachine("ipsc2");
  for (int64_t P : {0, -4}) {
    AdviseOptions o;
    o.procs = P;
    auto a = advise(p, *m, o);
    ASSERT_FALSE(a.ok());
    EXPECT_NE(a.error().message.find("positive"), std::string::npos);
  }
  // More processors than elements: a warning and still a recommendation.
  AdviseOptions o;
  o.procs = 8192;
  o.timeLimitSeconds = 10;
  auto a = advise(p, *m, o);
  ASSERT_TRUE(a.ok()) << a.error().str();
  EXPECT_EQ(a->recommended.layout.procs(), 8192);
  bool warned = false;
  for (auto &w : a->warnings) warned |= w.kind == "too-many-processors";
  EXPECT_TRUE(warned);
  EXPECT_FALSE(loadMachine("no-such-machine").ok());
}

TEST(Advise, FewerProcessorsEstimatedFasterAreRecommendedOnAllP) {
  // dgefa at N = 16 on 64 iPSC/2 nodes: one processor is estimated faster
  // than any layout over the 64 (each pivot step's messages cost more than
  // its arithmetic). The advice warns, and recommends that layout on the
  // 64 with its blocks kept: one processor holds A, the others nothing.
  auto p = test::sample("dgefa", {{"N", 16}});
  auto m = loadMachine("ipsc2");
  const Advice a = test::adviseIpsc2(p, 64);
  bool warned = false;
  for (auto &w : a.warnings) warned |= w.kind == "fewer-processors";
  EXPECT_TRUE(warned);
  EXPECT_EQ(a.recommended.origin, "fewer-processors");
  EXPECT_EQ(a.recommended.layout.procs(), 64);
  EXPECT_LT(a.recommended.seconds, a.solver.optimalSeconds);
  int64_t holders = 1; // processors holding part of A
  for (const DimLayout &d : a.recommended.layout.arrays.at("A").dims)
    if (d.distributed()) {
      ASSERT_EQ(d.kind, DistKind::BlockCyclic);
      holders *= (16 + d.block - 1) / d.block;
    }
  EXPECT_EQ(holders, 1);
  // Its estimate is the layout's, and the heuristic's is among the
  // alternatives.
  EXPECT_TRUE(validateLayout(p, a.recommended.layout, 64).ok());
  auto e = estimate(p, a.recommended.layout, *m);
  ASSERT_TRUE(e.ok());
  EXPECT_NEAR(e->predictedSeconds, a.recommended.seconds, 1e-9 * a.recommended.seconds);
  bool heuristicShown = false;
  for (auto &r : a.alternatives) heuristicShown |= r.origin == "heuristic";
  EXPECT_TRUE(heuristicShown);
}

TEST(Advise, AnOptimumNoMateriallyFasterLeavesThePassesLayout) {
  // fig4_5 at N = 32 on 4 iPSC/2 nodes: the optimiser finds a CYCLIC(8)
  // layout 0.02 % below the passes' BLOCK one (4 % slower when simulated).
  // Within kMaterialGain the passes' layout is recommended, the optimum
  // still reported.
  const Advice a = test::adviseIpsc2(test::sample("fig4_5", {{"N", 32}}), 4);
  ASSERT_LT(a.solver.optimalSeconds, a.solver.heuristicSeconds);
  ASSERT_GT(a.solver.optimalSeconds, a.solver.heuristicSeconds * (1 - 1e-3));
  EXPECT_EQ(a.recommended.origin, "heuristic");
  EXPECT_EQ(a.recommended.seconds, a.solver.heuristicSeconds);
}

TEST(Render, HpfAndSarifNameTheArrays) {
  auto p = test::sample("jacobi", {{"NP2", 66}});
  auto a = test::adviseThesis(p, 16);
  auto hpf = renderAdviceHpf(a, p);
  EXPECT_NE(hpf.find("!HPF$ PROCESSORS"), std::string::npos);
  EXPECT_NE(hpf.find("!HPF$ DISTRIBUTE"), std::string::npos);
  EXPECT_NE(hpf.find("A"), std::string::npos);
  auto sarif = renderAdviceSarif(a, p);
  EXPECT_EQ(sarif["version"], "2.1.0");
  EXPECT_EQ(sarif["runs"][0]["results"].size(), a.constraints.size() + a.warnings.size());
  auto text = renderAdviceText(a, p);
  EXPECT_NE(text.find("mesh"), std::string::npos);
  EXPECT_NE(text.find("computation"), std::string::npos);
}

TEST(LayoutKeys, EquivalentUpToMeshRenumbering) {
  auto make = [](std::vector<int64_t> mesh, int rowsOn, int colsOn) {
    Layout l;
    l.mesh = mesh;
    DimLayout r, c;
    r.kind = c.kind = DistKind::Cyclic;
    r.meshDim = rowsOn, c.meshDim = colsOn;
    l.arrays["A"].dims = {r, c};
    return l;
  };
  // 2x8 with rows on dimension 1 is 8x2 with rows on dimension 2 ...
  EXPECT_EQ(equivalenceKey(make({2, 8}, 0, 1)), equivalenceKey(make({8, 2}, 1, 0)));
  EXPECT_NE(layoutKey(make({2, 8}, 0, 1)), layoutKey(make({8, 2}, 1, 0)));
  // ... but not 8x2 with rows on dimension 1 (rows over 8 processors).
  EXPECT_NE(equivalenceKey(make({2, 8}, 0, 1)), equivalenceKey(make({8, 2}, 0, 1)));
}
