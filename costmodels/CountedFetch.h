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
//     processor 0 where the element lies outside the array; every
//     processor for a replicated scalar), which takes
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
// The executor fetches an array once before each loop, each processor
// receiving the union of what the loop's statements read there
// (validate/executor/CommPlacement.h), and fills the mesh in the order the
// union's holders give, which can differ from each reference's own: tred2's
// Z(J,J) for the replicated G with Z(K,J) for E(K), on 8 x 8 with E on
// every processor 24,784 bytes from the busiest where each reference
// counted alone says 20,720. So several reads are counted as one fetch
// (AcrossStatements.h's joinCountedFetches gives them), each element once
// per receiver however many of them read it.
//
// Not counted (nullopt): an lhs that is neither an array element nor a
// replicated scalar, a reduction's partial results (PartialsExchange.cpp),
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
#include <span>
#include <vector>

namespace dlayout::cost {

inline constexpr int64_t kMostCountedInstances = 1 << 14;
inline constexpr int64_t kMostCountedProcessors = 1 << 10;

/// One read of a counted fetch: reference rf of statement sf, whose loops
/// are at one sample of those the fetch is repeated in.
struct CountedRead {
  const StatementFacts *sf;
  const RhsFacts *rf;
};

/// The terms of the fetch that brings what `reads` (references to one
/// array, fetched before the same loop: the executor's one action) read,
/// each element once per receiver, counted over the loops inside position
/// `placement` (-1: every loop); one execution of the fetch, an empty list
/// where nothing moves.
std::optional<std::vector<ComposedTerm>> countedFetch(std::span<const CountedRead> reads,
                                                      const LayoutView &lv, int placement);

/// The terms of rf's fetch alone.
inline std::optional<std::vector<ComposedTerm>>
countedFetch(const StatementFacts &sf, const RhsFacts &rf, const LayoutView &lv, int placement) {
  const CountedRead read{&sf, &rf};
  return countedFetch(std::span<const CountedRead>(&read, 1), lv, placement);
}

} // namespace dlayout::cost
