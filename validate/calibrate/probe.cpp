//===- validate/calibrate/probe.cpp - What `dlayout calibrate` measures ---===//
//
//   dlayout-calibrate-{mpi,simgrid} --out RESULT.json [--sizes B,B,...]
//        [--collective-sizes B,...] [--peer R] [--batches N] [--target S]
//        [--budget S] [--gray] [--no-collectives] [--no-compute]
//
// An MPI program, built twice from this one file: with mpicxx
// (dlayout-calibrate-mpi, run by mpirun on real ranks) and with smpicxx
// (dlayout-calibrate-simgrid, DLAYOUT_SIMGRID, run by smpirun on a platform
// generated from a machine model). Every time is MPI_Wtime (simulated time
// under SimGrid). Rank 0 writes "dlayout-calibration-probe/1" to --out:
//
//  - pingpong: for each size m, half the round-trip time of m bytes between
//    rank 0 and --peer (default 1): the one-way message time Transfer(m) of
//    the thesis (section 6.1.2). Two untimed round trips first; then rank 0
//    picks the repetitions that fill --target seconds (from the fastest of
//    three timed round trips), tells the peer, and times up to --batches
//    batches (at least 5; no more once a size has taken --budget seconds). The fastest batch is kept
//    (interruptions - another process, a descheduled rank - only ever add
//    time; the thesis's Transfer is the uncontended cost), the median beside
//    it to show the noise. Under SimGrid, where time is exact, 3 batches of
//    one round trip.
//  - collectives: each MPI collective standing for one of the machine
//    model's primitives (thesis Table 6.1) - Sendrecv around a ring (shift;
//    with --gray the ring in Gray-code order, so that on a hypercube every
//    rank exchanges with cube neighbours, as mesh neighbours are embedded),
//    Allreduce (reduction: the executor combines partial sums with it),
//    Bcast (one_to_many_multicast), Allgather (many_to_many_multicast),
//    Scatter, Gather - with m bytes per processor. A loop of (collective;
//    barrier) is timed, minus a loop of barriers alone, so that back-to-back
//    collectives cannot overlap (a detached send lets a broadcast root run
//    ahead of its receivers) and barrier time is not counted; of each loop
//    the slowest rank's figure of the fastest batch is kept. (Why naive
//    loops mislead: T. Hoefler, T. Schneider, A. Lumsdaine, Accurately
//    measuring collective operations at massive scale, IPDPS 2008.)
//  - compute, real ranks: every rank times kernels of one operation each,
//    compiled scalar (-fno-tree-vectorize, -ffp-contract=off), the fastest of
//    15 runs of about 2 ms after a warm-up (short runs: some escape the
//    interruptions of a shared host): add, mul, div, intrinsic (sqrt) as
//    dependent chains (x = x op b: the operation's latency, as the thesis's
//    t(S) adds a statement's operations one after another, Eq. 3.1); load
//    and store as independent accesses to an L1-resident array (a statement's
//    operands are loaded independently, its store ends it). compare is the
//    chain x = max(x, b) + d less the add chain (a bare max chain folds:
//    max(max(x, b), b) = max(x, b)). The fastest rank's figure is reported
//    (with a core each, ranks agree; on a shared host the fastest is the
//    least interrupted), each rank's beside it.
//  - compute, SimGrid: with smpi/simulate-computation off, code between MPI
//    calls takes no simulated time; the executor charges computation with
//    smpi_execute_flops. So the one thing a platform knows is its flop rate:
//    1e6 flops are charged and timed, and their rate reported.
//
// This is a program: on an error it prints "dlayout-calibrate: error: ..."
// and aborts the job.
//
//===----------------------------------------------------------------------===//
#include <mpi.h>
#ifdef DLAYOUT_SIMGRID
#include <smpi/smpi.h>
#endif

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

[[noreturn]] void die(const std::string &msg) {
  std::fprintf(stderr, "dlayout-calibrate: error: %s\n", msg.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 2);
  std::exit(2);
}

struct Args {
  std::string out;
  std::vector<long> sizes, collectiveSizes;
#ifdef DLAYOUT_SIMGRID
  // Simulated time is exact and the same on every run: a few repetitions
  // suffice, and each costs real time to simulate.
  int peer = 1, batches = 3;
  double target = 0;
#else
  int peer = 1, batches = 15;
  double target = 1e-3; // seconds a timed batch should last
#endif
  double budget = 0.05; // seconds a size may take once 5 batches are done
  bool collectives = true, compute = true;
  bool gray = false; // shift around the Gray-code ring (P a power of two)
};

std::vector<long> parseSizes(const std::string &text) {
  std::vector<long> v;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    size_t len = comma == std::string::npos ? std::string::npos : comma - pos;
    std::string item = text.substr(pos, len);
    char *end = nullptr;
    long x = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end || x < 1 || x > (1L << 30)) die("bad size '" + item + "'");
    v.push_back(x);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return v;
}

Args parseArgs(int argc, char **argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string k = argv[i];
    auto val = [&]() -> std::string {
      if (i + 1 >= argc) die("option " + k + " needs a value");
      return argv[++i];
    };
    if (k == "--out") a.out = val();
    else if (k == "--sizes") a.sizes = parseSizes(val());
    else if (k == "--collective-sizes") a.collectiveSizes = parseSizes(val());
    else if (k == "--peer") a.peer = std::atoi(val().c_str());
    else if (k == "--batches") a.batches = std::max(1, std::atoi(val().c_str()));
    else if (k == "--target") a.target = std::atof(val().c_str());
    else if (k == "--budget") a.budget = std::atof(val().c_str());
    else if (k == "--no-collectives") a.collectives = false;
    else if (k == "--no-compute") a.compute = false;
    else if (k == "--gray") a.gray = true;
    else die("unknown option " + k);
  }
  if (a.out.empty()) die("usage: dlayout-calibrate --out RESULT.json [--sizes B,...] ...");
  if (a.sizes.empty()) // 1, 2, 3, 4, 6, 8, 12, ... 4 MiB: powers of two and 1.5x them
    for (long p = 1; p <= (1L << 22); p *= 2) {
      a.sizes.push_back(p);
      if (p >= 2 && p < (1L << 22)) a.sizes.push_back(p + p / 2);
    }
  if (a.collectiveSizes.empty()) a.collectiveSizes = {8, 512, 8192, 131072};
  return a;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// --- ping-pong --------------------------------------------------------------

void roundTrips(int rank, int peer, char *buf, long m, long reps) {
  for (long k = 0; k < reps; ++k) {
    if (rank == 0) {
      MPI_Send(buf, int(m), MPI_BYTE, peer, 1, MPI_COMM_WORLD);
      MPI_Recv(buf, int(m), MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == peer) {
      MPI_Recv(buf, int(m), MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, int(m), MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    }
  }
}

json pingPong(const Args &a, int rank) {
  long maxSize = *std::max_element(a.sizes.begin(), a.sizes.end());
  std::vector<char> buf(size_t(maxSize), 1);
  json points = json::array();
  for (long m : a.sizes) {
    roundTrips(rank, a.peer, buf.data(), m, 2); // warm-up
    long reps = 1;
    if (rank == 0) {
      double rt = 1e300; // the fastest of three round trips
      for (int k = 0; k < 3; ++k) {
        double t0 = MPI_Wtime();
        roundTrips(rank, a.peer, buf.data(), m, 1);
        rt = std::min(rt, MPI_Wtime() - t0);
      }
      reps = std::clamp<long>(long(a.target / std::max(rt, 1e-9)), 1, 100000);
      MPI_Send(&reps, 1, MPI_LONG, a.peer, 2, MPI_COMM_WORLD);
    } else if (rank == a.peer) {
      roundTrips(rank, a.peer, buf.data(), m, 3);
      MPI_Recv(&reps, 1, MPI_LONG, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    // One more untimed round trip: afterwards rank 0 starts its clock when
    // the peer is already waiting (as tests/validate/pingpong.cpp does).
    roundTrips(rank, a.peer, buf.data(), m, 1);
    std::vector<double> oneWay;
    const double start = MPI_Wtime();
    for (int b = 0; b < a.batches; ++b) {
      if (b >= 5) { // rank 0 says whether to go on, then both resynchronise
        int more = 0;
        if (rank == 0) {
          more = MPI_Wtime() - start < a.budget;
          MPI_Send(&more, 1, MPI_INT, a.peer, 2, MPI_COMM_WORLD);
        } else if (rank == a.peer) {
          MPI_Recv(&more, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        if (!more) break;
        roundTrips(rank, a.peer, buf.data(), m, 1);
      }
      double t0 = MPI_Wtime();
      roundTrips(rank, a.peer, buf.data(), m, reps);
      oneWay.push_back((MPI_Wtime() - t0) / (2.0 * double(reps)));
    }
    if (rank == 0)
      points.push_back({{"bytes", m},
                        {"seconds", *std::min_element(oneWay.begin(), oneWay.end())},
                        {"median_seconds", median(oneWay)},
                        {"repetitions", reps * long(oneWay.size())}});
  }
  return points;
}

// --- collectives ------------------------------------------------------------

struct Collective {
  const char *primitive, *call;
};
const Collective kCollectives[] = {{"shift", "MPI_Sendrecv"},
                                   {"reduction", "MPI_Allreduce"},
                                   {"one_to_many_multicast", "MPI_Bcast"},
                                   {"many_to_many_multicast", "MPI_Allgather"},
                                   {"scatter", "MPI_Scatter"},
                                   {"gather", "MPI_Gather"}};

struct Buffers {
  std::vector<char> send, recv;
  std::vector<double> dsend, drecv;
  int next = 0, prev = 0; // the shift's neighbours
};

/// Rank of ring position i: i itself, or its Gray code (i ^ i / 2), whose
/// successive values differ in one bit (and so do the last and the first).
int ringRank(long i, int procs, bool gray) {
  i = (i % procs + procs) % procs;
  return int(gray ? (i ^ (i >> 1)) : i);
}
long ringPosition(int rank, bool gray) {
  if (!gray) return rank;
  long b = rank; // the inverse of the Gray code
  for (int k = 1; k < 32; k <<= 1) b ^= b >> k;
  return b;
}

void runCollective(int which, long m, int rank, int procs, Buffers &b) {
  const int n = int(m);
  switch (which) {
  case 0:
    MPI_Sendrecv(b.send.data(), n, MPI_BYTE, b.next, 3, b.recv.data(), n, MPI_BYTE, b.prev, 3,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    break;
  case 1:
    MPI_Allreduce(b.dsend.data(), b.drecv.data(), std::max(1, n / 8), MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
    break;
  case 2: MPI_Bcast(b.send.data(), n, MPI_BYTE, 0, MPI_COMM_WORLD); break;
  case 3:
    MPI_Allgather(b.send.data(), n, MPI_BYTE, b.recv.data(), n, MPI_BYTE, MPI_COMM_WORLD);
    break;
  case 4:
    MPI_Scatter(b.recv.data(), n, MPI_BYTE, b.send.data(), n, MPI_BYTE, 0, MPI_COMM_WORLD);
    break;
  case 5:
    MPI_Gather(b.send.data(), n, MPI_BYTE, b.recv.data(), n, MPI_BYTE, 0, MPI_COMM_WORLD);
    break;
  }
}

/// Seconds per iteration of `reps` x (collective, barrier) or, with
/// which < 0, of `reps` barriers; the slowest rank's.
double timedLoop(int which, long m, long reps, int rank, int procs, Buffers &b) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (long k = 0; k < reps; ++k) {
    if (which >= 0) runCollective(which, m, rank, procs, b);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  double mine = (MPI_Wtime() - t0) / double(reps), slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

json collectives(const Args &a, int rank, int procs) {
  long maxSize = *std::max_element(a.collectiveSizes.begin(), a.collectiveSizes.end());
  Buffers b;
  b.send.assign(size_t(maxSize), 1);
  b.recv.assign(size_t(maxSize) * size_t(procs), 0);
  b.dsend.assign(size_t(maxSize / 8 + 1), 1.0);
  b.drecv.assign(size_t(maxSize / 8 + 1), 0.0);
  const bool gray = a.gray && (procs & (procs - 1)) == 0;
  b.next = ringRank(ringPosition(rank, gray) + 1, procs, gray);
  b.prev = ringRank(ringPosition(rank, gray) - 1, procs, gray);
  json points = json::array();
  for (int which = 0; which < int(std::size(kCollectives)); ++which)
    for (long m : a.collectiveSizes) {
      runCollective(which, m, rank, procs, b); // warm-up
      long reps = 1;
      double once = timedLoop(which, m, 1, rank, procs, b);
      if (rank == 0) reps = std::clamp<long>(long(a.target / std::max(once, 1e-9)), 2, 2000);
      MPI_Bcast(&reps, 1, MPI_LONG, 0, MPI_COMM_WORLD);
      std::vector<double> with, alone;
      const double start = MPI_Wtime();
      for (int k = 0; k < a.batches; ++k) {
        if (k >= 5) {
          int more = rank == 0 && MPI_Wtime() - start < a.budget;
          MPI_Bcast(&more, 1, MPI_INT, 0, MPI_COMM_WORLD);
          if (!more) break;
        }
        with.push_back(timedLoop(which, m, reps, rank, procs, b));
        alone.push_back(timedLoop(-1, m, reps, rank, procs, b));
      }
      double barrier = *std::min_element(alone.begin(), alone.end());
      if (rank == 0)
        points.push_back({{"primitive", kCollectives[which].primitive},
                          {"call", kCollectives[which].call},
                          {"bytes", m},
                          {"seconds", std::max(0.0, *std::min_element(with.begin(), with.end()) -
                                                        barrier)},
                          {"median_seconds", std::max(0.0, median(with) - median(alone))},
                          {"barrier_seconds", barrier},
                          {"repetitions", reps * long(with.size())}});
    }
  return points;
}

// --- compute ----------------------------------------------------------------

#ifndef DLAYOUT_SIMGRID
// Operands come from volatiles, so the compiler can neither fold the chains
// nor know b = 1.
volatile double vStart = 1.5, vOne = 1.0, vNear = 1.0 + 1e-12, vHalf = 0.5;
volatile double vSink = 0;

constexpr long kUnroll = 8;
#define DL_REPEAT8(s) s s s s s s s s

double chainAdd(long n) {
  double x = vStart, b = vHalf;
  for (long i = 0; i < n; i += kUnroll) { DL_REPEAT8(x = x + b;) }
  return x;
}
double chainMul(long n) {
  double x = vStart, b = vNear;
  for (long i = 0; i < n; i += kUnroll) { DL_REPEAT8(x = x * b;) }
  return x;
}
double chainDiv(long n) {
  double x = vStart, b = vNear;
  for (long i = 0; i < n; i += kUnroll) { DL_REPEAT8(x = x / b;) }
  return x;
}
double chainSqrt(long n) {
  double x = vStart;
  for (long i = 0; i < n; i += kUnroll) { DL_REPEAT8(x = std::sqrt(x);) }
  return x;
}
double chainMaxAdd(long n) {
  double x = vStart, b = vOne, d = vHalf;
  for (long i = 0; i < n; i += kUnroll) { DL_REPEAT8(x = (x > b ? x : b) + d;) }
  return x;
}
constexpr long kL1Doubles = 512; // 4 KiB: in L1 on any current core
double loads(long n) {
  static double data[kL1Doubles];
  for (long i = 0; i < kL1Doubles; ++i) data[i] = double(i);
  const volatile double *p = data;
  double s0 = 0;
  for (long i = 0; i < n; i += kUnroll) {
    long j = i & (kL1Doubles - 1);
    DL_REPEAT8(s0 = p[j]; ++j;)
  }
  return s0;
}
double stores(long n) {
  static double data[kL1Doubles];
  volatile double *p = data;
  double x = vStart;
  for (long i = 0; i < n; i += kUnroll) {
    long j = i & (kL1Doubles - 1);
    DL_REPEAT8(p[j] = x; ++j;)
  }
  return data[kL1Doubles - 1];
}
#undef DL_REPEAT8

/// Seconds per operation: the fastest of 15 runs of about `target` seconds.
double timeKernel(double (*kernel)(long), double target) {
  long n = 1 << 16;
  for (;;) { // grow n until a run takes target / 4
    double t0 = MPI_Wtime();
    vSink = kernel(n);
    double t = MPI_Wtime() - t0;
    if (t > target / 4 || n > (1L << 40)) {
      n = std::max<long>(kUnroll, long(double(n) * target / std::max(t, 1e-9)) / kUnroll * kUnroll);
      break;
    }
    n *= 4;
  }
  double best = 1e300;
  for (int k = 0; k < 15; ++k) {
    double t0 = MPI_Wtime();
    vSink = kernel(n);
    best = std::min(best, (MPI_Wtime() - t0) / double(n));
  }
  return best;
}
#endif

json compute(int rank, int procs) {
  json out = json::object();
#ifdef DLAYOUT_SIMGRID
  const double flops = 1e6;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  smpi_execute_flops(flops);
  double t = MPI_Wtime() - t0;
  if (rank == 0) out["flops_per_second"] = t > 0 ? flops / t : 0.0;
  (void)procs;
#else
  struct Kernel {
    const char *op;
    double (*fn)(long);
  };
  const Kernel kernels[] = {{"load", loads},     {"store", stores}, {"add", chainAdd},
                            {"mul", chainMul},   {"div", chainDiv}, {"intrinsic", chainSqrt},
                            {"compare", chainMaxAdd}};
  MPI_Barrier(MPI_COMM_WORLD);
  double add = 0;
  for (const auto &k : kernels) {
    double mine = timeKernel(k.fn, 2e-3);
    if (k.fn == chainAdd) add = mine;
    if (k.fn == chainMaxAdd) mine = std::max(0.0, mine - add);
    std::vector<double> all(size_t(procs), 0.0);
    MPI_Gather(&mine, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0)
      out[k.op] = {{"seconds", *std::min_element(all.begin(), all.end())}, {"ranks", all}};
  }
#endif
  return out;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, procs = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  Args a = parseArgs(argc, argv);
  if (procs < 2) die("needs at least 2 ranks, got " + std::to_string(procs));
  if (a.peer < 1 || a.peer >= procs)
    die("--peer must be a rank from 1 to " + std::to_string(procs - 1));

  char name[MPI_MAX_PROCESSOR_NAME] = {0};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  std::vector<char> names(size_t(procs) * MPI_MAX_PROCESSOR_NAME, 0);
  MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names.data(), MPI_MAX_PROCESSOR_NAME,
             MPI_CHAR, 0, MPI_COMM_WORLD);

  json doc = {{"schema", "dlayout-calibration-probe/1"},
              {"procs", procs},
              {"peer", a.peer},
#ifdef DLAYOUT_SIMGRID
              {"simgrid", true},
#else
              {"simgrid", false},
#endif
              {"wtick", MPI_Wtick()}};
  json hosts = json::array();
  for (int r = 0; r < procs; ++r)
    hosts.push_back(std::string(&names[size_t(r) * MPI_MAX_PROCESSOR_NAME]));
  doc["hosts"] = hosts;

  // Wall time of each part (simulated under SimGrid), for the report.
  json took = json::object();
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  doc["pingpong"] = pingPong(a, rank);
  MPI_Barrier(MPI_COMM_WORLD);
  double t1 = MPI_Wtime();
  doc["collectives"] = a.collectives ? collectives(a, rank, procs) : json::array();
  double t2 = MPI_Wtime();
  doc["compute"] = a.compute ? compute(rank, procs) : json::object();
  double t3 = MPI_Wtime();
  doc["section_seconds"] = {{"pingpong", t1 - t0}, {"collectives", t2 - t1}, {"compute", t3 - t2}};

  if (rank == 0) {
    std::ofstream f(a.out);
    f << doc.dump(2) << "\n";
    f.close();
    if (!f) die("cannot write " + a.out);
  }
  MPI_Finalize();
  return 0;
}
