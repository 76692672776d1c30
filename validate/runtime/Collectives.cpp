//===- validate/runtime/Collectives.cpp - The estimator's primitives over MPI ----===//
#include "validate/runtime/Collectives.h"

#include <string>

namespace dlayout::rt {

MPI_Op detail::mpiOp(Combine op) {
  switch (op) {
  case Combine::Add: return MPI_SUM;
  case Combine::Mul: return MPI_PROD;
  case Combine::Min: return MPI_MIN;
  case Combine::Max: return MPI_MAX;
  case Combine::Assign: break;
  }
  return MPI_REPLACE; // not a reduction; MPI reports the misuse
}

Result<Redistribution> Redistribution::build(ProcessorMesh &mesh,
                                             const ArrayDistribution &from,
                                             const ArrayDistribution &to,
                                             Transport transport) {
  bool same = from.rank() == to.rank();
  for (int k = 0; same && k < from.rank(); ++k)
    same = from.extent(k) == to.extent(k) && from.lower(k) == to.lower(k);
  if (!same)
    return makeError("redistribution of array " + from.name() +
                     ": the two layouts describe arrays of different shapes");
  if (to.procs() != mesh.size())
    return makeError("redistribution of array " + to.name() + ": distributed over " +
                     std::to_string(to.procs()) + " processors, the mesh has " +
                     std::to_string(mesh.size()));
  const int64_t me = mesh.rank();
  std::vector<int64_t> idx;
  std::vector<int64_t> slots;
  idx.reserve(to.ownedCount(me) * to.rank());
  to.forEachOwned(me, [&](std::span<const int64_t> i, int64_t off) {
    idx.insert(idx.end(), i.begin(), i.end());
    slots.push_back(off);
  });
  // Translate against the old layout, then re-aim slot j at the new storage.
  Translation t;
  {
    PhaseTimer timer(mesh.counters(), Phase::Scheduling);
    t = Schedule::translate(mesh, from, idx, Copies::One, nullptr);
  }
  if (t.error && t.agreed) return *t.error;
  for (auto &r : t.requests) r.slot = slots[r.slot];
  auto s = Schedule::build(mesh, t.requests, to.storageSize(me), transport,
                           t.error ? &*t.error : nullptr);
  if (!s) return s.error();
  Redistribution r;
  r.schedule_ = std::move(s).value();
  return r;
}

} // namespace dlayout::rt
