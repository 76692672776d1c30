// The exact optimiser's inner problem (solver/TableSum.h) against brute force
// and dynamic programming, and the optimiser's separable tables against the
// estimator.
#include "Helpers.h"

#include "solver/ParallelFor.h"
#include "solver/Passes.h"
#include "solver/TableSum.h"

#include <atomic>
#include <random>

using namespace dlayout;
using namespace dlayout::solver;

namespace {

TableSum randomSum(std::mt19937 &rng, int vars, int tables, int maxOptions) {
  TableSum ts;
  for (int v = 0; v < vars; ++v) ts.options.push_back(2 + int(rng() % unsigned(maxOptions - 1)));
  for (int t = 0; t < tables; ++t) {
    TableSum::Table tb;
    int k = 1 + int(rng() % 3u);
    for (int i = 0; i < k; ++i) {
      int v = int(rng() % unsigned(vars));
      if (std::find(tb.vars.begin(), tb.vars.end(), v) == tb.vars.end()) tb.vars.push_back(v);
    }
    size_t rows = 1;
    for (int v : tb.vars) rows *= size_t(ts.options[v]);
    for (size_t r = 0; r < rows; ++r) tb.values.push_back(double(rng() % 1000) * 1e-3);
    ts.tables.push_back(tb);
  }
  return ts;
}

double bruteForce(const TableSum &ts) {
  std::vector<int> cur(ts.options.size(), 0);
  double best = INFINITY;
  while (true) {
    best = std::min(best, ts.value(cur));
    size_t v = 0;
    for (; v < cur.size(); ++v) {
      if (++cur[v] < ts.options[v]) break;
      cur[v] = 0;
    }
    if (v == cur.size()) return best;
  }
}

} // namespace

TEST(TableSum, SmallSumsMatchBruteForce) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 30; ++trial) {
    auto ts = randomSum(rng, 3 + trial % 6, 4 + trial % 9, 5);
    std::vector<int> start(ts.options.size(), 0);
    auto r = minimiseTableSum(ts, start, 10);
    EXPECT_TRUE(r.proved) << trial;
    EXPECT_NEAR(r.value, bruteForce(ts), 1e-12) << trial;
    EXPECT_NEAR(r.value, ts.value(r.sel), 1e-12) << trial;
  }
}

// Too large to enumerate (2^24 * 25 * 23 tables): Z3 solves it; a chain's optimum is
// known by dynamic programming.
TEST(TableSum, LargeChainOnZ3MatchesDynamicProgramming) {
  std::mt19937 rng(3);
  const int n = 24;
  TableSum ts;
  ts.options.assign(n, 2);
  ts.options.push_back(5); // two "kind" variables every table depends on
  ts.options.push_back(5);
  for (int i = 0; i + 1 < n; ++i) {
    TableSum::Table t;
    t.vars = {i, i + 1, n, n + 1};
    for (int r = 0; r < 2 * 2 * 25; ++r) t.values.push_back(double(rng() % 1000) * 1e-4);
    ts.tables.push_back(t);
  }
  // Dynamic programming per kind pair.
  double best = INFINITY;
  for (int k1 = 0; k1 < 5; ++k1)
    for (int k2 = 0; k2 < 5; ++k2) {
      auto val = [&](int i, int x, int y) {
        return ts.tables[size_t(i)].values[size_t(((x * 2 + y) * 5 + k1) * 5 + k2)];
      };
      double f[2] = {0, 0};
      for (int i = 0; i + 1 < n; ++i) {
        double g[2];
        for (int y = 0; y < 2; ++y) g[y] = std::min(f[0] + val(i, 0, y), f[1] + val(i, 1, y));
        f[0] = g[0], f[1] = g[1];
      }
      best = std::min({best, f[0], f[1]});
    }
  std::vector<int> start(ts.options.size(), 0);
  auto r = minimiseTableSum(ts, start, 30, /*eliminateFirst=*/false);
  EXPECT_TRUE(r.usedZ3);
  EXPECT_TRUE(r.proved);
  EXPECT_NEAR(r.value, best, 1e-9);
  EXPECT_NEAR(ts.value(r.sel), r.value, 1e-12);
  // Bucket elimination sums the chain out (each link spans 2 x 25 rows):
  // the same optimum with nothing left for Z3.
  auto e = minimiseTableSum(ts, start, 30);
  EXPECT_FALSE(e.usedZ3);
  EXPECT_TRUE(e.proved);
  EXPECT_GE(e.eliminated, size_t(n));
  EXPECT_NEAR(e.value, best, 1e-9);
  EXPECT_NEAR(ts.value(e.sel), e.value, 1e-12);
}

// A core too densely linked to eliminate and too large to enumerate (a
// clique of 17 two-way variables: each spans 2^16 rows of the others) with a
// chain hanging from it: the chain is summed out, Z3 solves the core, and
// back-substitution chooses the chain. Checked against the core enumerated
// with the chain's best completion per value of its anchor.
TEST(TableSum, EliminationLeavesTheCoreToZ3) {
  std::mt19937 rng(5);
  const int core = 17, tail = 6;
  TableSum ts;
  ts.options.assign(core + tail, 2);
  // Pairs that agree cost little, pairs that differ much (as aligned arrays
  // do): an easy core for Z3's MaxSAT, which still has to prove it.
  auto table = [&](std::vector<int> vars, double differ) {
    TableSum::Table t;
    t.vars = std::move(vars);
    for (int r = 0; r < 4; ++r)
      t.values.push_back(double(rng() % 1000) * 1e-4 + (r == 1 || r == 2 ? differ : 0));
    ts.tables.push_back(t);
  };
  for (int i = 0; i < core; ++i)
    for (int j = i + 1; j < core; ++j) table({i, j}, 1);
  const size_t firstLink = ts.tables.size();
  for (int i = 0; i < tail; ++i) table({i == 0 ? 0 : core + i - 1, core + i}, 0);
  // The chain's best completion given the anchor, variable 0, from its end.
  double g[2] = {0, 0};
  for (int i = tail - 1; i >= 0; --i) {
    const auto &v = ts.tables[firstLink + size_t(i)].values;
    double h[2];
    for (int x = 0; x < 2; ++x) h[x] = std::min(v[size_t(x * 2)] + g[0], v[size_t(x * 2 + 1)] + g[1]);
    g[0] = h[0], g[1] = h[1];
  }
  double best = INFINITY;
  std::vector<int> sel(ts.options.size(), 0);
  for (unsigned m = 0; m < (1u << core); ++m) {
    for (int i = 0; i < core; ++i) sel[size_t(i)] = int((m >> i) & 1u);
    double x = g[sel[0]];
    for (size_t t = 0; t < firstLink; ++t) x += ts.tables[t].values[ts.row(ts.tables[t], sel)];
    best = std::min(best, x);
  }
  std::vector<int> start(ts.options.size(), 0);
  auto r = minimiseTableSum(ts, start, 60);
  EXPECT_EQ(r.eliminated, size_t(tail));
  EXPECT_TRUE(r.usedZ3);
  EXPECT_TRUE(r.proved);
  EXPECT_NEAR(r.value, best, 1e-9);
  EXPECT_NEAR(ts.value(r.sel), r.value, 1e-12);
}

// The estimate is the sum of the groups the optimiser tabulates: the
// optimum's tables and its full estimate agree (proved), and it is no worse
// than any layout in the space the passes or num-procs found. jacobi, tred2
// and dgefa fill their tables with whole estimates; relax and edge, whose
// groups have many entries, mostly one statement at a time.
TEST(ExactOptimizer, SeparableTablesAreExact) {
  for (auto [name, params] :
       std::vector<std::pair<std::string, std::map<std::string, int64_t>>>{
           {"jacobi", {{"NP2", 66}}}, {"tred2", {{"N", 64}}}, {"dgefa", {{"N", 64}}},
           {"kali/relax", {}}, {"parti/edge", {}}}) {
    auto p = test::sample(name, params);
    auto a = test::adviseThesis(p, 16, true, 120); // about 0.1 s each, unloaded
    EXPECT_EQ(a.solver.method, "separable") << name;
    EXPECT_TRUE(a.solver.proved) << name;
    EXPECT_LE(a.solver.optimalSeconds, a.solver.heuristicSeconds * (1 + 1e-12)) << name;
    for (auto &alt : a.alternatives)
      if (alt.origin == "num-procs") {
        EXPECT_GE(alt.seconds, a.solver.optimalSeconds * (1 - 1e-9)) << name;
      }
  }
}

// olda's XRSIQ(MI,MQ) += VAL * V(MP,MI) beside XRSIQ(MI,MP) += VAL * V(MQ,MI):
// one fetch of V before the MI loop serves both statements, bounded
// together (costmodels/FetchBound.h), so neither statement's V terms are a
// table of their own. They share one (both read XRSIQ and V): the estimate
// is again the sum of the tables, and the optimum is proved.
TEST(ExactOptimizer, StatementsFetchingTogetherShareATable) {
  auto p = test::sample("olda", {{"NUM", 16}});
  auto m = loadMachine("ipsc2");
  ASSERT_TRUE(m.ok());
  AdviseOptions o;
  o.procs = 16;
  o.timeLimitSeconds = 120;
  auto a = advise(p, *m, o);
  ASSERT_TRUE(a.ok()) << a.error().str();
  EXPECT_EQ(a->solver.method, "separable");
  EXPECT_TRUE(a->solver.proved);
  EXPECT_LE(a->solver.optimalSeconds, a->solver.heuristicSeconds * (1 + 1e-12));
}

TEST(ParallelFor, CallsEachIndexOnceOnItsWorkers) {
  // The optimiser's estimates go through parallelFor: every index exactly
  // once, each on a worker whose scratch it may use alone.
  for (size_t n : {0u, 1u, 7u, 1000u}) {
    std::vector<std::atomic<int>> calls(n);
    std::vector<std::atomic<int>> busy(workers(n));
    std::atomic<bool> shared{false};
    parallelFor(n, [&](size_t i, size_t worker) {
      ASSERT_LT(worker, workers(n));
      if (busy[worker].fetch_add(1) != 0) shared = true; // two calls on one worker's scratch
      calls[i].fetch_add(1);
      busy[worker].fetch_sub(1);
    });
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(calls[i].load(), 1) << i << " of " << n;
    EXPECT_FALSE(shared) << n;
  }
}
