//===- validate/runtime/Collectives.h - The estimator's primitives over MPI -*- C++ -*-===//
//
// The collective communication primitives the estimator costs (Gupta's
// thesis, digest-paradigm §3: OneToManyMulticast, ManyToManyMulticast,
// Scatter, Gather, Reduction, and the all-to-all of a redistribution), over
// the whole mesh or along one mesh dimension (the processors that differ only
// in that coordinate, as the thesis applies a primitive to the N_k processors
// of one mesh dimension). All are collective over that group; `root` is a
// rank within the group (the coordinate along the dimension).
//
//   broadcast    OneToManyMulticast(m, G)     MPI_Bcast
//   allGather    ManyToManyMulticast(m, G)    MPI_Allgather(v)
//   scatter      Scatter(m, G)                MPI_Scatter
//   gather       Gather(m, G)                 MPI_Gather
//   reduce       Reduction(m, G)              MPI_Allreduce / MPI_Reduce
//   Redistribution  all-to-all between two layouts of one array: a schedule
//                built once (each rank asks the old layout for the elements
//                the new layout gives it), then MPI_Alltoallv per execution.
//
// Counters: Communication phase, flat-algorithm message counts (Counters.h).
// Reductions take double, float, int32_t or int64_t.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Result.h"
#include "validate/runtime/ArrayDistribution.h"
#include "validate/runtime/ProcessorMesh.h"
#include "validate/runtime/Schedule.h"

#include <mpi.h>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace dlayout::rt {

template <class T> MPI_Datatype mpiType() {
  if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, float>) return MPI_FLOAT;
  else if constexpr (std::is_same_v<T, int32_t>) return MPI_INT32_T;
  else if constexpr (std::is_same_v<T, int64_t>) return MPI_INT64_T;
  else static_assert(sizeof(T) == 0, "reductions take double, float, int32_t, int64_t");
}

namespace detail {
/// The group of a collective: the whole mesh (meshDim −1) or one line.
inline MPI_Comm group(const ProcessorMesh &mesh, int meshDim) {
  return meshDim < 0 ? mesh.comm() : mesh.lineComm(meshDim);
}
inline void groupInfo(MPI_Comm c, int &rank, int &size) {
  MPI_Comm_rank(c, &rank);
  MPI_Comm_size(c, &size);
}
MPI_Op mpiOp(Combine op);
} // namespace detail

template <class T>
void broadcast(ProcessorMesh &mesh, T *data, int64_t n, int root, int meshDim = -1) {
  PhaseTimer t(mesh.counters(), Phase::Communication);
  MPI_Comm c = detail::group(mesh, meshDim);
  int r, G;
  detail::groupInfo(c, r, G);
  MPI_Bcast(data, static_cast<int>(n * sizeof(T)), MPI_BYTE, root, c);
  Counters &C = mesh.counters();
  C.collective(Phase::Communication);
  if (r == root) C.sent(Phase::Communication, G - 1, int64_t(G - 1) * n * sizeof(T));
  else C.received(Phase::Communication, 1, n * sizeof(T));
}

template <class T>
void allGather(ProcessorMesh &mesh, const T *mine, int64_t n, T *all, int meshDim = -1) {
  PhaseTimer t(mesh.counters(), Phase::Communication);
  MPI_Comm c = detail::group(mesh, meshDim);
  int r, G;
  detail::groupInfo(c, r, G);
  const int bytes = static_cast<int>(n * sizeof(T));
  MPI_Allgather(mine, bytes, MPI_BYTE, all, bytes, MPI_BYTE, c);
  Counters &C = mesh.counters();
  C.collective(Phase::Communication);
  C.sent(Phase::Communication, G - 1, int64_t(G - 1) * bytes);
  C.received(Phase::Communication, G - 1, int64_t(G - 1) * bytes);
}

/// Gathers every rank's `mine` (any length) in group rank order.
template <class T>
std::vector<T> allGatherv(ProcessorMesh &mesh, const std::vector<T> &mine,
                          int meshDim = -1) {
  PhaseTimer t(mesh.counters(), Phase::Communication);
  MPI_Comm c = detail::group(mesh, meshDim);
  int r, G;
  detail::groupInfo(c, r, G);
  int bytes = static_cast<int>(mine.size() * sizeof(T));
  std::vector<int> cnt(G), dsp(G, 0);
  MPI_Allgather(&bytes, 1, MPI_INT, cnt.data(), 1, MPI_INT, c);
  int64_t total = 0;
  for (int q = 0; q < G; ++q) {
    dsp[q] = static_cast<int>(total);
    total += cnt[q];
  }
  std::vector<T> all(total / sizeof(T));
  MPI_Allgatherv(mine.data(), bytes, MPI_BYTE, all.data(), cnt.data(), dsp.data(),
                 MPI_BYTE, c);
  Counters &C = mesh.counters();
  C.collective(Phase::Communication);
  C.sent(Phase::Communication, G - 1, int64_t(G - 1) * bytes);
  C.received(Phase::Communication, G - 1, total - bytes);
  return all;
}

template <class T>
void scatter(ProcessorMesh &mesh, const T *all, T *mine, int64_t n, int root,
             int meshDim = -1) {
  PhaseTimer t(mesh.counters(), Phase::Communication);
  MPI_Comm c = detail::group(mesh, meshDim);
  int r, G;
  detail::groupInfo(c, r, G);
  const int bytes = static_cast<int>(n * sizeof(T));
  MPI_Scatter(all, bytes, MPI_BYTE, mine, bytes, MPI_BYTE, root, c);
  Counters &C = mesh.counters();
  C.collective(Phase::Communication);
  if (r == root) C.sent(Phase::Communication, G - 1, int64_t(G - 1) * bytes);
  else C.received(Phase::Communication, 1, bytes);
}

template <class T>
void gather(ProcessorMesh &mesh, const T *mine, int64_t n, T *all, int root,
            int meshDim = -1) {
  PhaseTimer t(mesh.counters(), Phase::Communication);
  MPI_Comm c = detail::group(mesh, meshDim);
  int r, G;
  detail::groupInfo(c, r, G);
  const int bytes = static_cast<int>(n * sizeof(T));
  MPI_Gather(mine, bytes, MPI_BYTE, all, bytes, MPI_BYTE, root, c);
  Counters &C = mesh.counters();
  C.collective(Phase::Communication);
  if (r == root) C.received(Phase::Communication, G - 1, int64_t(G - 1) * bytes);
  else C.sent(Phase::Communication, 1, bytes);
}

/// Element-wise reduction of `data` (n values) over the group, in place; on
/// every rank (root −1, MPI_Allreduce) or only on `root`. op is not Assign.
template <class T>
void reduce(ProcessorMesh &mesh, T *data, int64_t n, Combine op, int meshDim = -1,
            int root = -1) {
  PhaseTimer t(mesh.counters(), Phase::Communication);
  MPI_Comm c = detail::group(mesh, meshDim);
  int r, G;
  detail::groupInfo(c, r, G);
  Counters &C = mesh.counters();
  C.collective(Phase::Communication);
  const int64_t bytes = n * sizeof(T);
  if (root < 0) {
    MPI_Allreduce(MPI_IN_PLACE, data, static_cast<int>(n), mpiType<T>(),
                  detail::mpiOp(op), c);
    if (G > 1) {
      C.sent(Phase::Communication, 1, bytes);
      C.received(Phase::Communication, 1, bytes);
    }
    return;
  }
  MPI_Reduce(r == root ? MPI_IN_PLACE : data, r == root ? data : nullptr,
             static_cast<int>(n), mpiType<T>(), detail::mpiOp(op), root, c);
  if (r == root) C.received(Phase::Communication, G - 1, int64_t(G - 1) * bytes);
  else C.sent(Phase::Communication, 1, bytes);
}

/// Moves an array from one distribution to another (same extents and lower
/// bounds, same mesh). Built once (collective), executed any number of times.
class Redistribution {
public:
  static Result<Redistribution> build(ProcessorMesh &mesh, const ArrayDistribution &from,
                                      const ArrayDistribution &to,
                                      Transport transport = Transport::AllToAll);
  /// dst (this rank's storage under `to`) ← src (storage under `from`); every
  /// copy `to` gives this rank is filled; overlap cells are left alone.
  template <class T> void execute(ProcessorMesh &mesh, const T *src, T *dst) const {
    schedule_.gather(mesh, src, dst);
  }
  const Schedule &schedule() const { return schedule_; }

private:
  Schedule schedule_;
};

} // namespace dlayout::rt
