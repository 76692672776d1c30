//===- costmodels/Composition.h - Composing the terms, sec. 4.5 -*- C++ -*-===//
//
// Turns the per-mesh-dimension terms of one reference (CommTerms.h) into the
// primitives that run, with their message sizes (thesis section 4.5):
//   - message size: the product of every dimension's data size (IDM
//     included) for the primitives of ranks 1-5 of Table 4.6; a
//     ManyToManyMulticast that follows a Gather also carries the Gather's
//     group, and a multicast filling a replicated lhs that follows the
//     holders' exchange along other dimensions the exchange's
//     (CommTerm::afterExchange);
//   - boundary Shifts: IDM(m1),(N1>1)Shift(c1) with IDM(m2),(N2>1)Shift(c2)
//     give Shift(c1*m2), Shift(c2*m1) and, when both N > 1, the corner
//     Shift(c1*c2) (Table 4.5, row 3; generalised to any number of
//     dimensions);
//   - identical primitives in different dimensions (not two of one
//     dimension: a loop split at its source iteration multicasts before
//     each part) merge over the product group (Table 4.5): Gather, Reduction, ManyToManyMulticast,
//     OneToManyMulticast, and (1-1/p1) Transfer with (1-1/p2) Transfer into
//     (1 - 1/(p1 p2)) Transfer; beyond the thesis, two terms each sent by
//     one known coordinate of its dimension merge into one sent by that
//     processor alone, and a multicast filling a replicated lhs merges
//     only so (the executor's broadcast over the mesh from one source);
//     else it runs one mesh dimension at a time (the executor's
//     gatherByDimension), each dimension's holders multicasting what the
//     earlier ones brought them, only the holders along the later ones, in
//     model/FillOrder.h's order (by holders and sizes, not numbers: a
//     layout and its mirror cost the same);
//   - beyond the thesis (DimResult::receivers): the Gathers or Reductions
//     that tiling repeats once per receiver along the same mesh dimension
//     run at once, Gather(m, p) + (R - 1) Transfer(m) for R receivers
//     (Table 6.1's ManyToManyMulticast where R = p); where every processor
//     along the dimension receives, one sends to the R - 1 others, so the
//     Transfers' senders send R - 2 of their R - 1 (Senders::share);
//   - a term with one source whose operand is tiled from S processors one
//     after another is sent by each in ceil(T / S) of its T tiles
//     (ReferenceTerms::sourceShare), and one whose operand's owner moves
//     with a type-2 loop in the share of its iterations one processor
//     holds it (ReferenceTerms::sourceShareIn): Senders::share;
//   - a Gather towards an lhs whose owner moves with a type-2 loop leaves
//     each processor in the iterations it is not the root
//     (ReferenceTerms::rootTurns): Senders::parts along its dimension;
//   - beyond the thesis, for the busiest processor's bytes: a term along
//     one mesh dimension carries each line's own part of the operand along
//     the others where they have no term of their own (DimResult::parts),
//     a boundary Shift each sender's edge (DimResult::shiftParts):
//     Senders::parts;
//   - beyond the thesis, a replicated lhs read from an operand held jointly
//     along several mesh dimensions (ReferenceTerms::joint: a diagonal) is
//     filled one dimension at a time counted per processor, or over the
//     whole mesh from its one holder (jointFill): Senders::Joint;
//   - the result is in the order of Table 4.6.
// Repetitions (ρ(S), type-2 loops, tiles, pipelining) are applied by
// Communication.h.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/CommTerms.h"

#include <vector>

namespace dlayout::cost {

struct ComposedTerm {
  Primitive prim = Primitive::Transfer;
  double words = 0;
  int64_t group = 1;
  double factor = 1; // indicators, probability, contention
  double count = 1;  // repeated Transfers
  int64_t span = 1;  // processors along the mesh dimension it runs in
  int meshDim = -1;  // the mesh dimension whose term it is; -1: several
  bool boundaryTransfer = false;
  bool certain = false; // an invariant pair's Transfer with known owners
  int loop = -1;
  /// A Shift along one mesh dimension (a boundary's, or Table 4.2 case 2's
  /// of the local data): that dimension and the direction its data moves
  /// (DimResult::shiftDirection, CommTerm::direction); -1 and 0 else.
  int shiftDim = -1;
  int direction = 0;
  bool afterExchange = false; // CommTerm::afterExchange
  bool fill = false;          // CommTerm::fill
  /// A stage of a replicated lhs's fill from an operand held jointly
  /// (ReferenceTerms::joint): its size and senders counted per processor,
  /// final.
  bool staged = false;
  Senders senders;
  double ownShare = 1; // CommTerm::share: senders.share but for the tiles' share
  const char *rule = "";
};

std::vector<ComposedTerm> compose(const ReferenceTerms &rt,
                                  const std::vector<int64_t> &mesh);

} // namespace dlayout::cost
