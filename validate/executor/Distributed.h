//===- validate/executor/Distributed.h - Owner-computes over MPI -*- C++ -*-===//
//
// The Memory of one MPI rank running an ExecProgram under a Layout:
//   - each array is an rt::ArrayDistribution (Zima's δ/λ) with this rank's
//     local box, filled from the seed (Fill.h);
//   - elements every rank needs (a bound's COUNT(I), a subscript
//     expression's elements, an indirect left-hand side's index) are
//     broadcast by their home before the loop or instance (replicate()), or,
//     for a bound's elements and an indirect left-hand side's index values,
//     gathered for a whole loop at once (CommAction::replicate,
//     runReplicate(); validate/executor/CommPlacement.h), within the mesh
//     lines that hold a whole copy where the array is replicated along
//     the other mesh dimensions;
//   - a statement instance runs on every holder of the element it writes
//     (owner-computes), on every rank when it writes a scalar -- a private
//     scalar only where the instances that read it run -- and for a
//     reduction on the home of its operand (partial results combined after
//     the reduction's region, DistributedReduction.cpp);
//   - reads of elements this rank does not hold come from a per-array cache
//     filled by the communication placed before a node (CommAction):
//       regular references: every rank enumerates the node's instances and
//         computes, for each, who runs it and who holds what it reads, so
//         the exchange needs no scheduling message (what a compiler does for
//         affine references); one message per peer, element-typed payload,
//         except that a source sending the same elements to two or more
//         processors multicasts them, each such set apart (Multicast:
//         MPI_Bcast over the mesh or a line, every rank in the same order,
//         unless a processor is in two line multicasts; otherwise a
//         binomial tree each rank relays as its data arrives), unless the group is
//         an all-gather (every member a source to all the others): one
//         message per peer, or, where each member sends all the others the
//         same elements, as Table 6.1's ManyToManyMulticast (a ring where the
//         blocks are of one size); several sources each sending to
//         every rank (a replicated left-hand side reading a distributed
//         array) are gathered one mesh dimension at a time
//         (gatherByDimension, in model/FillOrder.h's order);
//         the plan is kept when the action is invariant (jacobi's per-cycle
//         shifts are computed once);
//       indirect references: Kali/PARTI inspector/executor - the rank lists
//         the elements its own instances need (index values already fetched)
//         and rt::Schedule builds the schedule (scheduling messages counted
//         apart), then gathers; the schedule is kept while the action is
//         invariant (no statement in a loop around it rewrites the index or
//         bound arrays: relax's ADJ), as PARTI reuses a saved schedule.
//   - a rank walks only the iterations of an innermost loop in which it
//     holds the element a statement writes (or a reduction's operand),
//     where the owner functions give them (OwnIterations.cpp); elsewhere
//     every iteration, each instance asking whether it runs;
//   - computation is charged per executed instance at the machine's operation
//     costs; under SimGrid (DLAYOUT_SIMGRID) as smpi_execute_flops at each
//     communication point and phase end.
// Counters are per model phase. Errors come back as Result; nothing printed.
// The communication is in DistributedExchange.cpp (regular) and
// DistributedInspector.cpp (indirect, replicating); payloads, message tags
// and the multicast tree in Messages.h.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Layout.h"
#include "model/Machine.h"
#include "validate/executor/Interpreter.h"
#include "validate/runtime/ArrayDistribution.h"
#include "validate/runtime/ProcessorMesh.h"
#include "validate/runtime/Schedule.h"

#include <memory>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

namespace dlayout::exec {

struct PhaseStats {
  int64_t messagesSent = 0, bytesSent = 0, messagesReceived = 0, bytesReceived = 0;
  int64_t schedulingMessages = 0, schedulingBytes = 0; // inspector messages sent
  int64_t reductions = 0, instances = 0, exchanges = 0;
  /// Statement instances this rank walked (asked whether it runs them):
  /// its own share where its loops are narrowed (OwnIterations.cpp), every
  /// instance where not; `instances` those it ran.
  int64_t visited = 0;
  double seconds = 0, communicationSeconds = 0, chargedSeconds = 0;
  /// bytesSent split by what they carried: one entry per array, then one
  /// for scalar reductions (how a benchmark finds which term of the model
  /// parts from the run).
  std::vector<int64_t> bytesByArray;
};

struct DistOptions {
  uint64_t seed = 1;
  bool simgrid = false;
  double speed = 1e9; // flop/s of a simulated host (smpi_execute_flops)
};

class DistributedMemory : public Memory {
public:
  static Result<std::unique_ptr<DistributedMemory>>
  make(const ExecProgram &x, const Layout &l, const Machine &m, rt::ProcessorMesh &mesh,
       DistOptions opts);

  void attach(Interpreter &in) { in_ = &in; }
  void setPhase(int k) { phase_ = k; }
  void flushCompute();

  double read(int array, const int64_t *idx) override;
  void write(int array, const int64_t *idx, double v) override;
  bool runs(int stmt, const int64_t *iv) override;
  void beforeNode(int node, const int64_t *iv) override;
  void beforePart(int node, const int64_t *iv, int part, int64_t first, int64_t last) override;
  void beforeLoop(int slot, const int64_t *iv) override;
  void beforeStatement(int stmt, const int64_t *iv) override;
  bool ownIterations(int node, const int64_t *iv, int64_t lo, int64_t step,
                     Iterations &its) override;
  void beginRegion(int node) override;
  void endRegion(int node) override;
  void executed(int stmt) override;

  /// Every (linear id, value) this rank holds of array a (replicas too).
  std::vector<double> heldPairs(int a) const;

  std::vector<PhaseStats> stats;  // per model phase
  /// The bytes sent split by communication action (ExecProgram::actions):
  /// one array's fetch for the items of one or more statements, so a
  /// benchmark can set a statement's terms beside them; and the phase each
  /// action ran in (-1: never run).
  std::vector<int64_t> bytesByFetch;
  std::vector<int> fetchPhase;
  int64_t misses = 0;             // reads of elements neither held nor fetched
  int64_t outOfRange = 0;
  bool reordered = false;         // a reduction combined partial results
  std::string failure;            // first runtime error (schedule building)

private:
  DistributedMemory(const ExecProgram &x, rt::ProcessorMesh &mesh)
      : x_(x), mesh_(mesh) {}
  struct ArrayState {
    std::unique_ptr<rt::ArrayDistribution> dist;
    std::vector<double> local;
    std::unordered_map<int64_t, double> cache;
    /// This rank's owned box where the layout has one (the fast path of
    /// ownedOffset).
    std::optional<rt::ArrayDistribution::OwnedBox> box;
    std::vector<int64_t> coords; // this rank's, as the distribution numbers them
    /// The offset of idx in `local` where this rank holds it (not as a
    /// ghost), else -1: dist->holds and dist->localOffset in one.
    int64_t ownedOffset(int64_t me, const int64_t *idx, size_t rank) const {
      std::span<const int64_t> s(idx, rank);
      if (!box) return dist->holds(me, s) ? dist->localOffset(me, s) : -1;
      int64_t off = box->base;
      for (size_t k = 0; k < rank; ++k) {
        if (idx[k] < box->first[k] || idx[k] >= box->end[k]) return -1;
        off += idx[k] * box->stride[k];
      }
      return off;
    }
  };
  /// One source sending the same elements to two or more processors. Over
  /// the whole mesh or the source's line along a mesh dimension it is an
  /// MPI_Bcast on that communicator; over any other group it is relayed down
  /// a binomial tree of point-to-point messages. Either way it is about
  /// ceil(log2 p) messages deep (Table 6.1's OneToManyMulticast), not p - 1
  /// messages from the source.
  struct Multicast {
    int line = -2;                        // -1: the mesh, m: a line, -2: a tree
    std::vector<int> members;             // the source first, then the receivers
    std::vector<int64_t> linear, offsets; // the elements; the source's local offsets
  };
  /// An all-gather whose members each send the same elements to all the
  /// others (Table 6.1's ManyToManyMulticast; allGather() in
  /// DistributedExchange.cpp).
  struct AllGather {
    std::vector<int> members;                 // in mesh order
    std::vector<std::vector<int64_t>> blocks; // each member's elements
    std::vector<int64_t> offsets;             // this rank's block's local offsets
  };
  struct Plan {
    bool built = false;
    std::vector<int> sendPeers, recvPeers;
    std::vector<std::vector<int64_t>> sendOffsets, recvLinear;
    std::vector<Multicast> broadcasts; // those this processor is in, by source
    std::vector<Multicast> multicasts; // the trees this processor is in
    std::vector<Multicast> gathered;   // sources to every rank, by dimension
    std::vector<AllGather> allGathers; // those this processor is in
    /// Indirect: the inspector's schedule and the elements it fetches,
    /// kept while the action is invariant (PARTI's saved schedule).
    std::shared_ptr<rt::Schedule> schedule;
    std::vector<int64_t> scheduled;
  };
  bool inRange(int a, const int64_t *idx) const;
  /// Whether loop node n's iterations can be narrowed (OwnIterations.cpp).
  bool narrowable(int n) const;
  /// Narrows `its` to the iterations t (index lo + t * step in loop
  /// `slot`, the others at iv) in which this rank runs statement s; false:
  /// none.
  bool ownedIterations(int s, int slot, const int64_t *iv, int64_t lo, int64_t step,
                       Iterations &its) const;
  void executors(int s, const int64_t *iv, std::vector<int64_t> &out);
  template <class F> void instances(const CommItem &it, int level, F &&f);
  /// Runs the actions placed before `node` for part `part` (CommAction::part).
  void runActions(int node, int part);
  void runDirect(int action);
  void runIndirect(int action);
  bool inspect(int action, Plan &plan);
  void runReplicate(int action);
  /// Each member's `counts[p]` bytes (0: member p holds none) to every
  /// member of `group`, into `all` at `displs`.
  void gatherFromHolders(std::vector<char> &all, const std::vector<int> &counts,
                         const std::vector<int> &displs, int self, int line, MPI_Comm group);
  void exchange(int array, const Plan &plan);
  void broadcast(int array, const Multicast &mc);
  /// MPI_Bcast of `bytes` from `root` on the mesh's communicator (line < 0)
  /// or line `line`'s (root: its rank there).
  void bcast(char *buf, int bytes, int root, int line);
  void gatherByDimension(int array, const std::vector<Multicast> &blocks);
  void allGatherBlocks(int array, const AllGather &ag);
  int multicastLine(const std::vector<int> &members) const;
  std::vector<int> ringOrder(const std::set<int64_t> &group) const;
  void replicate(int array, const int64_t *idx);
  /// Runs f, counting the bytes this rank sends in it (inspector messages
  /// too) as `array`'s (PhaseStats::bytesByArray), and as action
  /// `fetch`'s where it is one (bytesByFetch).
  template <class F> void countedAs(size_t array, F &&f, int fetch = -1) {
    PhaseStats &ps = stats[static_cast<size_t>(phase_)];
    const int64_t before = ps.bytesSent + ps.schedulingBytes;
    f();
    const int64_t sent = ps.bytesSent + ps.schedulingBytes - before;
    ps.bytesByArray[array] += sent;
    if (fetch >= 0) {
      bytesByFetch[static_cast<size_t>(fetch)] += sent;
      fetchPhase[static_cast<size_t>(fetch)] = phase_;
    }
  }
  // Reductions' partial results (DistributedReduction.cpp).
  int64_t reductionExecutor(int s, const int64_t *iv);
  bool partialElement(int array, const int64_t *idx) const;
  void combinePartials(int s);
  /// A CommItem that fetches nothing: a reduction's read of the element it
  /// writes, kept as a partial result where it runs.
  bool readsOwnPartial(const CommItem &it) const {
    return !it.index && it.boundLoop < 0 && activeReduce_[it.stmt] &&
           it.ref == x_.stmts[it.stmt].selfRead;
  }

  const ExecProgram &x_;
  rt::ProcessorMesh &mesh_;
  Interpreter *in_ = nullptr;
  DistOptions opts_;
  Machine machine_; // the simulated (or modelled) machine: its Transfer(m)
  int me_ = 0, procs_ = 1, phase_ = 0;
  std::vector<ArrayState> arrays_;
  std::vector<double> cost_;       // seconds per instance, per statement
  std::vector<char> activeReduce_; // per statement: partials combined
  std::vector<double> saved_;      // per statement: scalar before its region
  /// Per reduction into an array element: its partial results by element
  /// (linear id), and whether every rank keeps them apart (the element has
  /// several holders) rather than only those not holding it.
  std::vector<std::unordered_map<int64_t, double>> partial_;
  std::vector<char> viaPartials_;
  int current_ = -1; // the reduction into an array element now running
  std::vector<Plan> plans_;        // per action
  std::vector<signed char> narrowable_; // per node: -1 not yet known, 0, 1
  /// While a split loop's part runs its communication: the loop's slot and
  /// the part's iterations, which instances() enumerates instead of all.
  struct Part { int slot = -1; int64_t first = 0, last = 0; };
  std::optional<Part> part_;
  double pending_ = 0;
  std::vector<int64_t> scratchIv_;
};

/// Calls f(iv) for every instance of the item's statement inside the node it
/// is placed before (loops from `level` inwards; for a bound's item, those
/// outside the bounded loop; of a split loop, the part's iterations), the
/// outer indices current.
template <class F> void DistributedMemory::instances(const CommItem &it, int level, F &&f) {
  const CStmt &st = x_.stmts[it.stmt];
  const int end = it.boundLoop >= 0 ? it.boundLoop : st.depth();
  std::vector<int64_t> &iv = scratchIv_;
  iv = in_->ivs();
  auto rec = [&](auto &self, int k) -> void {
    if (k >= end) { f(iv.data()); return; }
    const CLoop &l = x_.loops[st.loops[k]];
    int64_t lo = in_->bound(l.lower, iv.data()), hi = in_->bound(l.upper, iv.data());
    if (k == level && part_ && part_->slot == st.loops[k]) {
      lo = part_->first;
      hi = part_->last;
    }
    int64_t &i = iv[st.loops[k]];
    if (l.step > 0) for (i = lo; i <= hi; i += l.step) self(self, k + 1);
    else for (i = lo; i >= hi; i += l.step) self(self, k + 1);
  };
  rec(rec, level);
}

} // namespace dlayout::exec
