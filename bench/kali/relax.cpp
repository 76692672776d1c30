// bench/kali/relax.cpp - Kali's Fig. 4 relaxation as a benchmark of the
// validate/runtime inspector/executor (Koelbel, Mehrotra & Van Rosendale,
// PPoPP 1990; digest shared/docs/digest-kali-parti-dino-zima.md, Paper 1).
//
// An N×N five-point grid is given as an UNSTRUCTURED adjacency (node i's
// neighbours adj(i, 1..4) and coefficients coef(i, j)), its nodes distributed
// BLOCK over a 1-D processor array (Gray-code embedded on a hypercube), and
//
//     forall i in 1..n on a[i].loc
//       old_a[i] := a[i]
//     forall i in 1..n on a[i].loc
//       x := sum_j coef(i,j) * old_a[adj(i,j)]
//       a[i] := x
//
// is swept S times (100 in the paper). The references old_a[adj(i,j)] are known
// only at run time, so the loop runs through rt::inspect (once, Kali's
// `first_time`) and rt::execute (every sweep).
//
// Timing. Under SMPI (smpicxx; run with --cfg=smpi/simulate-computation:no)
// the host CPU time is not simulated; each rank charges its work explicitly
// with smpi_execute_flops, so simulated times depend only on the platform:
//   executor   EXEC_FLOPS per reference (default 2: a multiply and an add),
//              the local iterations charged before the messages are waited
//              for and the non-local ones after, as the executor runs them;
//   inspector  INSP_FLOPS per reference (default 1): Kali's locality-checking
//              loop; the schedule's messages are simulated by the runtime.
// Under plain MPI (mpicxx) the times are wall-clock times of the real code.
//
// Output (rank 0): one line
//   RESULT P=.. n=.. sweeps=.. total=.. executor=.. inspector=.. overhead=..
//          sched_msgs=.. exec_msgs=.. exec_bytes=.. check=OK|FAIL
// where each time is the maximum over ranks (total: of the per-rank sums),
// and check compares every element, bitwise, with a sequential relaxation
// computed on rank 0 in the same summation order. Exit status 1 on FAIL.
//
//   relax [--n N] [--sweeps S] [--exec-flops F] [--insp-flops F] [--no-check]
#include "validate/runtime/Abort.h"
#include "validate/runtime/ArrayDistribution.h"
#include "validate/runtime/Counters.h"
#include "validate/runtime/Inspector.h"
#include "validate/runtime/ProcessorMesh.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace dlayout;
using namespace dlayout::rt;

namespace {

inline void chargeFlops(double flops) {
#ifdef SMPI_H
  if (flops > 0) smpi_execute_flops(flops);
#else
  (void)flops;
#endif
}

// Node numbering: i = 1 + x + N*y. The neighbours in the order the adjacency
// lists them (the order of summation, the same in both versions).
inline int neighbours(int64_t N, int64_t i, int64_t out[4]) {
  const int64_t x = (i - 1) % N, y = (i - 1) / N;
  int k = 0;
  if (x > 0) out[k++] = i - 1;
  if (x + 1 < N) out[k++] = i + 1;
  if (y > 0) out[k++] = i - N;
  if (y + 1 < N) out[k++] = i + N;
  return k;
}
inline double initial(int64_t i) { return double(i % 7) + 0.5; }
inline double coef(int64_t i, int64_t j) { return 0.25 - 0.01 * double((i + j) % 3); }

std::vector<double> sequential(int64_t N, int sweeps) {
  const int64_t n = N * N;
  std::vector<double> a(n + 1), old;
  for (int64_t i = 1; i <= n; ++i) a[i] = initial(i);
  int64_t nb[4];
  for (int s = 0; s < sweeps; ++s) {
    old = a;
    for (int64_t i = 1; i <= n; ++i) {
      const int d = neighbours(N, i, nb);
      double x = 0;
      for (int j = 0; j < d; ++j) x += coef(i, j) * old[nb[j]];
      if (d > 0) a[i] = x;
    }
  }
  return a;
}

struct Options {
  int64_t N = 128;
  int sweeps = 100;
  double execFlops = 2, inspFlops = 1;
  bool check = true;
};

Options parse(int argc, char **argv) {
  Options o;
  for (int k = 1; k < argc; ++k) {
    auto val = [&]() -> const char * {
      if (k + 1 >= argc) {
        std::fprintf(stderr, "relax: %s needs a value\n", argv[k]);
        std::exit(2);
      }
      return argv[++k];
    };
    if (!std::strcmp(argv[k], "--n")) o.N = std::atoll(val());
    else if (!std::strcmp(argv[k], "--sweeps")) o.sweeps = std::atoi(val());
    else if (!std::strcmp(argv[k], "--exec-flops")) o.execFlops = std::atof(val());
    else if (!std::strcmp(argv[k], "--insp-flops")) o.inspFlops = std::atof(val());
    else if (!std::strcmp(argv[k], "--no-check")) o.check = false;
    else {
      std::fprintf(stderr, "relax: unknown option %s\n", argv[k]);
      std::exit(2);
    }
  }
  if (o.N < 1 || o.sweeps < 1) {
    std::fprintf(stderr, "relax: --n and --sweeps must be positive\n");
    std::exit(2);
  }
  return o;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const Options opt = parse(argc, argv);
  int P = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  const bool pow2 = (P & (P - 1)) == 0;
  int status = 0;
  {
    ProcessorMesh mesh = orAbort(ProcessorMesh::create(
        MPI_COMM_WORLD, {P}, pow2 ? Embedding::GrayCode : Embedding::Natural));
    const int me = mesh.rank();
    const int64_t N = opt.N, n = N * N;
    ArrayLayout L;
    DimLayout d;
    d.kind = DistKind::Block;
    d.meshDim = 0;
    L.dims = {d};
    const ArrayDistribution dist =
        orAbort(ArrayDistribution::make("a", {n}, {1}, L, {int64_t(P)}));

    // exec(p): the nodes this rank owns (owner computes); their adjacency is
    // the loop's reference list (input data, not timed).
    const std::vector<int64_t> exec = dist.ownedIndices(me, 0);
    std::vector<int64_t> ptr{0}, refs;
    refs.reserve(exec.size() * 4);
    int64_t nb[4];
    for (int64_t i : exec) {
      const int k = neighbours(N, i, nb);
      refs.insert(refs.end(), nb, nb + k);
      ptr.push_back(int64_t(refs.size()));
    }

    MPI_Barrier(mesh.comm());
    // ---- inspector ------------------------------------------------------
    const double ti0 = MPI_Wtime();
    chargeFlops(opt.inspFlops * double(refs.size())); // locality-checking loop
    ForallPlan plan = orAbort(inspect(mesh, dist, ptr, refs));
    const double tInsp = MPI_Wtime() - ti0;
    const PhaseCounters schedAfterInspect = mesh.counters()[Phase::Scheduling];
    const PhaseCounters commBefore = mesh.counters()[Phase::Communication];

    // ---- executor -------------------------------------------------------
    auto refsOf = [&](const std::vector<int64_t> &iters) {
      int64_t r = 0;
      for (int64_t k : iters) r += plan.refPtr[k + 1] - plan.refPtr[k];
      return r;
    };
    const double localFlops = opt.execFlops * double(refsOf(plan.localIters));
    const double nonlocalFlops = opt.execFlops * double(refsOf(plan.nonlocalIters));
    const int64_t lastLocal = plan.localIters.empty() ? -1 : plan.localIters.back();
    const int64_t lastNonlocal = plan.nonlocalIters.empty() ? -1 : plan.nonlocalIters.back();

    std::vector<double> la(exec.size()), lold, buf;
    for (size_t k = 0; k < exec.size(); ++k) la[k] = initial(exec[k]);
    const double te0 = MPI_Wtime();
    for (int s = 0; s < opt.sweeps; ++s) {
      lold = la; // forall i on old_a[i].loc: old_a[i] := a[i]
      execute(mesh, plan, lold.data(), buf, [&](int64_t k, const RefValues<double> &v) {
        const int64_t i = exec[k];
        double x = 0;
        for (int64_t j = 0; j < v.size(); ++j) x += coef(i, j) * v[j];
        if (v.size() > 0) la[k] = x;
        // Charge the simulated work where the executor does it: local
        // iterations before the receive completes, non-local ones after.
        if (k == lastLocal) chargeFlops(localFlops);
        if (k == lastNonlocal) chargeFlops(nonlocalFlops);
      });
    }
    const double tExec = MPI_Wtime() - te0;

    // ---- report ---------------------------------------------------------
    double mine[3] = {tInsp, tExec, tInsp + tExec}, mx[3];
    MPI_Reduce(mine, mx, 3, MPI_DOUBLE, MPI_MAX, 0, mesh.comm());
    const PhaseCounters &sc = mesh.counters()[Phase::Scheduling];
    const PhaseCounters &cc = mesh.counters()[Phase::Communication];
    int64_t cnt[4] = {schedAfterInspect.messagesSent,
                      cc.messagesSent - commBefore.messagesSent,
                      cc.bytesSent - commBefore.bytesSent,
                      sc.messagesSent - schedAfterInspect.messagesSent},
            sum[4];
    MPI_Reduce(cnt, sum, 4, MPI_INT64_T, MPI_SUM, 0, mesh.comm());

    // ---- check against the sequential relaxation ------------------------
    std::string check = "SKIPPED";
    if (opt.check) {
      std::vector<int> counts(P), displs(P);
      for (int p = 0; p < P; ++p) counts[p] = int(dist.storageSize(p));
      for (int p = 1; p < P; ++p) displs[p] = displs[p - 1] + counts[p - 1];
      std::vector<double> all(me == 0 ? size_t(n) : 0);
      MPI_Gatherv(la.data(), int(la.size()), MPI_DOUBLE, all.data(), counts.data(),
                  displs.data(), MPI_DOUBLE, 0, mesh.comm());
      int ok = 1;
      if (me == 0) {
        const std::vector<double> ref = sequential(N, opt.sweeps);
        for (int p = 0; p < P && ok; ++p) {
          const std::vector<int64_t> own = dist.ownedIndices(p, 0);
          for (size_t k = 0; k < own.size(); ++k)
            if (all[displs[p] + k] != ref[own[k]]) {
              std::fprintf(stderr, "relax: FAIL: element %lld (rank %d) is %.17g, sequential %.17g\n",
                           (long long)own[k], p, all[displs[p] + k], ref[own[k]]);
              ok = 0;
              break;
            }
        }
        ok &= sum[3] == 0; // executor sweeps send no scheduling messages
      }
      MPI_Bcast(&ok, 1, MPI_INT, 0, mesh.comm());
      check = ok ? "OK" : "FAIL";
      status = ok ? 0 : 1;
    }
    if (me == 0) {
      std::printf("RESULT P=%d n=%lld sweeps=%d total=%.6f executor=%.6f inspector=%.6f "
                  "overhead=%.4f sched_msgs=%lld exec_msgs=%lld exec_bytes=%lld check=%s\n",
                  P, (long long)N, opt.sweeps, mx[2], mx[1], mx[0],
                  mx[2] > 0 ? 100.0 * mx[0] / mx[2] : 0.0, (long long)sum[0], (long long)sum[1],
                  (long long)sum[2], check.c_str());
      std::fflush(stdout);
    }
  }
  MPI_Finalize();
  return status;
}
