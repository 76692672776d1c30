//===- costmodels/Subsumption.h - Fetches another statement's already bring -*- C++ -*-===//
//
// Beyond the thesis (message coalescing across statements, Fortran D): a
// read reference fetched before a loop copy of the distributed nest adds no
// message where another statement's reference of the same array, fetched
// before the same copy, brings every element it needs to every processor
// that needs it. The validate executor fetches an array once per loop node,
// each processor receiving the union of what the node's statements read.
// fig2_2's XRSIQ(MI,MQ) += VAL * V(MP,MI) beside XRSIQ(MI,MP) += VAL *
// V(MQ,MI), MQ = 1 .. MP: at each MP the second brings rows 1 .. MP of V,
// the first's row MP among them, to the same owners of row MI of XRSIQ.
//
// The test (subsumes) is sufficient, not exact. Both statements are
// reached whenever their loop copy runs (probability 1), and either
//   - write the same array and run on its owners, under the same loops,
//     the owners the same function of the loop indices (the lhs subscripts
//     along its distributed dimensions alike); or
//   - the covering one assigns a scalar and runs on every processor, so
//     what it fetches reaches every one, and its loops enclose the covered
//     one's: tred2's F = D(J) in DO 61 J = 1, L brings D(1 .. L) to every
//     processor, the G * D(K) of Z(K,J), K = J .. L, beneath it among them.
// Per dimension of the fetched array, the covering reference's subscript is
// either the covered one's, or the covered one's value plus or minus one
// loop index vectorised over, free (in no other of its subscripts, nor in
// the lhs's distributed ones), of unit step, whose bounds hold that value
// over all the covered statement's iterations (checked by substituting
// bounds from the innermost loop out).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/Communication.h"
#include "costmodels/LayoutView.h"

#include <vector>

namespace dlayout::cost {

/// Removes the terms of every reference whose fetches another statement's
/// reference covers (above). `comm` holds the statements in program order.
void dropSubsumedFetches(std::vector<StatementComm> &comm, const LayoutView &lv);

} // namespace dlayout::cost
