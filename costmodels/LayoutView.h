//===- costmodels/LayoutView.h - A layout resolved for costing --*- C++ -*-===//
//
// A Layout checked against a program and turned into the numbers the thesis's
// formulas use, per array dimension A_k (section 2.1, Eq. 2.1):
//   N_k  processors of the mesh dimension it is on (1 when it is on none),
//   b_k  block size: ceil(extent / N_k) for block, 1 for cyclic, the given
//        block for block_cyclic, the largest block of a general_block,
//   o_k  offset: the dimension's lower bound plus the layout's offset, so that
//        f(A_k, i) = floor((i - o_k) / b_k) [mod N_k].
// and per array and mesh dimension, which array dimension lies on it and
// whether the array is replicated along it.
//
// The checks: every program array has a layout and every layout array exists
// (names case-insensitive for Fortran), the ranks agree, the mesh has entries
// >= 1 whose product is the processor count when one is given, mesh_dim is a
// mesh dimension used once per array, block > 0, general_block has one begin
// per processor, an indirect map one owner per element.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/ProgramAnalysis.h"
#include "model/Layout.h"

#include <optional>

namespace dlayout::cost {

struct DimDist {
  DistKind kind = DistKind::Collapsed;
  int meshDim = -1;
  int64_t procs = 1;  // N_k
  int64_t block = 1;  // b_k
  int64_t offset = 1; // o_k
  int64_t extent = 1;
  int64_t lower = 1; // the array dimension's lower bound
  int64_t overlapLeft = 0, overlapRight = 0;

  /// Spread over a mesh dimension (possibly of one processor).
  bool onMesh() const {
    return meshDim >= 0 && kind != DistKind::Replicated &&
           kind != DistKind::Collapsed;
  }
  bool blocked() const {
    return kind == DistKind::Block || kind == DistKind::GeneralBlock ||
           (kind == DistKind::BlockCyclic && block * procs >= extent);
  }
  /// The elements of the dimension the processor at coordinate c of its
  /// mesh dimension holds: its indices i with f(A_k, i) = c; every element
  /// off the mesh. A general_block's largest block, an indirect map's whole
  /// extent (bounds, not counts).
  int64_t heldBy(int64_t c) const;
  /// The same owner function (Eq. 2.1) as `o`, the mesh dimension aside: a
  /// block, cyclic or block-cyclic distribution of the same extent and
  /// blocks over as many processors.
  bool sameOwners(const DimDist &o) const {
    auto regular = [](const DimDist &d) {
      return d.onMesh() && (d.kind == DistKind::Block || d.kind == DistKind::Cyclic ||
                            d.kind == DistKind::BlockCyclic);
    };
    return regular(*this) && regular(o) && kind == o.kind && procs == o.procs &&
           block == o.block && offset == o.offset && extent == o.extent && lower == o.lower;
  }
};

struct ArrayDist {
  std::vector<DimDist> dims;
  std::vector<int> dimOnMesh;     // per mesh dimension: array dim, or -1
  std::vector<char> replicatedOn; // per mesh dimension

  /// Some dimension spread over more than one processor: not every
  /// processor holds every element.
  bool distributed() const {
    for (const DimDist &d : dims)
      if (d.onMesh() && d.procs > 1)
        return true;
    return false;
  }
  /// The elements the processor at `coords` holds (DimDist::heldBy).
  int64_t heldBy(const std::vector<int64_t> &coords) const;
};

struct LayoutView {
  std::vector<int64_t> mesh;
  int64_t procs = 1;
  std::vector<ArrayDist> arrays; // by ProgramFacts array index
  bool anyOverlap = false;       // some dimension has a ghost region
};

/// `only`: resolve these arrays (indices into pf.arrays) alone -- what one
/// statement's cost reads -- and leave the others empty; null: every array.
Result<LayoutView> resolveLayout(const ProgramFacts &pf, const Layout &l,
                                 std::optional<int64_t> procs = std::nullopt,
                                 const std::vector<int> *only = nullptr);

} // namespace dlayout::cost
