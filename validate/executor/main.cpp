//===- validate/executor/main.cpp - dlayout-exec: run a model under a layout ===//
//
//   dlayout-exec --model M.json --layout L.json --plan PLAN.json
//                --machine MACHINE.json --out RESULT.json
//                [--seed N] [--speed FLOPS] [--fault kill:R|hang:R|mpierror:R]
//
// Every rank reads the documents, builds its part of every array and runs
// the model (Distributed.h); rank 0 then collects every array, runs the
// sequential reference (Sequential.h) from the same seed, compares them and
// writes "dlayout-execution/1" to --out. Built twice from these sources:
// dlayout-exec-mpi (mpicxx, for mpirun) and dlayout-exec-simgrid (smpicxx,
// DLAYOUT_SIMGRID, for smpirun). This is a program: it prints one line
// "dlayout-exec: error: rank R: ..." and ends the whole job on an error -
// its own (die) or one an MPI call reports: MPI_COMM_WORLD gets an error
// handler (onMpiError) that prints MPI's error string and ends the job, so an
// erroneous MPI call is never ignored (the runtime does not check return
// codes, so MPI_ERRORS_RETURN would let a run go on with wrong data) and is
// reported the same way under mpirun and smpirun (OpenMPI's fatal handler
// and SMPI's abort print differently; SMPI's MPI_Abort ends one rank only).
//
// --fault (tests, via DLAYOUT_VALIDATE_FAULT): before the first phase, rank R
// kills itself (kill:R), sleeps forever (hang:R), or sends one value to a
// rank that does not exist on the mesh's communicator (mpierror:R).
//
//===----------------------------------------------------------------------===//
#include "model/Json.h"
#include "model/LayoutJson.h"
#include "model/MachineJson.h"
#include "model/ProgramJson.h"
#include "validate/executor/Distributed.h"
#include "validate/executor/Sequential.h"
#include "validate/runtime/ProcessorMesh.h"

#include <mpi.h>
#ifdef DLAYOUT_SIMGRID
#include <simgrid/s4u/Mailbox.hpp>
#endif
#include <nlohmann/json.hpp>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <unistd.h>

using namespace dlayout;
using namespace dlayout::exec;
using nlohmann::json;

namespace {

[[noreturn]] void die(const std::string &msg) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "dlayout-exec: error: rank %d: %s\n", rank, msg.c_str());
  std::fflush(stderr);
#ifdef DLAYOUT_SIMGRID
  // SMPI's MPI_Abort ends the calling rank only, and smpirun then exits 0;
  // exiting with a non-zero status ends the simulation with that status
  // (as validate/runtime/Abort.cpp does).
  std::exit(1);
#else
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);
#endif
}

/// The error handler of MPI_COMM_WORLD (and of the mesh's communicators,
/// rt::ProcessorMesh passes it on): MPI's error string, then the job ends.
void onMpiError(MPI_Comm *, int *code, ...) {
  char text[MPI_MAX_ERROR_STRING] = {0};
  int len = 0;
  if (MPI_Error_string(*code, text, &len) != MPI_SUCCESS || len <= 0)
    std::snprintf(text, sizeof text, "error code %d", *code);
  die(std::string("MPI error: ") + text);
}

template <class T> T need(Result<T> r, const std::string &what) {
  if (!r) die(what + ": " + r.error().message);
  return std::move(*r);
}

std::string fileText(const std::string &path) {
  return need(dlayout::readFile(path), path);
}

struct Args {
  std::string model, layout, plan, machine, out, fault;
  uint64_t seed = 1;
  double speed = 1e9;
};

Args parseArgs(int argc, char **argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string k = argv[i];
    auto val = [&]() -> std::string {
      if (i + 1 >= argc) die("option " + k + " needs a value");
      return argv[++i];
    };
    if (k == "--model") a.model = val();
    else if (k == "--layout") a.layout = val();
    else if (k == "--plan") a.plan = val();
    else if (k == "--machine") a.machine = val();
    else if (k == "--out") a.out = val();
    else if (k == "--seed") a.seed = std::stoull(val());
    else if (k == "--speed") a.speed = std::stod(val());
    else if (k == "--fault") a.fault = val();
    else die("unknown option " + k);
  }
  if (!a.fault.empty()) {
    std::string kind = a.fault.substr(0, a.fault.find(':'));
    if (kind != "kill" && kind != "hang" && kind != "mpierror") die("unknown fault " + a.fault);
  }
  if (a.model.empty() || a.layout.empty() || a.machine.empty() || a.out.empty())
    die("usage: dlayout-exec --model M --layout L --machine MACHINE --out RESULT "
        "[--plan PLAN] [--seed N] [--speed FLOPS] [--fault kill:R|hang:R|mpierror:R]");
  return a;
}

/// Every rank waits here until all have arrived. The timed program starts
/// so, all ranks at the same simulated instant: an MPI_Barrier under SimGrid
/// lets its ranks go at different instants (its own messages cross the
/// half-duplex ports, validate/Platform.h), and the first exchange then
/// waited for the latest -- 21 ms on 64 simulated iPSC/2 nodes, seven times
/// a jacobi cycle. And collection starts so when every rank is done with
/// the program: results sent to rank 0 early would share a node's port with
/// the program's last messages and slow what is measured. Under SimGrid the
/// ranks meet through simulator mailboxes with empty messages, which take
/// no simulated time and no bandwidth; on a real machine an MPI_Barrier.
void together(int rank, int size, MPI_Comm comm) {
#ifdef DLAYOUT_SIMGRID
  (void)comm;
  static int token = 0;
  namespace s4u = simgrid::s4u;
  if (rank == 0) {
    for (int r = 1; r < size; ++r) s4u::Mailbox::by_name("dlayout-done")->get<int>();
    for (int r = 1; r < size; ++r)
      s4u::Mailbox::by_name("dlayout-go-" + std::to_string(r))->put(&token, 0);
  } else {
    s4u::Mailbox::by_name("dlayout-done")->put(&token, 0);
    s4u::Mailbox::by_name("dlayout-go-" + std::to_string(rank))->get<int>();
  }
#else
  (void)rank;
  (void)size;
  MPI_Barrier(comm);
#endif
}

Plan readPlan(const std::string &path) {
  Plan plan;
  if (path.empty()) return plan;
  auto doc = need(jsonio::parse(fileText(path)), path);
  for (auto &[sid, arr] : doc.at("levels").items()) {
    std::vector<int> v;
    for (auto &e : arr) v.push_back(e.is_null() ? -1 : e.get<int>());
    plan.levels[sid] = v;
  }
  if (doc.contains("index_levels"))
    for (auto &[sid, refs] : doc.at("index_levels").items())
      for (auto &subs : refs) {
        std::vector<int> v;
        for (auto &e : subs) v.push_back(e.is_null() ? -1 : e.get<int>());
        plan.indexLevels[sid].push_back(v);
      }
  if (doc.contains("paths"))
    for (auto &[sid, arr] : doc.at("paths").items()) plan.paths[sid] = arr.get<std::vector<int>>();
  if (doc.contains("orders"))
    for (auto &[sid, arr] : doc.at("orders").items()) plan.orders[sid] = arr.get<std::vector<int>>();
  return plan;
}

void injectFault(const std::string &fault, int rank, MPI_Comm comm) {
  if (fault.empty()) return;
  auto colon = fault.find(':');
  std::string kind = fault.substr(0, colon);
  int who = colon == std::string::npos ? 0 : std::atoi(fault.c_str() + colon + 1);
  if (rank != who) return;
  if (kind == "kill") std::raise(SIGKILL);
  if (kind == "hang")
    for (;;) sleep(1);
  if (kind == "mpierror") {
    // A genuinely erroneous call: a destination one past the last rank.
    int size = 0;
    MPI_Comm_size(comm, &size);
    double value = 0;
    MPI_Send(&value, 1, MPI_DOUBLE, size, 0, comm);
    die("fault mpierror: MPI_Send to rank " + std::to_string(size) + " of " +
        std::to_string(size) + " returned"); // the handler ends the job first
  }
}

constexpr int kStat = 14; // numbers per phase per rank, then bytesByArray

void packStats(const PhaseStats &s, double *o) {
  double v[kStat] = {double(s.messagesSent), double(s.bytesSent), double(s.messagesReceived),
                     double(s.bytesReceived), double(s.schedulingMessages),
                     double(s.schedulingBytes), double(s.reductions), double(s.instances),
                     double(s.exchanges), s.seconds, s.communicationSeconds, s.chargedSeconds,
                     double(s.visited), 0};
  std::memcpy(o, v, sizeof v);
  for (size_t a = 0; a < s.bytesByArray.size(); ++a) o[kStat + a] = double(s.bytesByArray[a]);
}

struct Compare {
  std::string status = "bitwise";
  int64_t compared = 0, mismatches = 0;
  double maxAbs = 0, maxRel = 0;
  void add(double got, double want) {
    ++compared;
    if (std::memcmp(&got, &want, sizeof got) == 0) return;
    if (std::isnan(got) && std::isnan(want)) return;
    ++mismatches;
    double d = std::fabs(got - want);
    maxAbs = std::max(maxAbs, d);
    maxRel = std::max(maxRel, d / std::max(1.0, std::fabs(want)));
  }
  /// Tolerance (stated in docs/validate.md): relative 1e-9 where a
  /// reduction combined partial results in another order, 1e-5 for
  /// single-precision data (whose epsilon is 1.2e-7 rather than 2.2e-16).
  void finish(bool reordered, bool single = false) {
    if (mismatches == 0) status = "bitwise";
    else if (reordered && maxRel <= (single ? 1e-5 : 1e-9)) status = "tolerance";
    else status = "mismatch";
  }
  json toJson(const std::string &name) const {
    return {{"name", name}, {"status", status}, {"compared", compared},
            {"mismatches", mismatches}, {"max_abs_diff", maxAbs}, {"max_rel_diff", maxRel}};
  }
};

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Errhandler onError;
  MPI_Comm_create_errhandler(onMpiError, &onError);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, onError);
  MPI_Errhandler_free(&onError); // MPI_COMM_WORLD keeps it
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Args args = parseArgs(argc, argv);

  Program program = need(parseProgram(fileText(args.model)), args.model);
  Layout layout = need(parseLayout(fileText(args.layout)), args.layout);
  Machine machine = need(parseMachine(fileText(args.machine)), args.machine);
  ExecProgram x = need(compile(program, readPlan(args.plan)), "model");
  if (layout.procs() != size)
    die("the layout's mesh has " + std::to_string(layout.procs()) + " processors, the job " +
        std::to_string(size));

  bool pow2 = true;
  for (auto n : layout.mesh) pow2 = pow2 && n > 0 && (n & (n - 1)) == 0;
  auto embedding = machine.topology == Topology::Hypercube && machine.grayCodeEmbedding && pow2
                       ? rt::Embedding::GrayCode : rt::Embedding::Natural;
  {
    auto mesh = need(rt::ProcessorMesh::create(MPI_COMM_WORLD, layout.mesh, embedding), "mesh");
    DistOptions opts;
    opts.seed = args.seed;
    opts.speed = args.speed;
#ifdef DLAYOUT_SIMGRID
    opts.simgrid = true;
#endif
    auto mem = need(DistributedMemory::make(x, layout, machine, mesh, opts), args.layout);
    std::vector<double> scalars0;
    for (size_t s = 0; s < x.scalars.size(); ++s)
      scalars0.push_back(fillScalar(args.seed, x.scalars[s], x.scalarTypes[s]));
    Interpreter in(x, *mem, scalars0);
    mem->attach(in);

    together(rank, size, mesh.comm());
    double t0 = MPI_Wtime();
    for (size_t k = 0; k < x.phases.size(); ++k) {
      if (k == 0) injectFault(args.fault, rank, mesh.comm());
      mem->setPhase(static_cast<int>(k));
      double tp = MPI_Wtime();
      in.runPhase(static_cast<int>(k));
      mem->flushCompute();
      mem->stats[k].seconds = MPI_Wtime() - tp;
    }
    double elapsed = MPI_Wtime() - t0;
    together(rank, size, mesh.comm());

    // --- Collect: statistics, then every array ---------------------------
    const int nph = static_cast<int>(x.phases.size());
    const int perPhase = kStat + static_cast<int>(x.arrays.size()) + 1, tail = nph * perPhase;
    const int fetches = tail + 4; // then bytesByFetch
    std::vector<double> mine(fetches + x.actions.size()), all;
    for (int k = 0; k < nph; ++k) packStats(mem->stats[k], mine.data() + k * perPhase);
    mine[tail] = elapsed;
    mine[tail + 1] = double(mem->misses + mem->outOfRange);
    mine[tail + 2] = mem->failure.empty() ? 0 : 1;
    mine[tail + 3] = mem->reordered ? 1 : 0;
    for (size_t a = 0; a < x.actions.size(); ++a) mine[fetches + a] = double(mem->bytesByFetch[a]);
    if (rank == 0) all.resize(mine.size() * size);
    MPI_Gather(mine.data(), (int)mine.size(), MPI_DOUBLE, all.data(), (int)mine.size(),
               MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (!mem->failure.empty()) die(mem->failure);

    std::vector<std::vector<double>> gathered(x.arrays.size());
    for (size_t a = 0; a < x.arrays.size(); ++a) {
      std::vector<double> pairs = mem->heldPairs(static_cast<int>(a));
      int n = static_cast<int>(pairs.size());
      std::vector<int> counts(size), displs(size);
      MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
      int total = 0;
      for (int r = 0; r < size; ++r) { displs[r] = total; total += counts[r]; }
      if (rank == 0) gathered[a].resize(total);
      MPI_Gatherv(pairs.data(), n, MPI_DOUBLE, gathered[a].data(), counts.data(),
                  displs.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }

    if (rank == 0) {
      // --- The sequential reference and the comparison -------------------
      SequentialMemory seq(x, args.seed);
      Interpreter sin(x, seq, scalars0);
      for (size_t k = 0; k < x.phases.size(); ++k) sin.runPhase(static_cast<int>(k), Interpreter::Nest::AsWritten);
      bool reordered = false;
      int64_t misses = 0;
      for (int r = 0; r < size; ++r) {
        const double *t = all.data() + r * mine.size() + tail;
        misses += static_cast<int64_t>(t[1]);
        reordered = reordered || t[3] != 0;
      }
      json arrays = json::array(), scalars = json::array();
      bool correct = misses == 0 && seq.outOfRange == 0;
      for (size_t a = 0; a < x.arrays.size(); ++a) {
        Compare c;
        std::vector<char> covered(seq.data[a].size(), 0);
        for (size_t j = 0; j + 1 < gathered[a].size(); j += 2) {
          auto g = static_cast<int64_t>(gathered[a][j]);
          covered[g] = 1;
          c.add(gathered[a][j + 1], seq.data[a][g]);
        }
        c.finish(reordered, x.arrays[a].type == "f32");
        int64_t missing = 0;
        for (char v : covered) missing += v ? 0 : 1;
        if (missing) c.status = "incomplete";
        correct = correct && (c.status == "bitwise" || c.status == "tolerance");
        // Checksums of the sequential reference, to set beside the compiled
        // program's (tests/validate: the model computes what the program does).
        double sum = 0, weighted = 0;
        for (size_t g = 0; g < seq.data[a].size(); ++g) {
          sum += seq.data[a][g];
          weighted += static_cast<double>(g + 1) * seq.data[a][g];
        }
        json entry = c.toJson(x.arrays[a].name);
        entry["sum"] = sum;
        entry["weighted_sum"] = weighted;
        arrays.push_back(std::move(entry));
      }
      // A scalar every assignment of which is private (CStmt::consumers)
      // has no value after its loops: each rank kept the one of its own
      // last iteration. Reported, not compared.
      std::vector<char> isPrivate(x.scalars.size(), 0), shared(x.scalars.size(), 0);
      for (const CStmt &st : x.stmts)
        if (st.scalar >= 0) (st.consumers.empty() ? shared : isPrivate)[st.scalar] = 1;
      for (size_t s = 0; s < x.scalars.size(); ++s) {
        Compare c;
        if (isPrivate[s] && !shared[s]) {
          c.status = "private";
        } else {
          c.add(in.scalars()[s], sin.scalars()[s]);
          c.finish(reordered, x.scalarTypes[s] == "f32");
        }
        correct = correct && c.status != "mismatch";
        scalars.push_back(c.toJson(x.scalars[s]));
      }
      json phases = json::array(), ranks = json::array();
      int64_t messages = 0, bytes = 0;
      double measured = 0;
      for (int k = 0; k < nph; ++k) {
        json ph = {{"id", x.phases[k].id}, {"executed", x.phases[k].executable}};
        if (!x.phases[k].executable) ph["reason"] = x.phases[k].reason;
        else ph["loops_distributed"] = x.phases[k].distributed;
        double sec = 0, comm = 0, charged = 0;
        int64_t msgs = 0, by = 0, sched = 0, red = 0, inst = 0;
        for (int r = 0; r < size; ++r) {
          const double *v = all.data() + r * mine.size() + k * perPhase;
          msgs += int64_t(v[0]) + int64_t(v[4]);
          by += int64_t(v[1]) + int64_t(v[5]);
          sched += int64_t(v[4]);
          red += int64_t(v[6]);
          inst += int64_t(v[7]);
          sec = std::max(sec, v[9]);
          comm = std::max(comm, v[10]);
          charged = std::max(charged, v[11]);
        }
        ph["seconds"] = sec;
        ph["communication_seconds"] = comm;
        ph["computation_seconds"] = charged;
        ph["messages"] = msgs;
        ph["bytes"] = by;
        ph["scheduling_messages"] = sched;
        ph["reductions"] = red;
        ph["instances"] = inst;
        phases.push_back(ph);
        messages += msgs;
        bytes += by;
      }
      // Each phase's fetches (the actions run in it, by rank 0, which runs
      // every action the others do) with the statements they fetch for.
      std::vector<std::vector<std::pair<size_t, json>>> phaseFetches(static_cast<size_t>(nph));
      for (size_t a = 0; a < x.actions.size(); ++a) {
        if (mem->fetchPhase[a] < 0) continue;
        json stmts = json::array();
        for (const CommItem &it : x.actions[a].items)
          if (std::find(stmts.begin(), stmts.end(), x.stmts[it.stmt].id) == stmts.end())
            stmts.push_back(x.stmts[it.stmt].id);
        phaseFetches[size_t(mem->fetchPhase[a])].emplace_back(a, std::move(stmts));
      }
      for (int r = 0; r < size; ++r) {
        const double *base = all.data() + r * mine.size();
        PhaseStats t;
        json per = json::array();
        for (int k = 0; k < nph; ++k) {
          const double *v = base + k * perPhase;
          json byArray = json::object();
          for (size_t a = 0; a <= x.arrays.size(); ++a)
            if (int64_t b = int64_t(v[kStat + a]))
              byArray[a < x.arrays.size() ? x.arrays[a].name : "(scalar reductions)"] = b;
          json byFetch = json::array();
          for (const auto &[a, stmts] : phaseFetches[size_t(k)])
            if (int64_t b = int64_t(base[fetches + a]))
              byFetch.push_back({{"array", x.arrays[x.actions[a].array].name},
                                 {"statements", stmts}, {"bytes", b}});
          per.push_back({{"phase", x.phases[k].id}, {"messages_sent", int64_t(v[0] + v[4])},
                         {"bytes_sent", int64_t(v[1] + v[5])}, {"bytes_sent_by_array", byArray},
                         {"bytes_sent_by_fetch", byFetch},
                         {"messages_received", int64_t(v[2])},
                         {"bytes_received", int64_t(v[3])}, {"seconds", v[9]},
                         {"communication_seconds", v[10]}, {"computation_seconds", v[11]},
                         {"instances", int64_t(v[7])},
                         {"instances_visited", int64_t(v[12])}});
        }
        measured = std::max(measured, base[tail]);
        ranks.push_back({{"rank", r}, {"seconds", base[tail]}, {"phases", per}});
      }
      json placements = json::array();
      for (auto &p : x.placements)
        placements.push_back({{"statement", p.statement}, {"ref", p.ref}, {"array", p.array},
                              {"estimator_level", p.estimator}, {"level", p.used}});
      json doc = {{"schema", "dlayout-execution/1"},
#ifdef DLAYOUT_SIMGRID
                  {"backend", "simgrid"},
#else
                  {"backend", "mpi"},
#endif
                  {"procs", size}, {"mesh", layout.mesh}, {"measured_seconds", measured},
                  {"messages", messages}, {"bytes", bytes}, {"correct", correct},
                  {"reordered_reductions", reordered}, {"unfetched_reads", misses},
                  {"out_of_range", seq.outOfRange},
                  {"refinements", x.refinements}, {"phases", phases}, {"ranks", ranks},
                  {"arrays", arrays}, {"scalars", scalars}, {"placements", placements}};
      std::ofstream f(args.out);
      f << doc.dump(1) << "\n";
      if (!f) die("cannot write " + args.out);
    }
  }
  MPI_Finalize();
  return 0;
}
