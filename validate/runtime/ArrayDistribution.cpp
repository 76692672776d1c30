//===- validate/runtime/ArrayDistribution.cpp - A whole array over a mesh --------===//
#include "validate/runtime/ArrayDistribution.h"

#include <algorithm>
#include <cassert>
#include <string>

namespace dlayout::rt {

namespace {
std::string idxStr(std::span<const int64_t> idx) {
  std::string s = "(";
  for (size_t k = 0; k < idx.size(); ++k)
    s += (k ? "," : "") + std::to_string(idx[k]);
  return s + ")";
}
} // namespace

Result<ArrayDistribution>
ArrayDistribution::make(const std::string &name, std::vector<int64_t> extents,
                        std::vector<int64_t> lowers, const ArrayLayout &layout,
                        std::vector<int64_t> mesh, bool columnMajor) {
  const std::string who = "array " + name;
  if (extents.size() != lowers.size())
    return makeError(who + ": " + std::to_string(extents.size()) +
                     " extents but " + std::to_string(lowers.size()) +
                     " lower bounds");
  if (layout.dims.size() != extents.size())
    return makeError(who + ": the layout gives " +
                     std::to_string(layout.dims.size()) +
                     " dimensions, the array has " +
                     std::to_string(extents.size()));
  for (size_t m = 0; m < mesh.size(); ++m)
    if (mesh[m] < 1)
      return makeError(who + ": mesh dimension " + std::to_string(m) +
                       " has " + std::to_string(mesh[m]) + " processors");
  std::vector<Distribution> dims;
  std::vector<int> meshDims;
  for (size_t k = 0; k < extents.size(); ++k) {
    const DimLayout &L = layout.dims[k];
    const std::string what = who + ", dimension " + std::to_string(k + 1);
    int md = -1;
    if (L.distributed() || (L.kind == DistKind::Replicated && L.meshDim >= 0)) {
      if (L.meshDim < 0 || L.meshDim >= static_cast<int>(mesh.size()))
        return makeError(what + ": mesh_dim " + std::to_string(L.meshDim) +
                         " is not a dimension of the " +
                         std::to_string(mesh.size()) + "-D mesh");
      md = L.meshDim;
    }
    auto d = Distribution::make(L, extents[k], lowers[k], md < 0 ? 1 : mesh[md],
                                what);
    if (!d) return d.error();
    dims.push_back(std::move(d).value());
    meshDims.push_back(md);
  }
  return fromDistributions(name, std::move(dims), std::move(meshDims),
                           std::move(mesh), columnMajor);
}

Result<ArrayDistribution>
ArrayDistribution::fromDistributions(const std::string &name,
                                     std::vector<Distribution> dims,
                                     std::vector<int> meshDims,
                                     std::vector<int64_t> mesh, bool columnMajor) {
  const std::string who = "array " + name;
  if (dims.size() != meshDims.size())
    return makeError(who + ": one mesh dimension per array dimension expected");
  ArrayDistribution a;
  a.name_ = name;
  a.columnMajor_ = columnMajor;
  a.mesh_ = std::move(mesh);
  const int M = static_cast<int>(a.mesh_.size());
  a.dimOnMesh_.assign(M, -1);
  a.meshStride_.assign(M, 1);
  for (int m = M - 1; m >= 0; --m) {
    if (a.mesh_[m] < 1)
      return makeError(who + ": mesh dimension " + std::to_string(m) + " has " +
                       std::to_string(a.mesh_[m]) + " processors");
    if (m + 1 < M) a.meshStride_[m] = a.meshStride_[m + 1] * a.mesh_[m + 1];
  }
  a.procs_ = M ? a.meshStride_[0] * a.mesh_[0] : 1;
  for (size_t k = 0; k < dims.size(); ++k) {
    int m = meshDims[k];
    if (m < -1 || m >= M)
      return makeError(who + ", dimension " + std::to_string(k + 1) +
                       ": mesh_dim " + std::to_string(m) + " outside the mesh");
    if (m < 0) {
      if (!dims[k].everywhere())
        return makeError(who + ", dimension " + std::to_string(k + 1) +
                         ": a distributed dimension needs a mesh dimension");
      continue;
    }
    if (a.dimOnMesh_[m] >= 0)
      return makeError(who + ": dimensions " + std::to_string(a.dimOnMesh_[m] + 1) +
                       " and " + std::to_string(k + 1) +
                       " are both mapped to mesh dimension " + std::to_string(m));
    if (dims[k].procs() != a.mesh_[m])
      return makeError(who + ", dimension " + std::to_string(k + 1) +
                       ": distributed over " + std::to_string(dims[k].procs()) +
                       " processors, mesh dimension " + std::to_string(m) +
                       " has " + std::to_string(a.mesh_[m]));
    a.dimOnMesh_[m] = static_cast<int>(k);
  }
  a.dims_ = std::move(dims);
  a.meshDimOf_ = std::move(meshDims);
  // Copies: every mesh dimension not holding a distributed array dimension
  // (replicated dimensions included) multiplies the copies.
  for (int m = 0; m < M; ++m) {
    int k = a.dimOnMesh_[m];
    if (k < 0 || a.dims_[k].everywhere()) a.copies_ *= a.mesh_[m];
  }
  const int r = a.rank();
  a.size_ = 1;
  a.elemStride_.assign(r, 1);
  for (int j = 0; j < r; ++j) {
    int k = columnMajor ? j : r - 1 - j;
    a.elemStride_[k] = a.size_;
    a.size_ *= a.dims_[k].extent();
  }
  a.strides_.assign(a.procs_ * r, 0);
  a.storageSize_.assign(a.procs_, 0);
  for (int64_t p = 0; p < a.procs_; ++p) {
    int64_t s = 1;
    for (int j = 0; j < r; ++j) {
      int k = columnMajor ? j : r - 1 - j;
      a.strides_[p * r + k] = s;
      s *= a.dims_[k].storageExtent(a.dimCoord(p, k));
    }
    a.storageSize_[p] = s; // a scalar (rank 0) is one element
  }
  return a;
}

int64_t ArrayDistribution::procOf(std::span<const int64_t> coords) const {
  int64_t p = 0;
  for (size_t m = 0; m < mesh_.size(); ++m) p += coords[m] * meshStride_[m];
  return p;
}

std::vector<int64_t> ArrayDistribution::coordsOf(int64_t proc) const {
  std::vector<int64_t> c(mesh_.size());
  for (size_t m = 0; m < mesh_.size(); ++m) c[m] = coord(proc, static_cast<int>(m));
  return c;
}

int64_t ArrayDistribution::linear(std::span<const int64_t> idx) const {
  int64_t g = 0;
  for (int k = 0; k < rank(); ++k) g += (idx[k] - dims_[k].lower()) * elemStride_[k];
  return g;
}

void ArrayDistribution::delinear(int64_t g, std::span<int64_t> idx) const {
  for (int k = 0; k < rank(); ++k)
    idx[k] = (g / elemStride_[k]) % dims_[k].extent() + dims_[k].lower();
}

Status ArrayDistribution::checkIndex(std::span<const int64_t> idx) const {
  if (static_cast<int>(idx.size()) != rank())
    return makeError("array " + name_ + ": index " + idxStr(idx) + " has " +
                     std::to_string(idx.size()) + " subscripts, the array " +
                     std::to_string(rank()));
  for (int k = 0; k < rank(); ++k)
    if (!dims_[k].inRange(idx[k])) {
      std::string bounds = "(";
      for (int j = 0; j < rank(); ++j)
        bounds += (j ? "," : "") + std::to_string(dims_[j].lower()) + ":" +
                  std::to_string(dims_[j].lower() + dims_[j].extent() - 1);
      return makeError("array " + name_ + ": index " + idxStr(idx) +
                       " out of range " + bounds + ")");
    }
  return success();
}

Status ArrayDistribution::checkLinear(int64_t g) const {
  if (g < 0 || g >= size_)
    return makeError("array " + name_ + ": element " + std::to_string(g) +
                     " out of range [0, " + std::to_string(size_) + ")");
  return success();
}

int64_t ArrayDistribution::home(std::span<const int64_t> idx) const {
  int64_t p = 0;
  for (size_t m = 0; m < mesh_.size(); ++m) {
    int k = dimOnMesh_[m];
    if (k >= 0) p += dims_[k].owner(idx[k]) * meshStride_[m];
  }
  return p;
}

int64_t ArrayDistribution::holderNear(std::span<const int64_t> idx,
                                      int64_t near, const DimOverride *ov) const {
  int64_t p = 0;
  for (size_t m = 0; m < mesh_.size(); ++m) {
    int k = dimOnMesh_[m];
    int64_t c = (k < 0 || dims_[k].everywhere()) ? coord(near, static_cast<int>(m))
                                                 : ownerAlong(k, idx[k], ov);
    p += c * meshStride_[m];
  }
  return p;
}

std::vector<int64_t> ArrayDistribution::holders(std::span<const int64_t> idx,
                                                const DimOverride *ov) const {
  std::vector<int64_t> out{0};
  for (size_t m = 0; m < mesh_.size(); ++m) {
    int k = dimOnMesh_[m];
    if (k >= 0 && !dims_[k].everywhere()) {
      int64_t add = ownerAlong(k, idx[k], ov) * meshStride_[m];
      for (auto &p : out) p += add;
    } else {
      std::vector<int64_t> next;
      next.reserve(out.size() * mesh_[m]);
      for (auto p : out)
        for (int64_t c = 0; c < mesh_[m]; ++c) next.push_back(p + c * meshStride_[m]);
      out = std::move(next);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool ArrayDistribution::holds(int64_t proc, std::span<const int64_t> idx) const {
  for (int k = 0; k < rank(); ++k)
    if (meshDimOf_[k] >= 0 && !dims_[k].holds(dimCoord(proc, k), idx[k]))
      return false;
  return true;
}

std::optional<ArrayDistribution::OwnedBox> ArrayDistribution::ownedBox(int64_t proc) const {
  OwnedBox box;
  const int64_t *st = strides_.data() + proc * rank();
  for (int k = 0; k < rank(); ++k) {
    const Distribution &d = dims_[k];
    if (!d.contiguous()) return std::nullopt;
    // storageIndex: i - lower for a dimension held everywhere, overlapLeft
    // + (i - first) within the segment otherwise.
    auto [first, end] = d.segment(dimCoord(proc, k));
    int64_t origin = d.everywhere() ? d.lower() : first - d.overlapLeft();
    box.first.push_back(first);
    box.end.push_back(end);
    box.stride.push_back(st[k]);
    box.base -= origin * st[k];
  }
  return box;
}

std::vector<int64_t> ArrayDistribution::storageExtents(int64_t proc) const {
  std::vector<int64_t> e(rank());
  for (int k = 0; k < rank(); ++k) e[k] = dims_[k].storageExtent(dimCoord(proc, k));
  return e;
}

int64_t ArrayDistribution::localOffset(int64_t proc, std::span<const int64_t> idx,
                                       const DimOverride *ov) const {
  const int64_t *st = strides_.data() + proc * rank();
  int64_t off = 0;
  for (int k = 0; k < rank(); ++k) {
    int64_t c = dimCoord(proc, k);
    int64_t s = ov && ov->dim == k ? (ov->owner == c ? ov->local : -1)
                                   : dims_[k].storageIndex(c, idx[k]);
    if (s < 0) return -1;
    off += s * st[k];
  }
  return off;
}

int64_t ArrayDistribution::ownedCount(int64_t proc) const {
  int64_t n = 1;
  for (int k = 0; k < rank(); ++k) n *= dims_[k].localExtent(dimCoord(proc, k));
  return n;
}

std::vector<int64_t> ArrayDistribution::ownedIndices(int64_t proc, int k) const {
  return dims_[k].indices(dimCoord(proc, k));
}

} // namespace dlayout::rt
