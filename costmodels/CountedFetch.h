//===- costmodels/CountedFetch.h - A vectorised fetch counted as it runs -*- C++ -*-===//
//
// Beyond the thesis (exactOwners). A fetch vectorised over a triangular
// nest (tred2's E(K) = E(K) + Z(K,J) * F: Z's triangle J = 1..L,
// K = J+1..L fetched once per I) reaches, at each J, the row blocks its
// column segment spans -- one at some J, several at others -- and each
// holder of E(K) lacking Z(K,J). Fig. 3.2's means put the whole triangle
// on one row block; summing the driving loop's samples (MessageSum.h)
// follows the owners but not how the executor joins them (a multicast
// over the mesh per holder, where it fills the mesh one dimension at a
// time). Such a fetch is counted as the validate executor forms it, once
// per sample of the loops it is repeated in (OuterSamples.h):
//
//   - every instance of the loops it is vectorised over (those inside its
//     placement) runs on every holder of its lhs element (owner computes;
//     processor 0 where the element lies outside the array), which takes
//     the operand's element from its nearest holder (along a mesh dimension
//     the operand is replicated over, its own coordinate) unless it holds
//     it itself; each element once per sender and receiver;
//   - what a sender sends each receiver is direct messages: S Transfer(W / S),
//     W the busiest sender's elements, S the receivers it sends them to;
//   - but the elements a sender sends to every other processor (a
//     replicated lhs; the mesh more than two processors, not every
//     processor such a sender) go to the whole mesh: from one sender, a
//     OneToManyMulticast over the mesh; from several, one mesh dimension at
//     a time (the executor's gatherByDimension, model/FillOrder.h's order):
//     along dimension m each processor sends (n_m - 1) times the elements
//     of the senders that agree with it on every dimension not yet filled,
//     at once (ManyToManyMulticast) where every coordinate of each line
//     holds some, else each holder of a line in turn (OneToManyMulticast,
//     h times, h the most holders of a line).
//
// Each term's senders are a table over the mesh (Senders::Joint): what each
// processor sends over the busiest's.
//
// Each reference is counted alone. The executor joins the fetches of one
// array before the same loop into one (tred2's Z(J,J) for the replicated
// G with Z(K,J) for E(K)), and the mesh is filled in the order the
// union's holders give, which can differ from each fetch's own: on 4 x 4
// with E on every processor, 17,280 bytes from the busiest predicted
// against 16,544 simulated, each fetch alone counted exactly. Not counted (nullopt): an lhs that is
// not an array element, a reduction's partial results (PartialsExchange.cpp),
// a subscript or bound not affine, a distribution without an owner function
// (general_block, indirect), a loop outside the placement at more than one
// index that a subscript or an inner bound reads, more than
// kMostCountedInstances instances (by Fig. 3.2's trips or counted), a
// mesh of more than kMostCountedProcessors (or whose coordinates, each
// plus one, number more than 2^16).
//
// Communication.h counts this way the fetches that summing samples cannot
// price: a tiled one (fig2_2's V(MP,MI), its root moving with MP) and one
// vectorised over a driver its subscripts do not read (V(MQ,MI) under
// MQ = 1, MP).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/Composition.h"
#include "costmodels/LayoutView.h"

#include <optional>
#include <vector>

namespace dlayout::cost {

inline constexpr int64_t kMostCountedInstances = 1 << 14;
inline constexpr int64_t kMostCountedProcessors = 1 << 10;

/// The terms of rf's fetch (a read of statement sf, whose loops are at one
/// sample of those the fetch is repeated in), counted over the loops inside
/// position `placement` (-1: every loop); one execution of the fetch, an
/// empty list where nothing moves.
std::optional<std::vector<ComposedTerm>> countedFetch(const StatementFacts &sf,
                                                      const RhsFacts &rf,
                                                      const LayoutView &lv, int placement);

} // namespace dlayout::cost
