//===- model/Layout.h - A data layout: Zima's delta, HPF's DISTRIBUTE -*- C++ -*-===//
//
// A Layout maps every array onto a processor mesh [N1, ..., Nd]: for each
// array dimension a distribution kind, the mesh dimension it is spread over,
// an offset and an overlap (ghost) width on each side. Arrays that share a
// mesh dimension and offset are aligned. The JSON form is "dlayout-layout/1":
//
//   { "schema": "dlayout-layout/1", "mesh": [16, 1],
//     "arrays": { "A": { "dims": [ { "kind": "cyclic", "mesh_dim": 0 },
//                                  { "kind": "collapsed" } ] } } }
//
// This file only says what a layout *is*; who owns index i under it is
// answered by validate/ (the runtime's distributions) and costed by
// costmodels/.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dlayout {

enum class DistKind {
  Block,        // contiguous blocks of ceil(extent / N)
  Cyclic,       // round robin, block 1
  BlockCyclic,  // round robin of blocks of `block`
  GeneralBlock, // blocks starting at begins[p] (Vienna Fortran)
  Indirect,     // owner given element by element in `map`
  Replicated,   // a copy on every processor of the mesh dimension
  Collapsed     // not distributed ('*')
};

const char *toString(DistKind k);
std::optional<DistKind> distKindFromString(const std::string &s);

struct Program;

struct DimLayout {
  DistKind kind = DistKind::Collapsed;
  int meshDim = -1;            // -1 for collapsed (and replicated on all)
  int64_t block = 0;           // BlockCyclic only
  int64_t offset = 0;          // alignment displacement
  std::vector<int64_t> begins; // GeneralBlock: first index of each block
  std::vector<int64_t> map;    // Indirect: owner of each element
  int64_t overlapLeft = 0, overlapRight = 0;

  bool distributed() const {
    return kind != DistKind::Collapsed && kind != DistKind::Replicated;
  }
  bool operator==(const DimLayout &) const = default;
};

struct ArrayLayout {
  std::vector<DimLayout> dims;
  bool operator==(const ArrayLayout &) const = default;
};

struct Layout {
  std::vector<int64_t> mesh;                 // processors per mesh dimension
  std::map<std::string, ArrayLayout> arrays; // by array name

  int64_t procs() const {
    int64_t p = 1;
    for (auto n : mesh) p *= n;
    return p;
  }
  bool operator==(const Layout &) const = default;
};

/// Checks a layout on its own: mesh entries >= 1; each distributed (or
/// replicated-along-one-dimension) array dimension on a mesh dimension that
/// exists and not shared with another dimension of the same array; block >= 1
/// for block_cyclic; general_block begins increasing (Vienna Fortran's
/// GENERAL_BLOCK; every processor owns a block), one per processor;
/// indirect map entries inside the mesh dimension; overlaps >= 0. The message
/// names the JSON path: "arrays.A.dims[1].mesh_dim: ...".
Status verify(const Layout &l);
/// verify(l), and that every array it names exists in `p` with as many
/// dimensions, and each indirect map has one entry per element.
Status verify(const Layout &l, const Program &p);

} // namespace dlayout
