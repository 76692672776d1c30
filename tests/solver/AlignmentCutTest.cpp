// The component alignment problem (thesis section 5.1, digest sections 6.1
// and 7.1): Li-Chen's merging against the exact minimum cut on Z3.
#include "Helpers.h"

#include "costmodels/Primitives.h"
#include "solver/AdviceRender.h"
#include "solver/AlignmentCut.h"

#include <algorithm>
#include <functional>
#include <random>

#include <z3++.h>

using namespace dlayout;
using namespace dlayout::solver;

namespace {

/// The minimum cut by trying every partition (each array's dimensions an
/// injective map into the classes).
double bruteForceCut(const AffinityGraph &g, int classes) {
  std::vector<std::vector<int>> align(g.dims.size());
  double best = INFINITY;
  std::function<void(size_t)> rec = [&](size_t a) {
    if (a == g.dims.size()) {
      best = std::min(best, cutWeight(g, align));
      return;
    }
    std::vector<int> perm(classes);
    std::iota(perm.begin(), perm.end(), 0);
    do {
      align[a].assign(perm.begin(), perm.begin() + g.dims[a]);
      rec(a + 1);
    } while (std::next_permutation(perm.begin(), perm.end()));
  };
  rec(0);
  return best;
}

bool isPartition(const std::vector<std::vector<int>> &align, int classes) {
  for (auto a : align) {
    for (int c : a)
      if (c < 0 || c >= classes) return false;
    std::sort(a.begin(), a.end());
    if (std::adjacent_find(a.begin(), a.end()) != a.end()) return false;
  }
  return true;
}

} // namespace

// tred2's CAG (thesis Fig. 6.2, the weights c1..c7 of section 6.2.1 as
// transcribed in digest section 7.1) for n = 512 on 16 iPSC/2 processors,
// N1 = sqrt(N) = 4, Transfer and OneToManyMulticast of Table 6.1 on 8-byte
// words. Nodes: A = 0, Z = 1, D = 2, E = 3.
TEST(AlignmentCut, Tred2GraphOfTheThesis) {
  auto m = loadMachine("ipsc2");
  ASSERT_TRUE(m.ok());
  PrimitiveCosts pc(*m);
  const double n = 512, N = 16, N1 = 4;
  auto T = [&](double words) { return pc.transfer(8 * words); };
  auto M = [&](double words, int64_t p) { return pc.oneToManyMulticast(8 * words, p); };
  const int64_t q = int64_t(std::floor(N1 / 4)) + 1;
  double c1 = 0.5 * (N1 / 2) * T(n * n / N), c2 = c1;
  double c3 = T(n / N1) - (1 - 1 / N1) * T(n / N1);
  double c4 = (n - 1) * (n / 2) * T(n / N1) - (n - 1) * (n / 2) * (1 - 1 / N1) * T(n / N1) +
              (n - 1) * T(n / N1) - (n - 1) * (1 - 1 / N1) * T(n / N1) +
              (n - 1) * double(q) * T(n / N1) - (n - 1) * M(n / N1, q);
  double c5 = 2 * ((n - 1) * (n / 2) * (1 - 1 / N) * T(1) -
                   (n - 1) * (n / 2) * (1 - 1 / N1) * T(1)) +
              T(n / N1) - (1 - 1 / N1) * T(n / N1);
  double c6 = (n - 1) * (1 - 1 / N) * T(1) - (N1 - 1) * T(1) + (n - 1) * T(n / N1);
  double c7 = (n - 1) * (n / 2) * T(n / N1) - (n - 1) * (n / 2) * (1 - 1 / N1) * T(n / N1) +
              (n - 1) * double(q) * T(n / N1) - (n - 1) * M(n / N1, q);
  AffinityGraph g;
  g.dims = {2, 2, 1, 1};
  g.addEdge({1, 0}, {0, 0}, c1); // Z1-A1
  g.addEdge({1, 1}, {0, 1}, c2); // Z2-A2
  g.addEdge({2, 0}, {0, 1}, c3); // D1-A2
  g.addEdge({2, 0}, {1, 0}, c4); // D1-Z1
  g.addEdge({2, 0}, {1, 1}, c5); // D1-Z2: the conflict with c4
  g.addEdge({3, 0}, {2, 0}, c6); // E1-D1
  g.addEdge({3, 0}, {1, 0}, c7); // E1-Z1
  // Section 6.2.1: class 1 = {A1, Z1, D1, E1}, class 2 = {A2, Z2}.
  auto expectThesis = [&](const std::vector<std::vector<int>> &al) {
    EXPECT_EQ(al[1][0], al[0][0]);
    EXPECT_EQ(al[2][0], al[0][0]);
    EXPECT_EQ(al[3][0], al[0][0]);
    EXPECT_EQ(al[1][1], al[0][1]);
    EXPECT_NE(al[0][0], al[0][1]);
  };
  auto lc = liChenPartition(g, 2);
  expectThesis(lc);
  auto ex = exactPartition(g, 2, 10);
  ASSERT_TRUE(ex.solved);
  EXPECT_TRUE(ex.proved);
  expectThesis(ex.align);
  EXPECT_NEAR(ex.cut, c3 + c5, 1e-9 * (c3 + c5));
  EXPECT_NEAR(ex.cut, bruteForceCut(g, 2), 1e-12);
  auto ch = chooseAlignment(g, 2, 10);
  EXPECT_EQ(ch.method, "li-chen"); // a tie keeps Li-Chen
  EXPECT_DOUBLE_EQ(ch.liChenCut, ch.exactCut);
}

// Fig. 5.2: A(i,j) = F(B(j,3*i)): A1-B2 and A2-B1, each 0.5 * N1 *
// Transfer(n*n/(N1*N1)) (section 5.1.2's example).
TEST(AlignmentCut, Figure5_2Transposes) {
  AffinityGraph g;
  g.dims = {2, 2};
  g.addEdge({0, 0}, {1, 1}, 1.0);
  g.addEdge({0, 1}, {1, 0}, 1.0);
  auto ex = exactPartition(g, 2, 10);
  ASSERT_TRUE(ex.solved);
  EXPECT_EQ(ex.align[0][0], ex.align[1][1]);
  EXPECT_EQ(ex.align[0][1], ex.align[1][0]);
  EXPECT_EQ(ex.cut, 0);
}

// Li-Chen merges B into A first by the light A1-B1 edge; then C cannot have
// both C1 with A1 and C2 with B1. Swapping B costs 2 and honours both 3s.
namespace {
AffinityGraph liChenTrap() {
  AffinityGraph g;
  g.dims = {2, 2, 2};              // A, B, C
  g.addEdge({0, 0}, {1, 0}, 2);    // A1-B1
  g.addEdge({0, 0}, {2, 0}, 3);    // A1-C1
  g.addEdge({1, 0}, {2, 1}, 3);    // B1-C2
  return g;
}
} // namespace

TEST(AlignmentCut, ExactCutBeatsLiChen) {
  const AffinityGraph g = liChenTrap();
  auto lc = liChenPartition(g, 2);
  EXPECT_DOUBLE_EQ(cutWeight(g, lc), 3);
  auto ex = exactPartition(g, 2, 10);
  ASSERT_TRUE(ex.solved);
  EXPECT_TRUE(ex.proved);
  EXPECT_DOUBLE_EQ(ex.cut, 2);
  EXPECT_TRUE(isPartition(ex.align, 2));
  auto ch = chooseAlignment(g, 2, 10);
  EXPECT_EQ(ch.method, "exact");
  EXPECT_DOUBLE_EQ(ch.liChenCut, 3);
  EXPECT_DOUBLE_EQ(ch.exactCut, 2);
  EXPECT_DOUBLE_EQ(cutWeight(g, ch.align), 2);
  auto off = chooseAlignment(g, 2, 10, /*exact=*/false);
  EXPECT_EQ(off.method, "li-chen");
}

// The advisor solves the cut in the Z3 context the dependences were decided
// in (AdviseOptions::solver): one that held other problems first, with a
// name the cut uses bound to a value no class takes, gives the same proved
// cut, and so does a second cut in it.
TEST(AlignmentCut, ExactCutInAContextUsedBefore) {
  const AffinityGraph g = liChenTrap();
  z3::context z;
  z3::solver earlier(z);
  earlier.add(z.int_const("c_0_0") == 7);
  ASSERT_EQ(earlier.check(), z3::sat);
  for (int round = 0; round < 2; ++round) {
    auto ex = exactPartition(g, 2, 10, &z);
    ASSERT_TRUE(ex.solved);
    EXPECT_TRUE(ex.proved);
    EXPECT_DOUBLE_EQ(ex.cut, 2);
    EXPECT_TRUE(isPartition(ex.align, 2));
  }
  auto ch = chooseAlignment(g, 2, 10, true, &z);
  EXPECT_EQ(ch.method, "exact");
  EXPECT_DOUBLE_EQ(ch.exactCut, 2);
}

TEST(AlignmentCut, RandomGraphsMatchBruteForce) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 40; ++trial) {
    int classes = 2 + trial % 2;
    AffinityGraph g;
    int arrays = 3 + trial % 4;
    for (int a = 0; a < arrays; ++a) g.dims.push_back(1 + int(rng() % unsigned(classes)));
    g.dims[0] = classes;
    for (int e = 0; e < 3 * arrays; ++e) {
      int a = int(rng() % unsigned(arrays)), b = int(rng() % unsigned(arrays));
      if (a == b) continue;
      g.addEdge({a, int(rng() % unsigned(g.dims[a]))}, {b, int(rng() % unsigned(g.dims[b]))},
                double(1 + rng() % 100));
    }
    auto ex = exactPartition(g, classes, 10);
    ASSERT_TRUE(ex.solved) << trial;
    EXPECT_TRUE(isPartition(ex.align, classes)) << trial;
    double bf = bruteForceCut(g, classes);
    EXPECT_NEAR(ex.cut, bf, 1e-9) << trial;
    EXPECT_GE(cutWeight(g, liChenPartition(g, classes)), ex.cut - 1e-9) << trial;
  }
}

// At its time limit Z3 may hold a partial model that breaks the hard
// constraints (two dimensions of one array in one class, as the 2,000-nest
// scaling program once produced): it is no partition, so none is returned.
TEST(AlignmentCut, AtTheTimeLimitAPartitionOrNothing) {
  std::mt19937 rng(11);
  AffinityGraph g;
  const int arrays = 400, classes = 3;
  for (int a = 0; a < arrays; ++a) g.dims.push_back(1 + int(rng() % 3u));
  for (int e = 0; e < 6 * arrays; ++e) {
    int a = int(rng() % unsigned(arrays)), b = int(rng() % unsigned(arrays));
    if (a == b) continue;
    g.addEdge({a, int(rng() % unsigned(g.dims[a]))}, {b, int(rng() % unsigned(g.dims[b]))},
              double(1 + rng() % 1000));
  }
  for (double limit : {0.001, 0.01, 0.05}) {
    auto ex = exactPartition(g, classes, limit);
    if (ex.solved) {
      EXPECT_TRUE(isPartition(ex.align, classes)) << limit;
    }
    auto ch = chooseAlignment(g, classes, limit);
    EXPECT_TRUE(isPartition(ch.align, classes)) << limit;
  }
}

// Through advise: both cuts reported, the used one never above Li-Chen's.
TEST(AlignmentCut, AdviseReportsBothCuts) {
  auto p = test::sample("tred2", {{"N", 64}});
  auto a = test::adviseThesis(p);
  EXPECT_GT(a.solver.liChenCut, 0);
  EXPECT_LE(a.solver.exactCut, a.solver.liChenCut * (1 + 1e-12));
  EXPECT_TRUE(a.solver.alignMethod == "li-chen" || a.solver.alignMethod == "exact");
  auto j = toJson(a);
  EXPECT_TRUE(j["solver"]["alignment"].contains("exact_cut"));
}
