//===- validate/executor/DistributedReduction.cpp - Partial results -------===//
//
// Reductions whose instances run where an operand lives, not where the
// result is kept (ExecProgram.h, model/PrivateScalars.h, model/Reduction.h):
//   - into a scalar: each rank's partial result, combined by MPI_Allreduce
//     after the reduction's region;
//   - into an array element: a rank running an instance whose element it
//     does not hold (or any rank, when the element has several holders)
//     accumulates a partial result for that element; after the region each
//     such rank sends its partial results to the element's holders, one
//     message per holder with the values alone (every rank enumerates the
//     region's instances and knows who sends what), and the holders combine
//     them in rank order.
//
//===----------------------------------------------------------------------===//
#include "validate/executor/Distributed.h"

#include "validate/executor/Messages.h"

#include <algorithm>
#include <map>
#include <set>

namespace dlayout::exec {

namespace {

MPI_Op mpiOp(Reduce r) {
  switch (r) {
  case Reduce::Prod: return MPI_PROD;
  case Reduce::Max: return MPI_MAX;
  case Reduce::Min: return MPI_MIN;
  case Reduce::And: return MPI_LAND;
  case Reduce::Or: return MPI_LOR;
  case Reduce::Xor: return MPI_LXOR;
  default: return MPI_SUM;
  }
}

constexpr int kPartialTag = 98;

} // namespace

int64_t DistributedMemory::reductionExecutor(int s, const int64_t *iv) {
  const CStmt &st = x_.stmts[s];
  const CRef &h = st.refs[st.operand];
  int64_t hi[8], li[8];
  in_->refIndex(s, h, iv, hi);
  if (!inRange(h.array, hi)) return 0;
  std::span<const int64_t> hs(hi, h.subs.size());
  if (st.lhs < 0) return arrays_[h.array].dist->home(hs);
  // The copy of the home element nearest the element written: along the
  // mesh dimensions the home operand is replicated over, the lhs's.
  const CRef &l = st.refs[st.lhs];
  in_->refIndex(s, l, iv, li);
  if (!inRange(l.array, li)) return 0;
  int64_t near = arrays_[l.array].dist->home(std::span<const int64_t>(li, l.subs.size()));
  return arrays_[h.array].dist->holderNear(hs, near);
}

bool DistributedMemory::partialElement(int a, const int64_t *idx) const {
  if (current_ < 0 || x_.stmts[current_].refs[x_.stmts[current_].lhs].array != a) return false;
  if (viaPartials_[current_]) return true;
  return !arrays_[a].dist->holds(me_, std::span<const int64_t>(idx, x_.arrays[a].extents.size()));
}

void DistributedMemory::beginRegion(int node) {
  for (int s : x_.nodes[node].reductions) {
    if (!activeReduce_[s]) continue;
    const CStmt &st = x_.stmts[s];
    if (st.lhs >= 0) {
      partial_[s].clear();
      continue;
    }
    double &v = in_->scalars()[st.scalar];
    saved_[s] = v;
    v = identity(st.reduce);
  }
}

void DistributedMemory::endRegion(int node) {
  flushCompute();
  current_ = -1;
  double t0 = MPI_Wtime();
  for (int s : x_.nodes[node].reductions) {
    if (!activeReduce_[s]) continue;
    const CStmt &st = x_.stmts[s];
    if (st.lhs >= 0) {
      countedAs(static_cast<size_t>(st.refs[st.lhs].array), [&] { combinePartials(s); });
      continue;
    }
    double &v = in_->scalars()[st.scalar];
    double total = v;
    MPI_Allreduce(&v, &total, 1, MPI_DOUBLE, mpiOp(st.reduce), mesh_.comm());
    v = storeAs(x_.scalarTypes[st.scalar], combine(st.reduce, saved_[s], total));
    if (procs_ > 1) {
      PhaseStats &ps = stats[phase_];
      ps.messagesSent += 1;
      ps.messagesReceived += 1;
      ps.bytesSent += 8;
      ps.bytesByArray.back() += 8;
      ps.bytesReceived += 8;
      ++ps.reductions;
      reordered = true;
    }
  }
  stats[phase_].communicationSeconds += MPI_Wtime() - t0;
}

void DistributedMemory::combinePartials(int s) {
  const CStmt &st = x_.stmts[s];
  const CRef &l = st.refs[st.lhs];
  const CArray &ca = x_.arrays[l.array];
  ArrayState &as = arrays_[l.array];
  // Who sends which elements' partial results to whom, from the region's
  // instances (the loops from the region's level inwards).
  int level = static_cast<int>(std::find(st.loops.begin(), st.loops.end(), st.regionLoop) -
                               st.loops.begin());
  std::map<int64_t, std::set<int64_t>> sendTo;                // peer -> linear ids
  std::map<int64_t, std::map<int64_t, int64_t>> recvFrom;     // peer -> id -> local offset
  int64_t idx[8];
  CommItem item;
  item.stmt = s;
  item.ref = st.lhs;
  instances(item, level, [&](const int64_t *iv) {
    int64_t e = reductionExecutor(s, iv);
    in_->refIndex(s, l, iv, idx);
    if (!inRange(l.array, idx)) return;
    std::span<const int64_t> sp(idx, l.subs.size());
    int64_t g = linearId(ca, idx);
    for (int64_t q : as.dist->holders(sp)) {
      if (q == e && !viaPartials_[s]) continue; // accumulated in place
      if (e == me_) sendTo[q].insert(g);
      if (q == me_) recvFrom[e].emplace(g, as.dist->localOffset(me_, sp));
    }
  });
  const size_t wb = wireBytes(ca);
  const double none = identity(st.reduce);
  auto partialOf = [&](int64_t g) {
    auto it = partial_[s].find(g);
    return it == partial_[s].end() ? none : it->second;
  };
  MPI_Comm comm = mesh_.comm();
  PhaseStats &ps = stats[phase_];
  std::vector<std::vector<char>> out, in;
  std::vector<MPI_Request> reqs;
  std::vector<int64_t> peers;
  for (const auto &[q, ids] : recvFrom) {
    if (q == me_) continue;
    in.emplace_back(ids.size() * wb);
    peers.push_back(q);
    MPI_Irecv(in.back().data(), static_cast<int>(in.back().size()), MPI_BYTE,
              static_cast<int>(q), kPartialTag, comm, &reqs.emplace_back());
  }
  out.reserve(sendTo.size());
  for (const auto &[q, ids] : sendTo) {
    if (q == me_) continue;
    std::vector<char> &buf = out.emplace_back(ids.size() * wb);
    size_t j = 0;
    for (int64_t g : ids) pack(ca, partialOf(g), buf.data() + wb * j++);
    MPI_Isend(buf.data(), static_cast<int>(buf.size()), MPI_BYTE, static_cast<int>(q),
              kPartialTag, comm, &reqs.emplace_back());
    ps.messagesSent += 1;
    ps.bytesSent += static_cast<int64_t>(buf.size());
  }
  MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
  // Combine in rank order (recvFrom is ordered): the same on every holder.
  size_t k = 0;
  for (const auto &[q, ids] : recvFrom) {
    const char *data = nullptr;
    if (q != me_) {
      data = in[k++].data();
      ps.messagesReceived += 1;
      ps.bytesReceived += static_cast<int64_t>(ids.size() * wb);
    }
    size_t j = 0;
    for (const auto &[g, offset] : ids) {
      double v = data ? unpack(ca, data + wb * j++) : partialOf(g);
      double &x = as.local[offset];
      x = storeAs(ca.type, combine(st.reduce, x, v));
    }
  }
  if (!sendTo.empty() || !recvFrom.empty()) {
    ++ps.reductions;
    reordered = true;
  }
}

} // namespace dlayout::exec
