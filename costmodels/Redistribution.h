//===- costmodels/Redistribution.h - Cost of changing a layout --*- C++ -*-===//
//
// Beyond the thesis (its "future work": redistribution between phases):
// the time to move one array from one layout to another. Every element's
// owner is computed under both layouts (Zima's delta: floor((i - o)/b) [mod
// N] per dimension, general_block by its begins, indirect by its map;
// processors numbered row-major over the mesh), giving the bytes each
// processor sends to each other one. A processor's messages go one after
// another, so the time is the largest, over processors, of the sum of
// Transfer(bytes) over its outgoing (or its incoming) messages.
// A replicated destination must receive a copy on every processor of its
// mesh dimension; a replicated source sends from the copy on the
// destination's own position when both meshes have the same shape.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/Primitives.h"
#include "model/Layout.h"
#include "model/Program.h"

namespace dlayout {

struct RedistributionCost {
  double seconds = 0;
  double bytesMoved = 0;   // over all processors
  double maxSendBytes = 0; // the busiest sender
  int64_t maxMessages = 0; // most messages one processor sends
};

Result<RedistributionCost>
redistributionCost(const Array &array, const ArrayLayout &from,
                   const std::vector<int64_t> &fromMesh, const ArrayLayout &to,
                   const std::vector<int64_t> &toMesh, const Machine &machine);

} // namespace dlayout
