//===- validate/executor/DistributedInspector.cpp - Run-time resolution ---===//
//
// DistributedMemory's communication that only the run can resolve
// (Distributed.h): an indirect action's inspector and executor (Kali /
// PARTI: each rank lists the elements its own instances read, rt::Schedule
// builds the schedule, kept while the action is invariant), a replicating
// action's gather of the elements every rank needs for a whole loop, and
// the single elements broadcast by their home before a loop or an instance.
//
//===----------------------------------------------------------------------===//
#include "validate/executor/Distributed.h"

#include "validate/executor/Messages.h"
#include "validate/runtime/Schedule.h"

#include <algorithm>
#include <unordered_set>

namespace dlayout::exec {

/// The inspector of an indirect action: the elements this rank's own
/// instances read and does not hold, and the schedule that fetches them
/// (rt::Schedule::build, collective: every rank calls it or none).
bool DistributedMemory::inspect(int action, Plan &plan) {
  const CommAction &act = x_.actions[action];
  const CArray &ca = x_.arrays[act.array];
  ArrayState &st = arrays_[act.array];
  const size_t rank = ca.extents.size();
  std::vector<int64_t> indices, linear;
  std::unordered_set<int64_t> seen;
  std::vector<int64_t> execs;
  int64_t idx[8];
  for (const CommItem &it : act.items) {
    if (readsOwnPartial(it)) continue;
    const CStmt &st2 = x_.stmts[it.stmt];
    const CRef &r = st2.refs[it.ref];
    instances(it, act.level, [&](const int64_t *iv) {
      executors(it.stmt, iv, execs);
      if (std::find(execs.begin(), execs.end(), me_) == execs.end()) return;
      in_->refIndex(it.stmt, r, iv, idx);
      if (!inRange(r.array, idx)) return;
      std::span<const int64_t> sp(idx, rank);
      if (st.dist->holds(me_, sp)) return;
      int64_t g = linearId(ca, idx);
      if (!seen.insert(g).second) return;
      linear.push_back(g);
      indices.insert(indices.end(), idx, idx + rank);
    });
  }
  rt::Counters &c = mesh_.counters();
  auto before = c[rt::Phase::Scheduling];
  auto sched = rt::Schedule::build(mesh_, *st.dist, indices, rt::Copies::One);
  PhaseStats &ps = stats[phase_];
  ps.schedulingMessages += c[rt::Phase::Scheduling].messagesSent - before.messagesSent;
  ps.schedulingBytes += c[rt::Phase::Scheduling].bytesSent - before.bytesSent;
  if (!sched) {
    if (failure.empty()) failure = sched.error().message;
    return false;
  }
  plan.schedule = std::make_shared<rt::Schedule>(std::move(*sched));
  plan.scheduled = std::move(linear);
  plan.built = true;
  return true;
}

void DistributedMemory::runIndirect(int action) {
  const CommAction &act = x_.actions[action];
  const CArray &ca = x_.arrays[act.array];
  ArrayState &st = arrays_[act.array];
  if (st.dist->copies() >= procs_) return; // every rank holds every element
  Plan &plan = plans_[action];
  if (!plan.built || !act.invariant) {
    plan = Plan{};
    if (!inspect(action, plan)) return;
  }
  const rt::Schedule *sched = plan.schedule.get();
  const std::vector<int64_t> &linear = plan.scheduled;
  PhaseStats &ps = stats[phase_];
  std::vector<double> out(linear.size());
  if (wireBytes(ca) == 4 && ca.type == "f32") {
    std::vector<float> loc(st.local.begin(), st.local.end()), o(out.size());
    sched->gather(mesh_, loc.data(), o.data());
    std::copy(o.begin(), o.end(), out.begin());
  } else if (wireBytes(ca) == 4) {
    std::vector<int32_t> loc(st.local.size()), o(out.size());
    for (size_t k = 0; k < loc.size(); ++k) loc[k] = static_cast<int32_t>(st.local[k]);
    sched->gather(mesh_, loc.data(), o.data());
    std::copy(o.begin(), o.end(), out.begin());
  } else {
    sched->gather(mesh_, st.local.data(), out.data());
  }
  const int64_t wb = static_cast<int64_t>(wireBytes(ca));
  ps.messagesReceived += sched->sourcePeers();
  ps.bytesReceived += sched->elementsIn() * wb;
  ps.messagesSent += sched->destinationPeers();
  ps.bytesSent += sched->elementsOut() * wb;
  ++ps.exchanges;
  for (size_t j = 0; j < linear.size(); ++j) st.cache[linear[j]] = out[j];
}

void DistributedMemory::runReplicate(int action) {
  const CommAction &act = x_.actions[action];
  const CArray &ca = x_.arrays[act.array];
  ArrayState &st = arrays_[act.array];
  const size_t rank = ca.extents.size();
  if (st.dist->copies() >= procs_) return; // every rank holds every element
  // Every rank lists the same elements in the same order (the control flow
  // is replicated), each with its home; the homes' values are gathered. An
  // array spread over one mesh dimension and replicated along the others
  // (relax's COUNT on a 16 x 4 mesh) has a whole copy on each line along
  // that dimension: the gather runs within the line, from the copies
  // sharing this rank's other coordinates (the estimator's
  // ManyToManyMulticast over that dimension), not over the whole mesh.
  int line = -1, spread = 0;
  const std::vector<int64_t> &shape = st.dist->mesh();
  for (int m = 0; m < static_cast<int>(shape.size()); ++m)
    if (st.dist->dimOnMesh(m) >= 0 && shape[static_cast<size_t>(m)] > 1) ++spread, line = m;
  if (spread != 1 || st.dist->copies() <= 1) line = -1;
  const MPI_Comm group = line >= 0 ? mesh_.lineComm(line) : mesh_.comm();
  const int size = line >= 0 ? static_cast<int>(shape[static_cast<size_t>(line)]) : procs_;
  const int self = line >= 0 ? static_cast<int>(mesh_.coords()[static_cast<size_t>(line)]) : me_;
  auto sourceOf = [&](std::span<const int64_t> sp) {
    if (line < 0) return static_cast<int>(st.dist->home(sp));
    return static_cast<int>(mesh_.coordsOf(st.dist->holderNear(sp, me_))[static_cast<size_t>(line)]);
  };
  struct Wanted {
    int64_t linear;
    int home; // the source's rank in `group`
    bool held;
  };
  std::vector<Wanted> wanted;
  std::unordered_set<int64_t> seen;
  std::vector<int> counts(static_cast<size_t>(size), 0);
  std::vector<char> mine;
  const size_t wb = wireBytes(ca);
  int64_t idx[8];
  for (const CommItem &it : act.items) {
    if (readsOwnPartial(it)) continue;
    const CStmt &s = x_.stmts[it.stmt];
    const CRef *r = &s.indexRefs[it.ref];
    if (it.boundLoop >= 0) {
      const CLoop &l = x_.loops[s.loops[it.boundLoop]];
      size_t lower = l.lower.refs.size(), k = static_cast<size_t>(it.ref);
      r = k < lower ? &l.lower.refs[k] : &l.upper.refs[k - lower];
    }
    instances(it, act.level, [&](const int64_t *iv) {
      in_->refIndex(it.boundLoop >= 0 ? -1 : it.stmt, *r, iv, idx);
      if (!inRange(r->array, idx)) return; // reported where it is read
      int64_t g = linearId(ca, idx);
      if (!seen.insert(g).second) return;
      std::span<const int64_t> sp(idx, rank);
      int home = sourceOf(sp);
      wanted.push_back({g, home, st.dist->holds(me_, sp)});
      counts[static_cast<size_t>(home)] += static_cast<int>(wb);
      if (home == self) {
        mine.resize(mine.size() + wb);
        pack(ca, st.local[st.dist->localOffset(me_, sp)], mine.data() + mine.size() - wb);
      }
    });
  }
  std::vector<int> displs(counts.size(), 0);
  for (size_t p = 1; p < counts.size(); ++p) displs[p] = displs[p - 1] + counts[p - 1];
  std::vector<char> all(static_cast<size_t>(displs.back() + counts.back()));
  if (std::all_of(counts.begin(), counts.end(), [](int c) { return c > 0; })) {
    MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), MPI_BYTE, all.data(),
                   counts.data(), displs.data(), MPI_BYTE, group);
  } else {
    std::copy(mine.begin(), mine.end(), all.begin() + displs[static_cast<size_t>(self)]);
    gatherFromHolders(all, counts, displs, self, line, group);
  }
  std::vector<int> cursor = displs;
  for (const Wanted &w : wanted) {
    size_t at = static_cast<size_t>(cursor[static_cast<size_t>(w.home)]);
    cursor[static_cast<size_t>(w.home)] += static_cast<int>(wb);
    if (!w.held) st.cache[w.linear] = unpack(ca, all.data() + at);
  }
  PhaseStats &ps = stats[phase_];
  if (size > 1) { // each home sends its part to every other rank of the group
    int64_t others = 0;
    for (int p = 0; p < size; ++p)
      if (p != self && counts[static_cast<size_t>(p)] > 0) {
        ++others;
        ps.bytesReceived += counts[static_cast<size_t>(p)];
      }
    ps.messagesReceived += others;
    if (!mine.empty()) {
      ps.messagesSent += size - 1;
      ps.bytesSent += static_cast<int64_t>(size - 1) * static_cast<int64_t>(mine.size());
    }
    ++ps.exchanges;
  }
}

/// Only some members hold what is wanted (spmv's row pointers: 11 of 16 or
/// 64 processors). Either each holder multicasts its part in turn, Table
/// 6.1's OneToManyMulticast that the estimate charges, ceil(log2 n)
/// Transfers of it down MPI's binomial tree; or each holder sends its part
/// straight to every other member: n - 1 Transfers of its own, and on a
/// half-duplex machine the other holders' parts taken in turn (the
/// all-to-all of messageSeconds(), costmodels/Communication.cpp). Whichever
/// the machine's Transfer(m) makes cheaper: on the iPSC/2 the direct sends
/// at 16 nodes (spmv all BLOCK: 25.0 ms against 34.1), the multicasts at 64
/// (48.5 against 79.8). Not MPI_Allgatherv, whose zero-byte messages from the
/// members holding nothing SimGrid's default sends and times too (26.8 and
/// 109 ms). Every rank decides alike: `counts` is the same on every rank.
void DistributedMemory::gatherFromHolders(std::vector<char> &all, const std::vector<int> &counts,
                                          const std::vector<int> &displs, int self, int line,
                                          MPI_Comm group) {
  const int n = static_cast<int>(counts.size());
  double taken = 0, direct = 0; // every holder's part once; the busiest's direct sends
  for (int c : counts)
    if (c > 0) taken += machine_.transfer(c);
  const double multicasts = static_cast<double>(std::max<int64_t>(1, ceilLog2(n))) * taken;
  for (int c : counts)
    if (c > 0) {
      const double t = machine_.transfer(c);
      direct = std::max(direct, (n - 1) * t + (machine_.halfDuplex() ? taken - t : 0));
    }
  if (!machine_.halfDuplex()) direct = std::max(direct, taken);
  if (multicasts <= direct) {
    for (int p = 0; p < n; ++p)
      if (counts[static_cast<size_t>(p)] > 0)
        bcast(all.data() + displs[static_cast<size_t>(p)], counts[static_cast<size_t>(p)], p, line);
    return;
  }
  std::vector<int> ranks(static_cast<size_t>(n));
  std::vector<std::span<char>> parts(static_cast<size_t>(n));
  for (size_t p = 0; p < parts.size(); ++p) {
    ranks[p] = static_cast<int>(p);
    parts[p] = std::span<char>(all).subspan(static_cast<size_t>(displs[p]),
                                            static_cast<size_t>(counts[p]));
  }
  sendPartsToAll(group, ranks, static_cast<size_t>(self), parts);
}

void DistributedMemory::beforeLoop(int slot, const int64_t *iv) {
  const CLoop &l = x_.loops[slot];
  for (const CBound *b : {&l.lower, &l.upper})
    for (const CRef &r : b->refs) {
      int64_t idx[8];
      in_->refIndex(-1, r, iv, idx);
      replicate(r.array, idx);
    }
}

void DistributedMemory::beforeStatement(int s, const int64_t *iv) {
  const CStmt &st = x_.stmts[s];
  for (int k : st.replicated) {
    const CRef &r = st.indexRefs[k];
    int64_t idx[8];
    in_->refIndex(s, r, iv, idx);
    replicate(r.array, idx);
  }
}

/// One element to every rank: its home multicasts it (every rank calls this
/// for the same element in the same order: the control flow is replicated).
void DistributedMemory::replicate(int a, const int64_t *idx) {
  if (!inRange(a, idx)) return; // reported where it is read
  flushCompute();
  double t0 = MPI_Wtime();
  const ArrayState &st = arrays_[a];
  std::span<const int64_t> sp(idx, x_.arrays[a].extents.size());
  Multicast mc;
  const int home = static_cast<int>(st.dist->home(sp));
  mc.members.push_back(home);
  for (int p = 0; p < procs_; ++p)
    if (p != home) mc.members.push_back(p);
  mc.linear.push_back(linearId(x_.arrays[a], idx));
  if (home == me_) mc.offsets.push_back(st.dist->localOffset(me_, sp));
  countedAs(static_cast<size_t>(a), [&] { broadcast(a, mc); });
  stats[phase_].communicationSeconds += MPI_Wtime() - t0;
}

} // namespace dlayout::exec
