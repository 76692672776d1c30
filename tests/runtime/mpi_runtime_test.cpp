// Tests of the MPI runtime with real ranks: run under mpirun (OpenMPI) or,
// compiled with smpicxx, under smpirun (SimGrid). No GoogleTest: every rank
// counts its checks and failures, rank 0 prints
//   runtime_mpi_test: N checks, F failures (P ranks)
// and the exit status is non-zero when any rank failed.
//
//   runtime_mpi_test all                run every test
//   runtime_mpi_test bad-index          a rank asks for an index out of range
//   runtime_mpi_test bad-mesh           a mesh that does not fit the job
//   runtime_mpi_test bad-general-block  a non-increasing begin vector
//   runtime_mpi_test bad-indirect       an indirect map naming processor P
//   runtime_mpi_test bad-indirect-table the same, found in one rank's block
//                                       of a distributed translation table
// The bad-* runs must end with one "dlayout: error: rank R: ..." line and a
// non-zero status (expect_abort.sh checks it).
//
// The reference for every distributed result is computed sequentially on
// every rank: the random request lists are seeded by rank, so each rank can
// regenerate all of them.
#include "MpiTestSupport.h"

#include "validate/runtime/Abort.h"
#include "validate/runtime/ArrayDistribution.h"
#include "validate/runtime/Collectives.h"
#include "validate/runtime/Ghost.h"
#include "validate/runtime/Inspector.h"
#include "validate/runtime/ProcessorMesh.h"
#include "validate/runtime/Schedule.h"
#include "validate/runtime/TranslationTable.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace dlayout;
using namespace dlayout::rt;
using namespace dlayout::rt::test;

namespace {

// --------------------------------------------------------------------------
void testMesh(Checker &ck, int P, int worldRank) {
  for (int d = 1; d <= 3; ++d) {
    auto shape = dimsCreate(P, d);
    for (Embedding e : {Embedding::Natural, Embedding::GrayCode}) {
      bool pow2 = (P & (P - 1)) == 0;
      auto r = ProcessorMesh::create(MPI_COMM_WORLD, shape, e);
      if (e == Embedding::GrayCode && !pow2) {
        CHECK(ck, !r.ok(), "Gray code needs powers of two");
        continue;
      }
      ProcessorMesh mesh = orAbort(std::move(r));
      CHECK(ck, mesh.size() == P, "mesh size");
      std::vector<int> cc(d);
      MPI_Cart_coords(mesh.comm(), mesh.rank(), d, cc.data());
      for (int m = 0; m < d; ++m)
        CHECK(ck, cc[m] == mesh.coords()[m], "MPI_Cart_coords agrees with coords()");
      CHECK(ck, mesh.parentRank(mesh.rank()) == worldRank, "parentRank is my world rank");
      for (int m = 0; m < d; ++m) {
        int lr, ls;
        MPI_Comm_rank(mesh.lineComm(m), &lr);
        MPI_Comm_size(mesh.lineComm(m), &ls);
        CHECK(ck, lr == mesh.coords()[m] && ls == shape[m], "line communicator");
        int64_t nb = mesh.neighbour(m, 1);
        if (nb < 0) continue;
        if (e == Embedding::GrayCode) {
          uint64_t x = static_cast<uint64_t>(mesh.parentRank(nb) ^ worldRank);
          CHECK(ck, x && !(x & (x - 1)), "mesh neighbours are hypercube neighbours");
        }
      }
    }
  }
  // A mesh that does not fit is an Error on every rank (bad-mesh aborts on it).
  auto bad = ProcessorMesh::create(MPI_COMM_WORLD, {P + 1});
  CHECK(ck, !bad.ok() && bad.error().message.find("MPI processes") != std::string::npos,
        "mesh mismatch reported");
}

// --------------------------------------------------------------------------
// Kali Fig. 4: nearest-neighbour relaxation on a grid given as an unstructured
// adjacency (5-point), through the inspector/executor.
struct Grid {
  int64_t n = 0;
  std::vector<std::vector<int64_t>> adj; // 1-based node numbers
};
Grid makeGrid(int64_t nx, int64_t ny) {
  Grid g;
  g.n = nx * ny;
  g.adj.resize(g.n + 1);
  for (int64_t y = 0; y < ny; ++y)
    for (int64_t x = 0; x < nx; ++x) {
      int64_t i = 1 + x + nx * y;
      if (x > 0) g.adj[i].push_back(i - 1);
      if (x + 1 < nx) g.adj[i].push_back(i + 1);
      if (y > 0) g.adj[i].push_back(i - nx);
      if (y + 1 < ny) g.adj[i].push_back(i + nx);
    }
  return g;
}

void testInspectorExecutor(Checker &ck, int P) {
  const Grid grid = makeGrid(12, 10);
  const int sweeps = 3;
  auto init = [](int64_t i) { return double(i % 7) + 0.5; };
  auto coef = [](int64_t i, size_t j) { return 0.25 + 0.01 * double((i + j) % 3); };
  // Sequential reference (the same summation order as the executor).
  std::vector<double> a(grid.n + 1), old(grid.n + 1);
  for (int64_t i = 1; i <= grid.n; ++i) a[i] = init(i);
  for (int s = 0; s < sweeps; ++s) {
    old = a;
    for (int64_t i = 1; i <= grid.n; ++i) {
      double x = 0;
      for (size_t j = 0; j < grid.adj[i].size(); ++j) x += coef(i, j) * old[grid.adj[i][j]];
      if (!grid.adj[i].empty()) a[i] = x;
    }
  }

  ProcessorMesh mesh = orAbort(ProcessorMesh::create(MPI_COMM_WORLD, {P}));
  const int me = mesh.rank();
  DimLayout ind = dl(DistKind::Indirect, 0);
  std::mt19937_64 rng(99);
  for (int64_t i = 0; i < grid.n; ++i) ind.map.push_back(static_cast<int64_t>(rng() % P));
  std::vector<Case> layouts = {{"a", {grid.n}, {1}, {dl(DistKind::Block, 0)}, {P}},
                               {"a", {grid.n}, {1}, {dl(DistKind::Cyclic, 0)}, {P}},
                               {"a", {grid.n}, {1}, {ind}, {P}}};
  for (size_t li = 0; li < layouts.size() + 1; ++li) {
    const bool viaTable = li == layouts.size(); // indirect, map in a translation table
    const Case &c = layouts[viaTable ? 2 : li];
    const std::string tag = "[kali " + std::string(viaTable ? "indirect via table"
                                                            : toStringKind(c.dims[0].kind)) + "] ";
    ArrayDistribution full = makeDist(c);
    std::optional<TranslationTable> table;
    std::optional<ArrayDistribution> viaT;
    if (viaTable) {
      table.emplace(orAbort(TranslationTable::fromFullMap(mesh, ind.map, 1, P)));
      viaT.emplace(orAbort(ArrayDistribution::fromDistributions(
          "a", {table->distribution()}, {0}, {P})));
    }
    const ArrayDistribution &d = viaTable ? *viaT : full;
    // exec(p) = the nodes this rank owns (owner computes), from the full map.
    std::vector<int64_t> exec = full.ownedIndices(me, 0);
    std::vector<int64_t> ptr{0}, refs;
    for (int64_t i : exec) {
      refs.insert(refs.end(), grid.adj[i].begin(), grid.adj[i].end());
      ptr.push_back(static_cast<int64_t>(refs.size()));
    }
    ForallPlan plan = orAbort(inspect(mesh, d, ptr, refs, viaTable ? &*table : nullptr));
    CHECK(ck, int64_t(plan.localIters.size() + plan.nonlocalIters.size()) == int64_t(exec.size()),
          tag + "local + nonlocal iterations = exec(p)");
    CHECK(ck, P > 1 || plan.nonlocalIters.empty(), tag + "one process: all local");
    CHECK(ck, d.storageSize(me) == int64_t(exec.size()), tag + "storage = |λ(p)|");
    std::vector<double> la(exec.size()), lold(exec.size()), buf;
    for (size_t k = 0; k < exec.size(); ++k) la[k] = init(exec[k]);
    const PhaseCounters sched = mesh.counters()[Phase::Scheduling];
    for (int s = 0; s < sweeps; ++s) {
      lold = la; // forall i on old_a[i].loc: old_a[i] := a[i]
      execute(mesh, plan, lold.data(), buf, [&](int64_t k, const RefValues<double> &v) {
        const int64_t i = exec[k];
        double x = 0;
        for (int64_t j = 0; j < v.size(); ++j) x += coef(i, size_t(j)) * v[j];
        if (v.size() > 0) la[k] = x;
      });
    }
    bool ok = true;
    for (size_t k = 0; k < exec.size(); ++k) ok &= la[k] == a[exec[k]];
    CHECK(ck, ok, tag + "relaxation equals the sequential result bitwise");
    CHECK(ck, mesh.counters()[Phase::Scheduling].messagesSent == sched.messagesSent,
          tag + "executor sweeps send no scheduling messages");
    CHECK(ck, mesh.counters()[Phase::Computation].seconds >= 0, tag + "computation timed");
  }
}

// --------------------------------------------------------------------------
void testTranslationTable(Checker &ck, int P) {
  ProcessorMesh mesh = orAbort(ProcessorMesh::create(MPI_COMM_WORLD, {P}));
  const int64_t n = 53;
  std::vector<int64_t> map;
  std::mt19937_64 rng(3);
  for (int64_t i = 0; i < n; ++i) map.push_back(static_cast<int64_t>(rng() % P));
  DimLayout L = dl(DistKind::Indirect, 0);
  L.map = map;
  Distribution ref = orAbort(Distribution::make(L, n, 0, P));
  TranslationTable t = orAbort(TranslationTable::fromFullMap(mesh, map, 0, P));
  bool ok = true;
  for (int64_t p = 0; p < P; ++p) ok &= t.distribution().localExtent(p) == ref.localExtent(p);
  CHECK(ck, ok, "translation table local extents");
  std::vector<int64_t> ids;
  std::mt19937_64 r2(17 + mesh.rank());
  for (int k = 0; k < 40; ++k) ids.push_back(static_cast<int64_t>(r2() % n));
  const int64_t before = mesh.counters()[Phase::Scheduling].messagesSent;
  auto e = orAbort(t.lookup(mesh, ids));
  ok = true;
  for (size_t k = 0; k < ids.size(); ++k)
    ok &= e[k].owner == ref.owner(ids[k]) && e[k].local == ref.localIndex(ids[k]);
  CHECK(ck, ok, "translation table look-up equals the full map");
  CHECK(ck, P == 1 || mesh.counters()[Phase::Scheduling].messagesSent > before,
        "a look-up costs scheduling messages");
}

// --------------------------------------------------------------------------
void testCollectives(Checker &ck, int P) {
  auto m2 = dimsCreate(P, 2);
  ProcessorMesh mesh = orAbort(ProcessorMesh::create(MPI_COMM_WORLD, m2));
  const int me = mesh.rank();
  const auto &c = mesh.coords();
  // OneToManyMulticast along mesh dimension 1 from coordinate 0.
  double v[3] = {double(me), double(me) + 0.5, -1};
  broadcast(mesh, v, 3, 0, 1);
  std::vector<int64_t> rootC{c[0], 0};
  int64_t root = mesh.procOf(rootC);
  CHECK(ck, v[0] == double(root) && v[1] == double(root) + 0.5, "broadcast along a mesh dimension");
  // ManyToManyMulticast along mesh dimension 0.
  int64_t mine[2] = {me, 7};
  std::vector<int64_t> all(2 * m2[0]);
  allGather(mesh, mine, 2, all.data(), 0);
  bool ok = true;
  for (int64_t k = 0; k < m2[0]; ++k) {
    std::vector<int64_t> cc{k, c[1]};
    ok &= all[2 * k] == mesh.procOf(cc) && all[2 * k + 1] == 7;
  }
  CHECK(ck, ok, "all-gather along a mesh dimension");
  std::vector<int> mv(me % 3, me);
  auto vv = allGatherv(mesh, mv);
  int64_t want = 0;
  for (int r = 0; r < P; ++r) want += r % 3;
  CHECK(ck, int64_t(vv.size()) == want, "all-gatherv of unequal pieces");
  // Scatter and gather over the whole mesh.
  std::vector<double> src(2 * P), back(2 * P, -1);
  for (int k = 0; k < 2 * P; ++k) src[k] = 100.0 + k;
  double piece[2];
  scatter(mesh, src.data(), piece, 2, 0);
  CHECK(ck, piece[0] == 100.0 + 2 * me && piece[1] == 101.0 + 2 * me, "scatter");
  gather(mesh, piece, 2, back.data(), P - 1);
  CHECK(ck, me != P - 1 || back == src, "gather");
  // Reductions.
  double s[2] = {double(me), 1.0};
  reduce(mesh, s, 2, Combine::Add);
  CHECK(ck, s[0] == double(P) * (P - 1) / 2 && s[1] == P, "reduction (add) everywhere");
  int64_t mx = me;
  reduce(mesh, &mx, 1, Combine::Max, 0);
  CHECK(ck, mx == mesh.procOf(std::vector<int64_t>{m2[0] - 1, c[1]}), "reduction (max) along a mesh dimension");
  int32_t mn = me + 5;
  reduce(mesh, &mn, 1, Combine::Min, -1, 0);
  CHECK(ck, me != 0 || mn == 5, "reduction (min) to a root");
  CHECK(ck, mesh.counters()[Phase::Communication].collectives == 8, "collectives counted");
}

// --------------------------------------------------------------------------
int badInput(const std::string &what, int P, int worldRank) {
  if (what == "bad-index") {
    ProcessorMesh mesh = orAbort(ProcessorMesh::create(MPI_COMM_WORLD, {P}));
    ArrayDistribution d = makeDist({"A", {32}, {1}, {dl(DistKind::Block, 0)}, {P}});
    std::vector<int64_t> idx{1, 2, 32};
    if (mesh.rank() == std::min(3, P - 1)) idx.push_back(40);
    Schedule s = orAbort(Schedule::build(mesh, d, idx));
    (void)s;
  } else if (what == "bad-mesh") {
    ProcessorMesh mesh = orAbort(ProcessorMesh::create(MPI_COMM_WORLD, {P + 1}));
  } else if (what == "bad-general-block") {
    DimLayout g = dl(DistKind::GeneralBlock, 0);
    for (int p = 0; p < P; ++p) g.begins.push_back(1 + 2 * p);
    if (P > 1) g.begins[P - 1] = g.begins[P - 2]; // not increasing
    else g.begins = {1, 1};
    ArrayDistribution d = makeDist({"G", {4 * P}, {1}, {g}, {P}});
  } else if (what == "bad-indirect") {
    DimLayout m = dl(DistKind::Indirect, 0);
    for (int k = 0; k < 10; ++k) m.map.push_back(k % P);
    m.map[5] = P; // a processor that does not exist
    ArrayDistribution d = makeDist({"X", {10}, {1}, {m}, {P}});
  } else if (what == "bad-indirect-table") {
    ProcessorMesh mesh = orAbort(ProcessorMesh::create(MPI_COMM_WORLD, {P}));
    std::vector<int64_t> map(8 * P);
    for (size_t k = 0; k < map.size(); ++k) map[k] = static_cast<int64_t>(k % P);
    // Only the rank holding entry 2*8+1 of the table's block sees the bad value.
    map[std::min(2, P - 1) * 8 + 1] = P + 3;
    TranslationTable t = orAbort(TranslationTable::fromFullMap(mesh, map, 0, P));
    (void)t;
  } else {
    if (worldRank == 0) std::fprintf(stderr, "runtime_mpi_test: unknown test '%s'\n", what.c_str());
    return 2;
  }
  if (worldRank == 0)
    std::fprintf(stderr, "runtime_mpi_test: %s was accepted, an abort was expected\n",
                 what.c_str());
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int P = 0, worldRank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &worldRank);
  std::string what = argc > 1 ? argv[1] : "all";
  int status = 0;
  if (what != "all") {
    status = badInput(what, P, worldRank);
  } else {
    const double t0 = MPI_Wtime();
    Checker ck;
    ck.rank = worldRank;
    const char *only = std::getenv("RUNTIME_TEST_ONLY"); // one section, for debugging
    auto section = [&](const char *name, auto &&fn) {
      if (only && std::strncmp(only, name, std::strlen(only)) != 0) return;
      auto w0 = std::chrono::steady_clock::now();
      fn();
      MPI_Barrier(MPI_COMM_WORLD);
      double w = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
      if (worldRank == 0 && std::getenv("RUNTIME_TEST_TIMES"))
        std::printf("  %-40s %.3f s wall\n", name, w);
    };
    section("mesh", [&] { testMesh(ck, P, worldRank); });
    for (const Case &c : cases(P))
      section(("exchange " + c.name).c_str(), [&] { testGatherScatter(ck, P, c); });
    section("ghost", [&] { testGhosts(ck, P); });
    section("redistribution", [&] { testRedistribution(ck, P); });
    section("table", [&] { testTranslationTable(ck, P); });
    section("kali", [&] { testInspectorExecutor(ck, P); });
    section("collectives", [&] { testCollectives(ck, P); });
    int64_t mine[2] = {ck.checks, ck.failures}, sum[2];
    MPI_Reduce(mine, sum, 2, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Bcast(sum, 2, MPI_INT64_T, 0, MPI_COMM_WORLD);
    if (worldRank == 0)
      std::printf("runtime_mpi_test: %lld checks, %lld failures (%d ranks, %.3f s MPI_Wtime)\n",
                  static_cast<long long>(sum[0]), static_cast<long long>(sum[1]), P,
                  MPI_Wtime() - t0);
    status = sum[1] ? 1 : 0;
  }
  MPI_Finalize();
  return status;
}
