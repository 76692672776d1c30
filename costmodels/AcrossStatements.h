//===- costmodels/AcrossStatements.h - Messages that carry several statements' reads -*- C++ -*-===//
//
// Beyond the thesis (message coalescing across statements, Fortran D). The
// validate executor fetches an array once before each loop node, each
// processor receiving the union of what the node's statements read; the
// estimator prices each statement's references (Coalescing.h joins those of
// one statement) and then joins, among the terms fetched before one loop
// copy of the distributed nest (StatementFacts::path), those one message
// carries:
//
//   - coalesceAcrossStatements: Shifts of one array towards the same
//     neighbours and as often are one message per neighbour carrying all
//     their elements. The first statement's term grows by the elements of
//     references it does not already carry (W(I+1,J,1) in one statement,
//     W(I+1,J,2) in the next), or takes the wider where both are edges of
//     one section (DP(I+1,J) beside DP(I+2,J): the union is the next
//     block's first two rows, not three); the others' are removed.
//   - joinSectionsAcrossStatements: where two statements that run on the
//     same processors (the same loops, the same lhs, the same other
//     runners) read sections of one array that differ by a constant in one
//     dimension -- eflux's QSP reads W(I+1,J,N) and QSM W(I,J,N), both for
//     every plane's owner -- and their fetches are the same messages
//     (primitive, group, span, repetitions, senders), the first
//     statement's message carries the union of the sections, grown as a
//     statement's own section union grows (Coalescing.h: (hi - lo) /
//     |alpha| more elements along that dimension, no more than a block per
//     processor along a blocked mesh dimension); the later ones' are
//     removed. Only where the term is the plain composition of its
//     reference's terms (ReferenceTerms, Composition.h) -- not a sum over
//     the samples of a triangular nest, nor a fetch counted as it runs --
//     and the dimension they differ in is on no mesh dimension, or blocked
//     on one other than the term's own. What remains is then bounded by
//     what its senders hold (FetchBound.h).
//
//   - joinCountedFetches: where statements read one array before one loop
//     copy and one of them is counted as it runs (CountedFetch.h: tred2's
//     E(K) = E(K) + Z(K,J) * F in DO 45 J / DO 43 K, fetched once per I),
//     the executor's one action brings the union of their reads, each
//     element once per receiver, the mesh filled in the order the union's
//     holders give: their reads are counted as one fetch (jointFetch),
//     charged to the first statement's, the others' terms removed -- G =
//     E(J) + Z(J,J) * F's diagonal, for the replicated G, with the column
//     below it. Only where each read's terms are its reference's alone (no
//     coalesced, pipelined or tiled message) and all are sampled alike.
//
// A fetch that another statement's covers outright is dropped by
// Subsumption.h; the estimator joins counted fetches after it. `comm` holds the statements in program order.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/Communication.h"
#include "costmodels/LayoutView.h"

#include <functional>
#include <optional>
#include <span>
#include <vector>

namespace dlayout::cost {

void coalesceAcrossStatements(std::vector<StatementComm> &comm, const LayoutView &lv,
                              const PrimitiveCosts &costs);

/// A joint fetch's terms: jointFetch's, or a copy kept from an earlier
/// estimate (StatementCache.h).
using JointCount =
    std::function<std::optional<std::vector<CommCost>>(std::span<const StatementRead>)>;

/// Counts as one fetch (by `count`) the reads of one array fetched before
/// one loop copy by several statements where one is counted as it runs
/// (above).
void joinCountedFetches(std::vector<StatementComm> &comm, const JointCount &count);

void joinSectionsAcrossStatements(std::vector<StatementComm> &comm, const LayoutView &lv,
                                  const PrimitiveCosts &costs, const CommunicationOptions &opts);

} // namespace dlayout::cost
