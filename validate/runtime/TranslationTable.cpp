//===- validate/runtime/TranslationTable.cpp - PARTI's distributed translation table -===//
#include "validate/runtime/TranslationTable.h"

#include "validate/runtime/Abort.h"
#include "validate/runtime/Schedule.h"

#include <string>

namespace dlayout::rt {

std::pair<int64_t, int64_t> TranslationTable::blockOf(int64_t extent, int64_t lower,
                                                      int64_t size, int64_t rank) {
  auto d = Distribution::block(extent, size, lower);
  return d.segment(rank);
}

Result<TranslationTable> TranslationTable::build(ProcessorMesh &mesh, int64_t extent,
                                                 int64_t lower, int64_t procs,
                                                 std::span<const int64_t> myBlock) {
  PhaseTimer timer(mesh.counters(), Phase::Scheduling);
  Counters &C = mesh.counters();
  const int P = mesh.size(), me = mesh.rank();
  std::optional<Error> err;
  if (extent < 0 || procs < 1)
    return makeError("translation table: extent " + std::to_string(extent) + " over " +
                     std::to_string(procs) + " processors");
  auto [first, end] = blockOf(extent, lower, P, me);
  if (static_cast<int64_t>(myBlock.size()) != end - first)
    err = makeError("translation table: rank " + std::to_string(me) + " passed " +
                    std::to_string(myBlock.size()) + " map entries for its block [" +
                    std::to_string(first) + ", " + std::to_string(end) + ")");
  // Per-owner counts of this block, plus one error flag, summed everywhere.
  std::vector<int64_t> counts(procs + 1, 0);
  for (size_t k = 0; !err && k < myBlock.size(); ++k) {
    int64_t p = myBlock[k];
    if (p < 0 || p >= procs)
      err = makeError("indirect map names processor " + std::to_string(p) +
                      " for index " + std::to_string(first + int64_t(k)) +
                      ", but the mesh dimension has " + std::to_string(procs) +
                      " processors (0.." + std::to_string(procs - 1) + ")");
    else
      ++counts[p];
  }
  counts[procs] = err ? 1 : 0;
  std::vector<int64_t> totals(procs + 1), before(procs + 1, 0);
  MPI_Allreduce(counts.data(), totals.data(), static_cast<int>(procs + 1), MPI_INT64_T,
                MPI_SUM, mesh.comm());
  C.collective(Phase::Scheduling);
  C.sent(Phase::Scheduling, 1, 8 * (procs + 1));
  C.received(Phase::Scheduling, 1, 8 * (procs + 1));
  if (err) return *err;
  if (totals[procs] > 0) return relayedError(-1, "building a translation table");
  // Local index of entry i = earlier blocks' entries for its owner + this
  // block's so far (an exclusive prefix sum over the ranks).
  MPI_Exscan(counts.data(), before.data(), static_cast<int>(procs), MPI_INT64_T, MPI_SUM,
             mesh.comm());
  if (me == 0) std::fill(before.begin(), before.end(), 0); // Exscan leaves rank 0 undefined
  C.collective(Phase::Scheduling);
  C.sent(Phase::Scheduling, me + 1 < P ? 1 : 0, me + 1 < P ? 8 * procs : 0);
  C.received(Phase::Scheduling, me > 0 ? 1 : 0, me > 0 ? 8 * procs : 0);

  TranslationTable t;
  t.extent_ = extent;
  t.lower_ = lower;
  t.mine_.resize(myBlock.size());
  for (size_t k = 0; k < myBlock.size(); ++k) {
    int64_t p = myBlock[k];
    t.mine_[k] = {p, before[p]++};
  }
  t.dist_ = Distribution::indirectDeferred(
      extent, lower, std::vector<int64_t>(totals.begin(), totals.begin() + procs));
  t.tableDist_ = Distribution::block(extent, P, lower);
  return t;
}

Result<TranslationTable> TranslationTable::fromFullMap(ProcessorMesh &mesh,
                                                       std::span<const int64_t> map,
                                                       int64_t lower, int64_t procs) {
  const int64_t n = static_cast<int64_t>(map.size());
  auto [first, end] = blockOf(n, lower, mesh.size(), mesh.rank());
  return build(mesh, n, lower, procs, map.subspan(first - lower, end - first));
}

Result<std::vector<TranslationTable::Entry>>
TranslationTable::lookup(ProcessorMesh &mesh, std::span<const int64_t> indices,
                         const Error *localError) const {
  std::optional<Error> err;
  if (localError) err = *localError;
  std::vector<Request> reqs;
  if (!err) {
    reqs.reserve(indices.size());
    for (size_t j = 0; j < indices.size(); ++j) {
      int64_t i = indices[j];
      if (!tableDist_.inRange(i)) {
        err = makeError("indirect index " + std::to_string(i) + " out of range [" +
                        std::to_string(lower_) + ", " + std::to_string(lower_ + extent_) +
                        ")");
        break;
      }
      reqs.push_back({static_cast<int64_t>(j), tableDist_.owner(i),
                      tableDist_.localIndex(i)});
    }
  }
  const int64_t n = static_cast<int64_t>(indices.size());
  auto s = Schedule::build(mesh, reqs, n, Transport::PointToPoint, err ? &*err : nullptr);
  if (!s) return s.error();
  std::vector<Entry> out(n);
  {
    // The look-up is part of scheduling: move its counts there.
    Counters before = mesh.counters();
    s->gather(mesh, mine_.data(), out.data());
    PhaseCounters d = mesh.counters()[Phase::Communication];
    const PhaseCounters &b = before[Phase::Communication];
    PhaseCounters delta{d.messagesSent - b.messagesSent,
                        d.messagesReceived - b.messagesReceived,
                        d.bytesSent - b.bytesSent,
                        d.bytesReceived - b.bytesReceived,
                        d.collectives - b.collectives,
                        d.seconds - b.seconds};
    mesh.counters()[Phase::Communication] = b;
    mesh.counters()[Phase::Scheduling] += delta;
  }
  return out;
}

} // namespace dlayout::rt
