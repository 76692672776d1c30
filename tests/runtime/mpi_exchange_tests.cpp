// The exchange tests of the MPI runtime: PARTI gather / scatter / scatter-
// combine through schedules and their reuse, DINO ghost updates, and
// redistribution between layouts. Run from mpi_runtime_test.cpp.
#include "MpiTestSupport.h"

#include "validate/runtime/Collectives.h"
#include "validate/runtime/Ghost.h"
#include "validate/runtime/Schedule.h"

#include <algorithm>
#include <cmath>

namespace dlayout::rt::test {

// --------------------------------------------------------------------------
void testGatherScatter(Checker &ck, int P, const Case &c) {
  ProcessorMesh mesh = orAbort(ProcessorMesh::create(MPI_COMM_WORLD, c.mesh));
  const int me = mesh.rank();
  ArrayDistribution d = makeDist(c);
  const std::string tag = "[" + c.name + "] ";

  // Gather (PARTI Level 1) and its reuse.
  auto idx = randomIndices(d, me, 1);
  const int64_t n = static_cast<int64_t>(idx.size()) / d.rank();
  Schedule s = orAbort(Schedule::build(mesh, d, idx));
  auto local = storage(d, me);
  std::vector<double> out(n, -7);
  s.gather(mesh, local.data(), out.data());
  bool ok = true;
  for (int64_t j = 0; j < n; ++j)
    ok &= out[j] == valueOf(d.linear(std::span<const int64_t>(idx).subspan(j * d.rank(), d.rank())));
  CHECK(ck, ok, tag + "gather equals the sequential reference");

  const PhaseCounters sched = mesh.counters()[Phase::Scheduling];
  const PhaseCounters comm = mesh.counters()[Phase::Communication];
  std::vector<double> local2(local.size());
  for (size_t k = 0; k < local.size(); ++k) local2[k] = 2 * local[k];
  s.gather(mesh, local2.data(), out.data()); // another array, same pattern
  ok = true;
  for (int64_t j = 0; j < n; ++j)
    ok &= out[j] == 2 * valueOf(d.linear(std::span<const int64_t>(idx).subspan(j * d.rank(), d.rank())));
  CHECK(ck, ok, tag + "reused schedule gathers a second array");
  const PhaseCounters &sched2 = mesh.counters()[Phase::Scheduling];
  CHECK(ck, sched2.messagesSent == sched.messagesSent &&
                sched2.messagesReceived == sched.messagesReceived &&
                sched2.bytesSent == sched.bytesSent && sched2.collectives == sched.collectives,
        tag + "a reused schedule sends no scheduling messages");
  const PhaseCounters &comm2 = mesh.counters()[Phase::Communication];
  CHECK(ck, comm2.messagesSent - comm.messagesSent == s.destinationPeers() &&
                comm2.bytesSent - comm.bytesSent == s.elementsOut() * 8 &&
                comm2.messagesReceived - comm.messagesReceived == s.sourcePeers(),
        tag + "a gather sends one message per peer");
  CHECK(ck, (P > 1 && d.copies() < P) || (s.sourcePeers() == 0 && s.destinationPeers() == 0),
        tag + "no messages when every element is local");

  // Sequential references for the scatter family: every rank's list.
  std::vector<double> refAdd(d.size(), 0), refMul(d.size(), 1), refMin(d.size()),
      refMax(d.size());
  for (int64_t g = 0; g < d.size(); ++g) refMin[g] = refMax[g] = valueOf(g);
  auto addV = [](int r, int64_t j) { return double(r + 1 + j % 3); };
  auto mulV = [](int r, int64_t j) { return double(1 + (r + j) % 2); };
  auto mmV = [](int r, int64_t j) { return double((r * 31 + j * 7) % 500); };
  for (int r = 0; r < P; ++r) {
    auto ix = randomIndices(d, r, 2);
    for (int64_t j = 0; j < int64_t(ix.size()) / d.rank(); ++j) {
      int64_t g = d.linear(std::span<const int64_t>(ix).subspan(j * d.rank(), d.rank()));
      refAdd[g] += addV(r, j);
      refMul[g] *= mulV(r, j);
      refMin[g] = std::min(refMin[g], mmV(r, j));
      refMax[g] = std::max(refMax[g], mmV(r, j));
    }
  }
  auto ix = randomIndices(d, me, 2);
  const int64_t m = static_cast<int64_t>(ix.size()) / d.rank();
  Schedule sa = orAbort(Schedule::build(mesh, d, ix, Copies::All));
  auto runScatter = [&](Combine op, double init, auto valueFn, const std::vector<double> &ref,
                        const char *what) {
    std::vector<double> st(d.storageSize(me), init);
    if (op == Combine::Min || op == Combine::Max) st = storage(d, me);
    std::vector<double> in(m);
    for (int64_t j = 0; j < m; ++j) in[j] = valueFn(me, j);
    sa.scatter(mesh, in.data(), st.data(), op);
    bool good = true;
    d.forEachOwned(me, [&](std::span<const int64_t> i, int64_t off) {
      good &= st[off] == ref[d.linear(i)];
    });
    CHECK(ck, good, tag + what + " equals the sequential reference on every copy");
  };
  runScatter(Combine::Add, 0, addV, refAdd, "scatter-add");
  runScatter(Combine::Mul, 1, mulV, refMul, "scatter-mul");
  runScatter(Combine::Min, 0, mmV, refMin, "scatter-min");
  runScatter(Combine::Max, 0, mmV, refMax, "scatter-max");

  // Scatter (assign) of a permutation of every element, split over the ranks.
  std::vector<int64_t> perm(d.size());
  for (int64_t g = 0; g < d.size(); ++g) perm[g] = g;
  std::shuffle(perm.begin(), perm.end(), std::mt19937_64(5));
  std::vector<int64_t> mine;
  std::vector<double> vals;
  for (int64_t k = me; k < d.size(); k += P) {
    auto i = d.delinear(perm[k]);
    mine.insert(mine.end(), i.begin(), i.end());
    vals.push_back(-valueOf(perm[k]) - 1);
  }
  Schedule sp = orAbort(Schedule::build(mesh, d, mine, Copies::All, Transport::AllToAll));
  std::vector<double> st(d.storageSize(me), 0);
  sp.scatter(mesh, vals.data(), st.data());
  ok = true;
  d.forEachOwned(me, [&](std::span<const int64_t> i, int64_t off) {
    ok &= st[off] == -valueOf(d.linear(i)) - 1;
  });
  CHECK(ck, ok, tag + "scatter of a permutation sets every element (all-to-all transport)");
}

// --------------------------------------------------------------------------
void checkGhosts(Checker &ck, ProcessorMesh &mesh, const ArrayDistribution &d,
                 bool corners, const std::string &tag) {
  const int64_t me = mesh.rank();
  GhostUpdate gu = orAbort(GhostUpdate::build(mesh, d, corners));
  auto st = storage(d, me, -1);
  gu.update(mesh, st.data());
  const PhaseCounters sched = mesh.counters()[Phase::Scheduling];
  // Expected: every storage cell whose global index is in the array and is
  // owned, a face cell, or (with corners) a corner cell holds valueOf.
  const int r = d.rank();
  auto coords = d.coordsOf(me);
  auto ext = d.storageExtents(me);
  bool ok = true, empty = false;
  std::vector<std::pair<int64_t, int64_t>> seg(r);
  std::vector<int64_t> ovl(r);
  for (int k = 0; k < r; ++k) {
    const Distribution &dk = d.dim(k);
    int64_t c = d.meshDimOf(k) < 0 ? 0 : coords[d.meshDimOf(k)];
    seg[k] = dk.segment(c);
    ovl[k] = dk.overlapLeft();
    empty |= dk.localExtent(c) == 0;
  }
  int64_t ghostsSeen = 0;
  std::vector<int64_t> s(r, 0), g(r);
  for (int64_t cell = 0; !empty && cell < d.storageSize(me); ++cell) {
    int ghosts = 0;
    bool inArray = true;
    for (int k = 0; k < r; ++k) {
      g[k] = seg[k].first - ovl[k] + s[k];
      inArray &= d.dim(k).inRange(g[k]);
      ghosts += g[k] < seg[k].first || g[k] >= seg[k].second;
    }
    int64_t off = d.offsetOfStorage(me, s);
    bool want = inArray && (ghosts <= 1 || corners);
    ghostsSeen += want && ghosts > 0;
    double expect = want ? valueOf(d.linear(g)) : -1;
    ok &= st[off] == expect;
    for (int k = 0; k < r; ++k) { // column-major odometer over the box
      if (++s[k] < ext[k]) break;
      s[k] = 0;
    }
  }
  CHECK(ck, ok, tag + (corners ? " with corners" : " faces only") + ": every halo cell right");
  CHECK(ck, ghostsSeen == gu.ghostCells(), tag + ": ghost cell count");
  // Reuse: new owned values, same update, no scheduling.
  d.forEachOwned(me, [&](std::span<const int64_t> i, int64_t o) { st[o] = 2 * valueOf(d.linear(i)); });
  gu.update(mesh, st.data());
  ok = true;
  for (int64_t cell = 0; !empty && cell < d.storageSize(me); ++cell) ok &= st[cell] == -1 || std::fmod(st[cell], 2.0) == 0;
  CHECK(ck, ok, tag + ": second update refreshes the halo");
  CHECK(ck, mesh.counters()[Phase::Scheduling].messagesSent == sched.messagesSent,
        tag + ": a reused ghost update sends no scheduling messages");
}

void testGhosts(Checker &ck, int P) {
  auto m2 = dimsCreate(P, 2);
  ProcessorMesh mesh = orAbort(ProcessorMesh::create(MPI_COMM_WORLD, m2));
  DimLayout b0 = dl(DistKind::Block, 0), b1 = dl(DistKind::Block, 1);
  b0.overlapLeft = b0.overlapRight = 1;
  b1.overlapLeft = 2;
  b1.overlapRight = 1;
  ArrayDistribution d = makeDist({"U", {13, 11}, {1, 1}, {b0, b1}, m2});
  checkGhosts(ck, mesh, d, true, "ghost 2-D block overlap (1,1)x(2,1)");
  checkGhosts(ck, mesh, d, false, "ghost 2-D block overlap (1,1)x(2,1)");

  ProcessorMesh m1 = orAbort(ProcessorMesh::create(MPI_COMM_WORLD, {P}));
  DimLayout g = dl(DistKind::GeneralBlock, 0);
  for (int p = 0; p < P; ++p) g.begins.push_back(1 + 3 * p + (p % 2)); // some 3, some 4 wide
  g.overlapLeft = 2; // DINO [compress][block overlap 2,0]
  ArrayDistribution d1 = makeDist({"V", {3 * P + 2}, {1}, {g}, {P}});
  checkGhosts(ck, m1, d1, true, "ghost 1-D general_block overlap (2,0)");
  // Rows with a replicated (unmapped) mesh dimension: halos along mesh 0.
  DimLayout r0 = dl(DistKind::Block, 0);
  r0.overlapLeft = r0.overlapRight = 1;
  ArrayDistribution d2 = makeDist({"W", {13, 5}, {0, 0}, {r0, dl(DistKind::Collapsed, -1)}, m2});
  checkGhosts(ck, mesh, d2, true, "ghost block rows, replicated along mesh 1");
}

// --------------------------------------------------------------------------
void testRedistribution(Checker &ck, int P) {
  auto cs = cases(P);
  // Groups of layouts of the same array shape.
  std::vector<std::vector<int>> groups = {{0, 1, 2, 3, 4}, {5, 6, 7}};
  for (const auto &grp : groups)
    for (int a : grp)
      for (int b : grp) {
        Case ca = cs[a], cb = cs[b];
        if (ca.mesh != cb.mesh) continue;
        ProcessorMesh mesh = orAbort(ProcessorMesh::create(MPI_COMM_WORLD, ca.mesh));
        ca.name = cb.name = "R";
        ArrayDistribution from = makeDist(ca), to = makeDist(cb);
        const int me = mesh.rank();
        for (Transport t : {Transport::AllToAll, Transport::PointToPoint}) {
          Redistribution rd = orAbort(Redistribution::build(mesh, from, to, t));
          auto src = storage(from, me);
          std::vector<double> dst(to.storageSize(me), -5);
          rd.execute(mesh, src.data(), dst.data());
          bool ok = true;
          int64_t n = 0;
          to.forEachOwned(me, [&](std::span<const int64_t> i, int64_t off) {
            ok &= dst[off] == valueOf(to.linear(i));
            ++n;
          });
          int64_t total = 0;
          MPI_Allreduce(&n, &total, 1, MPI_INT64_T, MPI_SUM, mesh.comm());
          CHECK(ck, ok, "redistribution " + cs[a].name + " -> " + cs[b].name +
                            " preserves every element");
          CHECK(ck, total == to.size() * to.copies(),
                "redistribution " + cs[a].name + " -> " + cs[b].name + " fills every copy");
        }
      }
}

} // namespace dlayout::rt::test
