//===- validate/runtime/Schedule.cpp - PARTI schedules -------------------------===//
//
// The scheduler of PARTI (digest §2.3): request counts by MPI_Alltoall, request
// lists point-to-point to the owners concerned, then point-to-point (or
// MPI_Alltoallv) exchanges. See the header.
//
//===----------------------------------------------------------------------===//
#include "validate/runtime/Schedule.h"

#include "validate/runtime/Abort.h"
#include "validate/runtime/TranslationTable.h"

#include <numeric>
#include <string>

namespace dlayout::rt {

Result<Schedule> Schedule::build(ProcessorMesh &mesh, std::span<const Request> requests,
                                 int64_t slots, Transport transport,
                                 const Error *localError) {
  PhaseTimer timer(mesh.counters(), Phase::Scheduling);
  const int P = mesh.size(), me = mesh.rank();
  Schedule s;
  s.tag_ = mesh.nextTag();
  s.slots_ = slots;
  s.transport_ = transport;

  std::optional<Error> err;
  if (localError) err = *localError;
  for (size_t j = 0; !err && j < requests.size(); ++j) {
    const Request &r = requests[j];
    if (r.proc < 0 || r.proc >= P)
      err = makeError("schedule request " + std::to_string(j) + " names processor " +
                      std::to_string(r.proc) + ", but the mesh has " +
                      std::to_string(P) + " processors");
    else if (r.slot < 0 || r.slot >= slots)
      err = makeError("schedule request " + std::to_string(j) + " names slot " +
                      std::to_string(r.slot) + " of a buffer of " +
                      std::to_string(slots));
    else if (r.offset < 0)
      err = makeError("schedule request " + std::to_string(j) +
                      " names a negative local offset " + std::to_string(r.offset));
  }

  // Group the remote requests by owner, each element once (PARTI sorts by
  // processor into a permutation; the stable order keeps request order among
  // repeats, which scatter's Assign relies on).
  std::vector<int64_t> counts(P, 0), reqOffsets;
  if (!err) {
    std::vector<size_t> order;
    for (size_t j = 0; j < requests.size(); ++j) {
      const Request &r = requests[j];
      if (r.proc == me) {
        s.localSlot_.push_back(r.slot);
        s.localOff_.push_back(r.offset);
      } else {
        order.push_back(j);
      }
    }
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const Request &x = requests[a], &y = requests[b];
      return x.proc != y.proc ? x.proc < y.proc : x.offset < y.offset;
    });
    int64_t pos = -1, lastProc = -1, lastOff = -1;
    for (size_t j : order) {
      const Request &r = requests[j];
      if (r.proc != lastProc || r.offset != lastOff) {
        ++pos;
        reqOffsets.push_back(r.offset);
        ++counts[r.proc];
        lastProc = r.proc;
        lastOff = r.offset;
      }
      s.recvSlot_.push_back(r.slot);
      s.recvPos_.push_back(pos);
    }
  }

  // Request counts to every rank; −1 says "I found an error".
  Counters &C = mesh.counters();
  std::vector<int64_t> sendCounts(P), recvCounts(P);
  for (int q = 0; q < P; ++q) sendCounts[q] = err ? -1 : counts[q];
  MPI_Alltoall(sendCounts.data(), 1, MPI_INT64_T, recvCounts.data(), 1, MPI_INT64_T,
               mesh.comm());
  C.collective(Phase::Scheduling);
  C.sent(Phase::Scheduling, P - 1, 8 * int64_t(P - 1));
  C.received(Phase::Scheduling, P - 1, 8 * int64_t(P - 1));
  if (err) return *err;
  for (int q = 0; q < P; ++q)
    if (recvCounts[q] < 0) return relayedError(q, "building a schedule");

  // The request lists themselves, each to the owner that holds its
  // elements (PARTI step 3; empty lists are not sent: everyone knows from
  // the counts which lists to expect).
  s.fromDispl_.push_back(0);
  s.toDispl_.push_back(0);
  for (int q = 0; q < P; ++q) {
    if (counts[q] > 0) {
      s.fromPeers_.push_back(q);
      s.fromDispl_.push_back(s.fromDispl_.back() + counts[q]);
    }
    if (recvCounts[q] > 0) {
      s.toPeers_.push_back(q);
      s.toDispl_.push_back(s.toDispl_.back() + recvCounts[q]);
    }
  }
  s.sendOff_.resize(s.toDispl_.back());
  std::vector<MPI_Request> reqs(s.fromPeers_.size() + s.toPeers_.size());
  size_t nr = 0;
  for (size_t k = 0; k < s.toPeers_.size(); ++k) {
    const int64_t n = s.toDispl_[k + 1] - s.toDispl_[k];
    MPI_Irecv(s.sendOff_.data() + s.toDispl_[k], static_cast<int>(n), MPI_INT64_T,
              s.toPeers_[k], s.tag_, mesh.comm(), &reqs[nr++]);
    C.received(Phase::Scheduling, 1, 8 * n);
  }
  for (size_t k = 0; k < s.fromPeers_.size(); ++k) {
    const int64_t n = s.fromDispl_[k + 1] - s.fromDispl_[k];
    MPI_Isend(reqOffsets.data() + s.fromDispl_[k], static_cast<int>(n), MPI_INT64_T,
              s.fromPeers_[k], s.tag_, mesh.comm(), &reqs[nr++]);
    C.sent(Phase::Scheduling, 1, 8 * n);
  }
  if (nr) MPI_Waitall(static_cast<int>(nr), reqs.data(), MPI_STATUSES_IGNORE);
  return s;
}

Translation Schedule::translate(ProcessorMesh &mesh, const ArrayDistribution &dist,
                                std::span<const int64_t> indices, Copies copies,
                                const TranslationTable *table) {
  Translation t;
  const int r = dist.rank();
  const int me = mesh.rank();
  auto agreed = [&](std::string msg) {
    t.error = makeError("array " + dist.name() + ": " + std::move(msg));
    t.agreed = true; // depends only on what every rank has alike
    return t;
  };
  if (dist.procs() != mesh.size())
    return agreed("distributed over " + std::to_string(dist.procs()) +
                  " processors, but the mesh has " + std::to_string(mesh.size()));
  if (r == 0) return agreed("a schedule needs an array with dimensions");
  int kInd = -1;
  for (int k = 0; k < r; ++k)
    if (!dist.dim(k).hasMap()) {
      if (kInd >= 0) return agreed("more than one indirect dimension without a map");
      kInd = k;
    }
  if (kInd >= 0 && !table)
    return agreed("dimension " + std::to_string(kInd + 1) +
                  " is indirect with a distributed map: a TranslationTable is needed");
  if (indices.size() % r != 0) {
    t.error = makeError("array " + dist.name() + ": " + std::to_string(indices.size()) +
                        " subscripts do not make whole " + std::to_string(r) +
                        "-D indices");
  }
  const size_t n = indices.size() / r;
  for (size_t j = 0; !t.error && j < n; ++j) {
    auto st = dist.checkIndex(indices.subspan(j * r, r));
    if (!st) t.error = st.error();
  }

  std::vector<TranslationTable::Entry> entries;
  if (kInd >= 0) {
    // Zima Def. 6: the owner of an indirect index is itself remote data.
    std::vector<int64_t> ids;
    if (!t.error) {
      ids.reserve(n);
      for (size_t j = 0; j < n; ++j) ids.push_back(indices[j * r + kInd]);
    }
    auto looked = table->lookup(mesh, ids, t.error ? &*t.error : nullptr);
    if (!looked) {
      t.error = looked.error();
      t.agreed = true;
      return t;
    }
    entries = std::move(looked).value();
  } else if (t.error) {
    return t;
  }

  t.requests.reserve(n * (copies == Copies::All ? dist.copies() : 1));
  for (size_t j = 0; j < n; ++j) {
    auto idx = indices.subspan(j * r, r);
    DimOverride ov;
    const DimOverride *pov = nullptr;
    if (kInd >= 0) {
      ov = {kInd, entries[j].owner, entries[j].local};
      pov = &ov;
    }
    const int64_t slot = static_cast<int64_t>(j);
    if (copies == Copies::One) {
      int64_t p = dist.holderNear(idx, me, pov);
      t.requests.push_back({slot, p, dist.localOffset(p, idx, pov)});
    } else {
      for (int64_t p : dist.holders(idx, pov))
        t.requests.push_back({slot, p, dist.localOffset(p, idx, pov)});
    }
  }
  return t;
}

Result<Schedule> Schedule::build(ProcessorMesh &mesh, const ArrayDistribution &dist,
                                 std::span<const int64_t> indices, Copies copies,
                                 Transport transport, const TranslationTable *table) {
  Translation t;
  {
    PhaseTimer timer(mesh.counters(), Phase::Scheduling);
    t = translate(mesh, dist, indices, copies, table);
  }
  if (t.error && t.agreed) return *t.error;
  const int64_t n = dist.rank() ? static_cast<int64_t>(indices.size()) / dist.rank() : 0;
  auto s = build(mesh, t.requests, n, transport, t.error ? &*t.error : nullptr);
  if (s) {
    s->allCopies_ = copies == Copies::All;
    s->scatterable_ = copies == Copies::All || dist.copies() == 1;
  }
  return s;
}

void Schedule::exchange(ProcessorMesh &mesh, const char *sbuf, char *rbuf, size_t elem,
                        bool reverse, std::vector<MPI_Request> &reqs) const {
  // Gather: receive from fromPeers_, send to toPeers_. Scatter: the reverse.
  const auto &inPeers = reverse ? toPeers_ : fromPeers_;
  const auto &inDispl = reverse ? toDispl_ : fromDispl_;
  const auto &outPeers = reverse ? fromPeers_ : toPeers_;
  const auto &outDispl = reverse ? fromDispl_ : toDispl_;
  Counters &C = mesh.counters();
  for (size_t k = 0; k < outPeers.size(); ++k)
    C.sent(Phase::Communication, 1, int64_t(elem) * (outDispl[k + 1] - outDispl[k]));
  for (size_t k = 0; k < inPeers.size(); ++k)
    C.received(Phase::Communication, 1, int64_t(elem) * (inDispl[k + 1] - inDispl[k]));

  if (transport_ == Transport::AllToAll) {
    const int P = mesh.size();
    std::vector<int> scnt(P, 0), sdsp(P, 0), rcnt(P, 0), rdsp(P, 0);
    for (size_t k = 0; k < outPeers.size(); ++k) {
      scnt[outPeers[k]] = static_cast<int>(elem * (outDispl[k + 1] - outDispl[k]));
      sdsp[outPeers[k]] = static_cast<int>(elem * outDispl[k]);
    }
    for (size_t k = 0; k < inPeers.size(); ++k) {
      rcnt[inPeers[k]] = static_cast<int>(elem * (inDispl[k + 1] - inDispl[k]));
      rdsp[inPeers[k]] = static_cast<int>(elem * inDispl[k]);
    }
    MPI_Alltoallv(sbuf, scnt.data(), sdsp.data(), MPI_BYTE, rbuf, rcnt.data(),
                  rdsp.data(), MPI_BYTE, mesh.comm());
    C.collective(Phase::Communication);
    return;
  }
  reqs.resize(inPeers.size() + outPeers.size());
  size_t n = 0;
  for (size_t k = 0; k < inPeers.size(); ++k)
    MPI_Irecv(rbuf + elem * inDispl[k], static_cast<int>(elem * (inDispl[k + 1] - inDispl[k])),
              MPI_BYTE, inPeers[k], tag_, mesh.comm(), &reqs[n++]);
  for (size_t k = 0; k < outPeers.size(); ++k)
    MPI_Isend(sbuf + elem * outDispl[k],
              static_cast<int>(elem * (outDispl[k + 1] - outDispl[k])), MPI_BYTE,
              outPeers[k], tag_, mesh.comm(), &reqs[n++]);
}

void Schedule::finishExchange(std::vector<MPI_Request> &reqs) const {
  if (!reqs.empty())
    MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
  reqs.clear();
}

} // namespace dlayout::rt
