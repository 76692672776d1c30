//===- validate/runtime/Ghost.cpp - Overlap (ghost) region updates --------------===//
#include "validate/runtime/Ghost.h"

#include <string>
#include <vector>

namespace dlayout::rt {

Result<GhostUpdate> GhostUpdate::build(ProcessorMesh &mesh, const ArrayDistribution &dist,
                                       bool corners) {
  if (dist.procs() != mesh.size())
    return makeError("array " + dist.name() + ": distributed over " +
                     std::to_string(dist.procs()) + " processors, but the mesh has " +
                     std::to_string(mesh.size()));
  const int r = dist.rank();
  const int64_t me = mesh.rank();
  const auto coords = dist.coordsOf(me);

  // Along each dimension: the global indices of this rank's storage box that
  // are in the array, their storage index, and whether they are overlap.
  struct Cand {
    int64_t g, s;
    bool ghost;
  };
  std::vector<std::vector<Cand>> cand(r);
  bool empty = r == 0;
  for (int k = 0; k < r; ++k) {
    const Distribution &d = dist.dim(k);
    const int64_t c = dist.meshDimOf(k) < 0 ? 0 : coords[dist.meshDimOf(k)];
    if (d.contiguous() && !d.everywhere() && d.localExtent(c) > 0) {
      auto [a, b] = d.segment(c);
      for (int64_t g = a - d.overlapLeft(); g < b + d.overlapRight(); ++g)
        if (d.inRange(g)) cand[k].push_back({g, d.storageIndex(c, g), g < a || g >= b});
    } else {
      for (int64_t g : d.indices(c)) cand[k].push_back({g, d.storageIndex(c, g), false});
    }
    if (cand[k].empty()) empty = true;
  }

  std::vector<Request> reqs;
  if (!empty) {
    std::vector<size_t> pos(r, 0);
    std::vector<int64_t> idx(r), sidx(r);
    while (true) {
      int ghosts = 0;
      for (int k = 0; k < r; ++k) {
        const Cand &x = cand[k][pos[k]];
        idx[k] = x.g;
        sidx[k] = x.s;
        ghosts += x.ghost;
      }
      if (ghosts == 1 || (ghosts > 1 && corners)) {
        Location loc = dist.locate(idx, me);
        reqs.push_back({dist.offsetOfStorage(me, sidx), loc.proc, loc.offset});
      }
      int k = 0;
      for (; k < r; ++k) {
        if (++pos[k] < cand[k].size()) break;
        pos[k] = 0;
      }
      if (k == r) break;
    }
  }
  auto s = Schedule::build(mesh, reqs, dist.storageSize(me));
  if (!s) return s.error();
  GhostUpdate g;
  g.schedule_ = std::move(s).value();
  g.cells_ = static_cast<int64_t>(reqs.size());
  return g;
}

} // namespace dlayout::rt
