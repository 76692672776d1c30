//===- costmodels/FetchBound.h - A fetch sends no more than its sender holds -*- C++ -*-===//
//
// Beyond the thesis: the union bound on one fetch. The validate executor
// fetches an array once before each loop node, each processor receiving the
// union of what the node's statements read there. So in one fetch a
// processor sends each element it holds at most once to each processor that
// lacks it: no more than its own part of the array times P - R, R being the
// processors that hold the same part (those along the mesh dimensions the
// array is not spread over).
//
// The terms of Tables 4.2 and 4.3 price each reference's fetch apart, and
// where several statements' reads overlap, their sum can pass that bound.
// fig2_2's XRSIQ(MI,MQ) += VAL * V(MP,MI) beside XRSIQ(MI,MP) += VAL *
// V(MQ,MI), V by columns: each statement alone moves most of V; together
// they bring all of it, once, to every processor.
//
// Fewer processors can read a part where every statement's read subscript
// in some dimension of the array is the written element's subscript in a
// dimension of the same owner function: the part's holder at coordinate c
// along that dimension's mesh dimension sends only to processors at c
// along the written one's. fig2_2 with XRSIQ and V blocked both ways on 2 x 2:
// V's column block c goes to mesh row c of XRSIQ alone, two processors, one
// of them the holder where r = c (512 and 1,024 bytes simulated, where
// P - R allows 1,536).
//
// boundFetches takes the terms fetched before a whole loop nest (placement
// -1: once per run of the nest; a fetch inside a loop is left as it is),
// grouped by nest and array; not a reduction's, which may carry partial
// results (PartialsExchange.cpp), nor one message serving several
// references (coalescing), which carries elements of other holders. Per processor it sums what the group's terms
// send, as validate counts a busiest processor's bytes (Senders). Where a
// processor's sum passes its bound, the group's message sizes are scaled so
// that the largest sum becomes the largest bounded one, and their seconds
// re-costed. Meshes of more than kMaxBoundedProcessors are left alone.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/Communication.h"
#include "costmodels/LayoutView.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dlayout::cost {

inline constexpr int64_t kMaxBoundedProcessors = 1 << 14;

/// The nest whose fetches of an array sf's operands are bounded with
/// (boundFetches groups terms by it and the array): its phase and outermost
/// loop; nullopt for a statement whose terms are never bounded (outside
/// loops, or a reduction's, which may carry partial results).
std::optional<std::pair<std::string, int>> fetchNest(const StatementFacts &sf);

/// Scales the terms of each nest's fetch of an array down to the union
/// bound (above). `comm` holds the statements in program order.
void boundFetches(std::vector<StatementComm> &comm, const LayoutView &lv, const ProgramFacts &pf,
                  const PrimitiveCosts &costs, const CommunicationOptions &opts);

} // namespace dlayout::cost
