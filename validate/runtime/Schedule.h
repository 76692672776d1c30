//===- validate/runtime/Schedule.h - PARTI schedules: who sends what to whom -*- C++ -*-===//
//
// A Schedule is PARTI's communication schedule (Berryman, Saltz & Scroggs,
// digest §2.3): built once, by the scheduler, from the elements each rank
// needs, then used any number of times — for any array with the same
// distribution (addresses are bound late: the schedule holds local offsets,
// the exchangers take the storage) — without another scheduling message.
//
// Scheduler (digest §2.3, "Scheduler algorithm"): each rank lists, per owner,
// the local offsets it needs (Level 0); the request counts go to every rank
// with one MPI_Alltoall (PARTI's fan-in of nmsgs: afterwards every rank knows
// how many lists it will receive and from whom), then each non-empty request
// list goes point-to-point to its owner; each owner then knows what to send
// to whom. (An MPI_Alltoallv of the lists would carry the same data, but its
// algorithms send the O(P²) empty lists too: at 64 simulated ranks SimGrid's
// default one took 20× longer than this. PARTI's own fan-in, the sum of the
// 0/1 vectors by MPI_Allreduce with the lists received from any source, was
// slower too: spmv's scheduling on 64 simulated iPSC/2 nodes took 15.2 ms
// against 13.5.) Repeated requests for one element
// are sent once. Level 1 (global indices of a
// distributed array) first translates each index to (owner, local offset)
// with the ArrayDistribution, or for an indirect dimension whose map is
// distributed, with a TranslationTable (Zima: the look-up may cost a message).
//
// Exchangers, for a user buffer of slots() elements (slot j ↔ request j):
//   gather(local, out)          out[j] = the requested element (a fetch)
//   scatter(in, local, op)      the requested element (op)= in[j] on its
//                               owner: Assign, Add, Mul, Min, Max (PARTI's
//                               scatter and scatter_add/…; repeated slots for
//                               one element are combined first, Assign keeps
//                               the last in request order)
//   startGather(…).finish()     a gather split in two, for Kali's executor:
//                               start posts every send and receive, finish
//                               waits and unpacks.
// Data moves point-to-point (one message per peer with a non-empty list) or,
// for Transport::AllToAll, with one MPI_Alltoallv (the estimator's all-to-all).
//
// Replicated arrays: a Copies::One schedule fetches from the copy nearest the
// requester (itself when it holds one); a Copies::All schedule addresses every
// copy, so a scatter keeps the copies equal. scatter() through a Copies::One
// schedule of an array with several copies is a programming error (asserted).
//
// Errors. build() is collective and returns the same outcome on every rank:
// a rank that finds a bad request (index out of range, a processor that does
// not exist) sends −1 as its count in the Alltoall, so every rank learns of
// it without an extra message; the finding rank returns the precise Error,
// the others a "relayed" one (Abort.h). Precondition of the exchangers: the
// storage passed has the size the distribution gives this rank.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Result.h"
#include "validate/runtime/ArrayDistribution.h"
#include "validate/runtime/Counters.h"
#include "validate/runtime/ProcessorMesh.h"

#include <mpi.h>

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <optional>
#include <utility>
#include <span>
#include <vector>

namespace dlayout::rt {

class TranslationTable;

enum class Combine { Assign, Add, Mul, Min, Max };
enum class Copies { One, All };
enum class Transport { PointToPoint, AllToAll };

/// One Level-0 request: user slot `slot` ↔ element at `offset` on `proc`.
struct Request {
  int64_t slot = 0;
  int64_t proc = 0;
  int64_t offset = 0;
};

/// The result of translating global indices to requests (Schedule::translate).
struct Translation {
  std::vector<Request> requests;
  std::optional<Error> error; // the first bad index, if any
  bool agreed = false;        // error already known to every rank
};

template <class T> class PendingGather;

class Schedule {
public:
  Schedule() = default;

  /// PARTI Level 0. Collective. `slots` is the size of the user buffer;
  /// `localError` (when set) is reported to every rank in place of a result.
  static Result<Schedule> build(ProcessorMesh &mesh, std::span<const Request> requests,
                                int64_t slots,
                                Transport transport = Transport::PointToPoint,
                                const Error *localError = nullptr);

  /// PARTI Level 1. Collective. `indices` holds n multi-indices of `dist`
  /// (rank() entries each, the array's own index space); slot j is the j-th.
  static Result<Schedule> build(ProcessorMesh &mesh, const ArrayDistribution &dist,
                                std::span<const int64_t> indices,
                                Copies copies = Copies::One,
                                Transport transport = Transport::PointToPoint,
                                const TranslationTable *table = nullptr);

  /// Index translation alone (collective only when a table is used): the
  /// requests for `indices`, slot j for the j-th (several with Copies::All).
  static Translation translate(ProcessorMesh &mesh, const ArrayDistribution &dist,
                               std::span<const int64_t> indices, Copies copies,
                               const TranslationTable *table);

  int64_t slots() const { return slots_; }
  /// Peers this rank receives from in a gather / sends to.
  int64_t sourcePeers() const { return static_cast<int64_t>(fromPeers_.size()); }
  int64_t destinationPeers() const { return static_cast<int64_t>(toPeers_.size()); }
  /// Elements this rank receives / sends in one gather.
  int64_t elementsIn() const { return fromDispl_.empty() ? 0 : fromDispl_.back(); }
  int64_t elementsOut() const { return static_cast<int64_t>(sendOff_.size()); }
  bool allCopies() const { return allCopies_; }
  /// False for a Copies::One schedule of an array with several copies.
  bool scatterable() const { return scatterable_; }

  template <class T> void gather(ProcessorMesh &mesh, const T *local, T *out) const;
  template <class T> PendingGather<T> startGather(ProcessorMesh &mesh, const T *local,
                                                  T *out) const;
  template <class T>
  void scatter(ProcessorMesh &mesh, const T *in, T *local,
               Combine op = Combine::Assign) const;

private:
  template <class T> friend class PendingGather;

  /// Moves bytes: send[k] to toPeers... or the reverse. `reverse` swaps the
  /// roles (scatter). Counts the messages under Communication.
  void exchange(ProcessorMesh &mesh, const char *sbuf, char *rbuf, size_t elem,
                bool reverse, std::vector<MPI_Request> &reqs) const;
  void finishExchange(std::vector<MPI_Request> &reqs) const;

  int tag_ = 0;
  int64_t slots_ = 0;
  Transport transport_ = Transport::PointToPoint;
  bool allCopies_ = false;
  bool scatterable_ = true;
  // Requester side: the unique elements asked of each source peer.
  std::vector<int> fromPeers_;
  std::vector<int64_t> fromDispl_;            // per fromPeer, into the receive buffer
  std::vector<int64_t> recvSlot_, recvPos_;   // out[recvSlot_[j]] ← rbuf[recvPos_[j]]
  std::vector<int64_t> localSlot_, localOff_; // out[localSlot_[j]] ← local[localOff_[j]]
  // Owner side: what each destination peer asked for.
  std::vector<int> toPeers_;
  std::vector<int64_t> toDispl_;
  std::vector<int64_t> sendOff_;
};

template <class T> class PendingGather {
public:
  PendingGather(const Schedule &s, ProcessorMesh &mesh, const T *local, T *out)
      : s_(&s), mesh_(&mesh), out_(out) {
    PhaseTimer t(mesh.counters(), Phase::Communication);
    sbuf_.resize(s.sendOff_.size());
    for (size_t j = 0; j < sbuf_.size(); ++j) sbuf_[j] = local[s.sendOff_[j]];
    rbuf_.resize(s.elementsIn());
    s.exchange(mesh, reinterpret_cast<const char *>(sbuf_.data()),
               reinterpret_cast<char *>(rbuf_.data()), sizeof(T), false, reqs_);
    for (size_t j = 0; j < s.localSlot_.size(); ++j)
      out[s.localSlot_[j]] = local[s.localOff_[j]];
  }
  PendingGather(PendingGather &&o) noexcept
      : s_(o.s_), mesh_(o.mesh_), out_(o.out_), sbuf_(std::move(o.sbuf_)),
        rbuf_(std::move(o.rbuf_)), reqs_(std::move(o.reqs_)), done_(o.done_) {
    o.done_ = true;
  }
  PendingGather &operator=(PendingGather &&) = delete;
  PendingGather(const PendingGather &) = delete;
  ~PendingGather() { finish(); }

  /// Waits for the receives and fills the remaining slots (idempotent).
  void finish() {
    if (done_) return;
    done_ = true;
    PhaseTimer t(mesh_->counters(), Phase::Communication);
    s_->finishExchange(reqs_);
    for (size_t j = 0; j < s_->recvSlot_.size(); ++j)
      out_[s_->recvSlot_[j]] = rbuf_[s_->recvPos_[j]];
  }

private:
  const Schedule *s_;
  ProcessorMesh *mesh_;
  T *out_;
  std::vector<T> sbuf_, rbuf_;
  std::vector<MPI_Request> reqs_;
  bool done_ = false;
};

template <class T>
PendingGather<T> Schedule::startGather(ProcessorMesh &mesh, const T *local,
                                       T *out) const {
  return PendingGather<T>(*this, mesh, local, out);
}

template <class T>
void Schedule::gather(ProcessorMesh &mesh, const T *local, T *out) const {
  startGather(mesh, local, out).finish();
}

namespace detail {
template <class T> void combineInto(T &acc, const T &v, Combine op) {
  switch (op) {
  case Combine::Assign: acc = v; break;
  case Combine::Add: acc = acc + v; break;
  case Combine::Mul: acc = acc * v; break;
  case Combine::Min: acc = std::min(acc, v); break;
  case Combine::Max: acc = std::max(acc, v); break;
  }
}
} // namespace detail

template <class T>
void Schedule::scatter(ProcessorMesh &mesh, const T *in, T *local, Combine op) const {
  assert(scatterable_ && "scatter through a Copies::One schedule of a replicated array");
  PhaseTimer t(mesh.counters(), Phase::Communication);
  // Combine repeated slots per unique element first (in request order).
  std::vector<T> sbuf(elementsIn());
  std::vector<char> seen(sbuf.size(), 0);
  for (size_t j = 0; j < recvSlot_.size(); ++j) {
    int64_t pos = recvPos_[j];
    if (!seen[pos]) {
      sbuf[pos] = in[recvSlot_[j]];
      seen[pos] = 1;
    } else {
      detail::combineInto(sbuf[pos], in[recvSlot_[j]], op);
    }
  }
  std::vector<T> rbuf(sendOff_.size());
  std::vector<MPI_Request> reqs;
  exchange(mesh, reinterpret_cast<const char *>(sbuf.data()),
           reinterpret_cast<char *>(rbuf.data()), sizeof(T), true, reqs);
  for (size_t j = 0; j < localSlot_.size(); ++j)
    detail::combineInto(local[localOff_[j]], in[localSlot_[j]], op);
  finishExchange(reqs);
  for (size_t j = 0; j < sendOff_.size(); ++j)
    detail::combineInto(local[sendOff_[j]], rbuf[j], op);
}

} // namespace dlayout::rt
