//===- validate/runtime/Ghost.h - Overlap (ghost) region updates -*- C++ -*-===//
//
// DINO's mappings "also describe communication" (Rosing & Weaver, digest
// §3.2): `overlap l,r` gives each processor copies of the l indices left and
// the r indices right of its segment along a dimension (no wrap-around: edge
// processors get fewer), and `cross` adds the copies at the intersections of
// two overlaps — the diagonal neighbours' corner cells a 9-point stencil
// reads. The home of every element stays its owner under the partition.
//
// A GhostUpdate refreshes every overlap cell of this rank from the element's
// owner. It is built once (a Schedule whose slots are the rank's own storage,
// so the update is an in-place gather) and reused every sweep: one message
// per neighbour holding cells, no scheduling messages after the first build.
// Without corners only the face cells (outside the segment along exactly one
// dimension) are updated, as DINO without `cross`.
//
// The overlap widths come from the layout (DimLayout::overlapLeft/Right,
// allowed on block and general_block dimensions). build() is collective.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Result.h"
#include "validate/runtime/ArrayDistribution.h"
#include "validate/runtime/ProcessorMesh.h"
#include "validate/runtime/Schedule.h"

#include <cstdint>

namespace dlayout::rt {

class GhostUpdate {
public:
  static Result<GhostUpdate> build(ProcessorMesh &mesh, const ArrayDistribution &dist,
                                   bool corners = true);

  /// Fills this rank's overlap cells of `local` (storage of the distribution
  /// the update was built for) from their owners.
  template <class T> void update(ProcessorMesh &mesh, T *local) const {
    schedule_.gather(mesh, local, local);
  }

  /// Overlap cells this rank receives in one update.
  int64_t ghostCells() const { return cells_; }
  const Schedule &schedule() const { return schedule_; }

private:
  Schedule schedule_;
  int64_t cells_ = 0;
};

} // namespace dlayout::rt
