//===- validate/runtime/ArrayDistribution.h - A whole array over a mesh -*- C++ -*-===//
//
// An ArrayDistribution composes one Distribution per array dimension into the
// distribution of a multi-dimensional array over a processor mesh
// [N_0, …, N_{d−1}], exactly as a "dlayout-layout/1" ArrayLayout says:
//
//   - array dimension k with a distributed kind goes over mesh dimension
//     mesh_dim(k) (Zima's dimensional distributions on disjoint dimensions,
//     digest §4.2; at most one array dimension per mesh dimension);
//   - `collapsed` ('*') and `replicated` with mesh_dim −1 keep the whole
//     dimension on every processor; `replicated` with mesh_dim m also claims
//     mesh dimension m;
//   - a mesh dimension no array dimension is distributed over REPLICATES the
//     array along it (Gupta Eq. 2.1's "X", DINO `all`, Zima |δ(i)| > 1); the
//     home copy is the one at coordinate 0 there (DINO, digest §3.2).
//
// Zima's Example 2 (digest §4.2): A(32,16) on R(4,4) with (BLOCK, CYCLIC):
// δ(17,7) = {R(3,3)}, i.e. coordinates (2,2) here.
//
// Processors are named by their id: the row-major linear index of the mesh
// coordinates (the last mesh dimension varies fastest), which is the rank
// order of an MPI Cartesian communicator (ProcessorMesh makes the two agree).
//
// Elements are named by their multi-index in the array's own index space
// (with its lower bounds), or by a global linear id in [0, size()) in the
// array's storage order (column-major: dimension 0 fastest; row-major: the
// last dimension fastest).
//
// Every processor keeps its part as one dense local box: along each array
// dimension its Distribution's storage (owned indices plus overlap cells), in
// the array's storage order. localOffset() is the linear offset in that box.
//
// This class knows nothing about MPI. Queries take valid indices and
// processor ids (precondition, asserted); checkIndex() turns an untrusted
// index into an Error.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Layout.h"
#include "model/Result.h"
#include "validate/runtime/Distribution.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace dlayout::rt {

/// Where a copy of an element lives: processor id and offset in its storage.
struct Location {
  int64_t proc = -1;
  int64_t offset = -1;
  bool operator==(const Location &) const = default;
};

/// For a dimension whose owners come from a distributed TranslationTable:
/// the owner (coordinate along its mesh dimension) and local index of the
/// element's index in dimension `dim`, used in place of the Distribution's.
struct DimOverride {
  int dim = -1;
  int64_t owner = 0;
  int64_t local = 0;
};

class ArrayDistribution {
public:
  /// From a layout: `extents` and `lowers` per array dimension (the model's
  /// ArrayDim), the layout's mesh. Errors: dimension counts that disagree, a
  /// mesh_dim outside the mesh, two array dimensions on one mesh dimension,
  /// a distributed kind without a mesh dimension, any Distribution::make error.
  static Result<ArrayDistribution>
  make(const std::string &name, std::vector<int64_t> extents,
       std::vector<int64_t> lowers, const ArrayLayout &layout,
       std::vector<int64_t> mesh, bool columnMajor = true);

  /// From ready-made dimension distributions; meshDims[k] is −1 for a
  /// dimension held whole everywhere.
  static Result<ArrayDistribution>
  fromDistributions(const std::string &name, std::vector<Distribution> dims,
                    std::vector<int> meshDims, std::vector<int64_t> mesh,
                    bool columnMajor = true);

  const std::string &name() const { return name_; }
  int rank() const { return static_cast<int>(dims_.size()); }
  const Distribution &dim(int k) const { return dims_[k]; }
  /// Mesh dimension array dimension k is spread over, −1 if none.
  int meshDimOf(int k) const { return meshDimOf_[k]; }
  /// Array dimension spread over mesh dimension m, −1 if the array is
  /// replicated along m.
  int dimOnMesh(int m) const { return dimOnMesh_[m]; }
  const std::vector<int64_t> &mesh() const { return mesh_; }
  int64_t procs() const { return procs_; }
  bool columnMajor() const { return columnMajor_; }

  // --- processors ------------------------------------------------------
  int64_t procOf(std::span<const int64_t> coords) const;
  std::vector<int64_t> coordsOf(int64_t proc) const;

  // --- elements --------------------------------------------------------
  int64_t size() const { return size_; }
  int64_t extent(int k) const { return dims_[k].extent(); }
  int64_t lower(int k) const { return dims_[k].lower(); }
  int64_t linear(std::span<const int64_t> idx) const;
  void delinear(int64_t g, std::span<int64_t> idx) const;
  std::vector<int64_t> delinear(int64_t g) const {
    std::vector<int64_t> v(rank());
    delinear(g, v);
    return v;
  }
  /// An Error naming the array, the index and the bounds when idx is outside.
  Status checkIndex(std::span<const int64_t> idx) const;
  Status checkLinear(int64_t g) const;

  // --- owners (δ) --------------------------------------------------------
  /// Number of (non-ghost) copies of every element: the product of the mesh
  /// dimensions it is replicated along.
  int64_t copies() const { return copies_; }
  /// The home copy's processor (coordinate 0 along replicated mesh dims).
  int64_t home(std::span<const int64_t> idx) const;
  /// The copy sharing `near`'s coordinates along every replicated mesh
  /// dimension: `near` itself whenever it holds one.
  int64_t holderNear(std::span<const int64_t> idx, int64_t near,
                     const DimOverride *ov = nullptr) const;
  /// Every processor holding a (non-ghost) copy, increasing.
  std::vector<int64_t> holders(std::span<const int64_t> idx,
                               const DimOverride *ov = nullptr) const;
  bool holds(int64_t proc, std::span<const int64_t> idx) const;
  /// Where every dimension is contiguous (block, general_block, replicated,
  /// collapsed), the indices proc holds (not its ghosts) form a box, and
  /// its storage is laid out over it: holds(proc, idx) iff first[k] <=
  /// idx[k] < end[k] for every k, and then localOffset(proc, idx) = base +
  /// sum idx[k] * stride[k]. nullopt for other kinds (the executor's fast
  /// path; holds and localOffset answer the same for every kind).
  struct OwnedBox {
    std::vector<int64_t> first, end, stride;
    int64_t base = 0;
  };
  std::optional<OwnedBox> ownedBox(int64_t proc) const;

  /// The copy nearest `near` and its offset there.
  Location locate(std::span<const int64_t> idx, int64_t near) const {
    int64_t p = holderNear(idx, near);
    return {p, localOffset(p, idx)};
  }

  // --- local storage (λ and local addresses) -----------------------------
  std::vector<int64_t> storageExtents(int64_t proc) const;
  int64_t storageSize(int64_t proc) const { return storageSize_[proc]; }
  /// Offset of idx in proc's storage when proc owns it or holds it in an
  /// overlap cell; −1 otherwise.
  int64_t localOffset(int64_t proc, std::span<const int64_t> idx,
                      const DimOverride *ov = nullptr) const;
  /// Offset from per-dimension storage indices (each in [0, storageExtent)).
  int64_t offsetOfStorage(int64_t proc, std::span<const int64_t> sidx) const {
    const int64_t *st = strides_.data() + proc * rank();
    int64_t off = 0;
    for (int k = 0; k < rank(); ++k) off += sidx[k] * st[k];
    return off;
  }
  /// |λ(proc)|: the number of elements proc owns (replicated ones included).
  int64_t ownedCount(int64_t proc) const;
  /// λ(proc): f(idx, offset) for every owned element, in storage order.
  template <class F> void forEachOwned(int64_t proc, F &&f) const;
  /// The indices proc owns along dimension k (the whole dimension when k is
  /// not distributed).
  std::vector<int64_t> ownedIndices(int64_t proc, int k) const;

private:
  ArrayDistribution() = default;
  /// Coordinate of proc along mesh dimension m.
  /// δ along dimension k, or the override's owner.
  int64_t ownerAlong(int k, int64_t i, const DimOverride *ov) const {
    return ov && ov->dim == k ? ov->owner : dims_[k].owner(i);
  }
  int64_t coord(int64_t proc, int m) const {
    return (proc / meshStride_[m]) % mesh_[m];
  }
  /// Position along dimension k's distribution processors of proc (0 when
  /// dimension k is not spread over a mesh dimension).
  int64_t dimCoord(int64_t proc, int k) const {
    return meshDimOf_[k] < 0 ? 0 : coord(proc, meshDimOf_[k]);
  }

  std::string name_;
  std::vector<Distribution> dims_;
  std::vector<int> meshDimOf_, dimOnMesh_;
  std::vector<int64_t> mesh_, meshStride_;
  int64_t procs_ = 1, size_ = 0, copies_ = 1;
  bool columnMajor_ = true;
  std::vector<int64_t> elemStride_;  // global linear id strides
  std::vector<int64_t> strides_;     // storage strides, procs × rank
  std::vector<int64_t> storageSize_; // per proc
};

template <class F>
void ArrayDistribution::forEachOwned(int64_t proc, F &&f) const {
  const int r = rank();
  if (r == 0) { // a scalar: one element, everywhere
    f(std::span<const int64_t>(), int64_t{0});
    return;
  }
  std::vector<std::vector<int64_t>> idx(r), sidx(r);
  for (int k = 0; k < r; ++k) {
    idx[k] = ownedIndices(proc, k);
    if (idx[k].empty()) return;
    int64_t c = dimCoord(proc, k);
    for (auto i : idx[k]) sidx[k].push_back(dims_[k].storageIndex(c, i));
  }
  // Odometer over the owned box, the fastest storage dimension innermost.
  std::vector<int> order(r);
  for (int k = 0; k < r; ++k) order[k] = columnMajor_ ? k : r - 1 - k;
  std::vector<size_t> pos(r, 0);
  std::vector<int64_t> cur(r);
  const int64_t *st = strides_.data() + proc * r;
  while (true) {
    int64_t off = 0;
    for (int k = 0; k < r; ++k) {
      cur[k] = idx[k][pos[k]];
      off += sidx[k][pos[k]] * st[k];
    }
    f(std::span<const int64_t>(cur), off);
    int j = 0;
    for (; j < r; ++j) {
      int k = order[j];
      if (++pos[k] < idx[k].size()) break;
      pos[k] = 0;
    }
    if (j == r) return;
  }
}

} // namespace dlayout::rt
