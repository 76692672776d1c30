//===- costmodels/LayoutView.cpp - A layout resolved for costing ----------===//

#include "costmodels/LayoutView.h"

#include <algorithm>

namespace dlayout::cost {

int64_t DimDist::heldBy(int64_t c) const {
  if (!onMesh() || kind == DistKind::Indirect)
    return extent;
  if (kind == DistKind::GeneralBlock)
    return std::min(block, extent);
  // Indices t = i - o_k from t0 to t0 + extent; processor c holds the t
  // with floor(t / b) mod N = c. Shifted by whole rounds of N blocks to
  // count from zero.
  const int64_t round = block * procs;
  int64_t t0 = lower - offset;
  if (t0 < 0)
    t0 += (-t0 / round + 1) * round;
  auto below = [&](int64_t x) { // t in [0, x) held by c
    return x / round * block + std::clamp(x % round - c * block, int64_t(0), block);
  };
  return below(t0 + extent) - below(t0);
}

int64_t ArrayDist::heldBy(const std::vector<int64_t> &coords) const {
  int64_t n = 1;
  for (const DimDist &d : dims)
    n *= d.heldBy(d.onMesh() && size_t(d.meshDim) < coords.size() ? coords[size_t(d.meshDim)] : 0);
  return n;
}

namespace {

std::string meshText(const std::vector<int64_t> &mesh) {
  std::string s = "[";
  for (size_t i = 0; i < mesh.size(); ++i)
    s += (i ? ", " : "") + std::to_string(mesh[i]);
  return s + "]";
}

Result<DimDist> resolveDim(const DimLayout &d, const ArrayDim &ad,
                           const std::vector<int64_t> &mesh,
                           const std::string &path) {
  DimDist out;
  out.kind = d.kind;
  out.extent = std::max<int64_t>(ad.extent, 1);
  out.offset = ad.lower + d.offset;
  out.lower = ad.lower;
  out.overlapLeft = d.overlapLeft;
  out.overlapRight = d.overlapRight;
  bool wantsMesh =
      d.distributed() || (d.kind == DistKind::Replicated && d.meshDim != -1);
  if (wantsMesh) {
    if (d.meshDim < 0 || size_t(d.meshDim) >= mesh.size())
      return makeError(path + ".mesh_dim: " + std::to_string(d.meshDim) +
                       " is not a dimension of the mesh " + meshText(mesh));
    out.meshDim = d.meshDim;
    out.procs = mesh[d.meshDim];
  }
  switch (d.kind) {
  case DistKind::Block:
    out.block = (out.extent + out.procs - 1) / out.procs;
    break;
  case DistKind::Cyclic:
    out.block = 1;
    break;
  case DistKind::BlockCyclic:
    if (d.block <= 0)
      return makeError(path + ".block: must be positive, not " +
                       std::to_string(d.block));
    out.block = d.block;
    break;
  case DistKind::GeneralBlock: {
    if (int64_t(d.begins.size()) != out.procs)
      return makeError(path + ".begins: " + std::to_string(d.begins.size()) +
                       " entries for " + std::to_string(out.procs) +
                       " processors");
    int64_t largest = 1;
    for (size_t i = 0; i < d.begins.size(); ++i) {
      int64_t end =
          i + 1 < d.begins.size() ? d.begins[i + 1] : ad.lower + ad.extent;
      largest = std::max(largest, end - d.begins[i]);
    }
    out.block = largest;
    break;
  }
  case DistKind::Indirect:
    if (int64_t(d.map.size()) != ad.extent)
      return makeError(path + ".map: " + std::to_string(d.map.size()) +
                       " entries for an extent of " +
                       std::to_string(ad.extent));
    out.block = 1;
    break;
  case DistKind::Replicated:
  case DistKind::Collapsed:
    out.block = out.extent;
    out.procs = wantsMesh ? out.procs : 1;
    break;
  }
  return out;
}

} // namespace

namespace {

/// Resolves `al`, array a's entry (named `name`) in layout l, into v.arrays[a].
Status resolveArray(const ProgramFacts &pf, int a, const std::string &name,
                    const ArrayLayout &al, const Layout &l, LayoutView &v) {
  size_t dmesh = l.mesh.size();
  const Array &arr = *pf.arrays[a];
  std::string path = "layout: arrays." + name + ".dims";
  if (al.dims.size() != arr.dims.size())
    return makeError(path + ": " + std::to_string(al.dims.size()) +
                     " dimensions, but " + arr.name + " has " +
                     std::to_string(arr.dims.size()));
  ArrayDist &ad = v.arrays[a];
  ad.dimOnMesh.assign(dmesh, -1);
  ad.replicatedOn.assign(dmesh, 0);
  bool replicatedEverywhere = false;
  for (size_t k = 0; k < al.dims.size(); ++k) {
    auto d = resolveDim(al.dims[k], arr.dims[k], l.mesh,
                        path + "[" + std::to_string(k) + "]");
    if (!d)
      return d.error();
    if (d->meshDim >= 0) {
      bool taken =
          ad.dimOnMesh[d->meshDim] >= 0 || ad.replicatedOn[d->meshDim];
      if (taken)
        return makeError(path + "[" + std::to_string(k) +
                         "].mesh_dim: another dimension of " + arr.name +
                         " is already on mesh dimension " +
                         std::to_string(d->meshDim));
      if (d->kind == DistKind::Replicated)
        ad.replicatedOn[d->meshDim] = 1;
      else
        ad.dimOnMesh[d->meshDim] = int(k);
    } else if (d->kind == DistKind::Replicated) {
      replicatedEverywhere = true;
    }
    v.anyOverlap = v.anyOverlap || d->overlapLeft > 0 || d->overlapRight > 0;
    ad.dims.push_back(*d);
  }
  if (replicatedEverywhere) // replicated along every mesh dimension it is not on
    for (size_t m = 0; m < dmesh; ++m)
      if (ad.dimOnMesh[m] < 0)
        ad.replicatedOn[m] = 1;
  return success();
}

} // namespace

Result<LayoutView> resolveLayout(const ProgramFacts &pf, const Layout &l,
                                 std::optional<int64_t> procs,
                                 const std::vector<int> *only) {
  LayoutView v;
  v.mesh = l.mesh;
  if (l.mesh.empty())
    return makeError("layout: the mesh must have at least one dimension");
  for (size_t i = 0; i < l.mesh.size(); ++i)
    if (l.mesh[i] < 1)
      return makeError("layout: mesh[" + std::to_string(i) +
                       "] must be at least 1, not " +
                       std::to_string(l.mesh[i]));
  v.procs = l.procs();
  if (procs && v.procs != *procs)
    return makeError("layout: the mesh " + meshText(l.mesh) + " has " +
                     std::to_string(v.procs) + " processors, but " +
                     std::to_string(*procs) + " were asked for");

  v.arrays.resize(pf.arrays.size());
  std::vector<char> seen(pf.arrays.size(), 0);
  auto noLayout = [&](int a) {
    return makeError("layout: no distribution given for array " + pf.arrays[a]->name);
  };
  if (only) { // the named arrays alone, found by name
    for (int a : *only) {
      if (a < 0 || size_t(a) >= pf.arrays.size() || seen[a])
        continue;
      seen[a] = 1;
      auto it = l.arrays.find(pf.arrays[a]->name);
      if (it == l.arrays.end()) // a name spelled otherwise (Fortran's case)
        it = std::find_if(l.arrays.begin(), l.arrays.end(),
                          [&](auto &e) { return pf.findArray(e.first) == a; });
      if (it == l.arrays.end())
        return noLayout(a);
      if (auto s = resolveArray(pf, a, it->first, it->second, l, v); !s)
        return s.error();
    }
    return v;
  }
  for (const auto &[name, al] : l.arrays) {
    int a = pf.findArray(name);
    if (a < 0)
      return makeError("layout: the program has no array " + name);
    if (seen[a])
      return makeError("layout: array " + pf.arrays[a]->name +
                       " is given twice (as " + name + ")");
    seen[a] = 1;
    if (auto s = resolveArray(pf, a, name, al, l, v); !s)
      return s.error();
  }
  for (size_t a = 0; a < pf.arrays.size(); ++a)
    if (!seen[a])
      return noLayout(int(a));
  return v;
}

} // namespace dlayout::cost
