//===- costmodels/BodyBusiest.h - One busiest processor per loop body -*- C++ -*-===//
//
// Beyond the thesis. The estimate sums T(S) over the statements, each on
// its own busiest processor (Eq. 3.1). Statements of one loop body that no
// communication inside its loops separates run one after the other on
// each processor with nothing to wait for: their time is that of the
// processor whose instances of all of them take longest, max_p sum_S, not
// sum_S max_p. Fig. 2.2's XRSIQ(MI,MQ) and XRSIQ(MI,MP), MQ <= MP, with
// XRSIQ blocked by columns: the first block is the busiest for one, the
// last for the other, and at NQ = 16 on 4 processors each does 68 of the
// 116 (times MORB) iterations the two maxima add up to.
//
// Where the instances are counted processor by processor along the same
// mesh dimensions (ComputationCost::spread), a run of consecutive statements in
// the same loops that write the same array, none of those loops able to
// hold a communication under any layout (StatementFacts::quietLoops), is
// costed on the processor of the run's largest total; each statement's
// term becomes its time there. Both conditions keep each term a function
// of that one array's layout, as it was (the exact optimiser's tables stay
// sums of terms, solver/ExactOptimizer.h). A communication the estimate
// moves inside a loop to match a tiling (TermWalk's freeze) is not foreseen.
// A run of one statement takes its spread's largest: the busiest over the
// whole nest, where the sum of each outer iteration's busiest overcounts a
// busiest that moves (OuterSamples.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/Communication.h"
#include "costmodels/Computation.h"

#include <vector>

namespace dlayout::cost {

/// Whether a statement can join a run: an lhs of its own, at whose owners
/// it runs, inside quiet loops. statementComputation counts the spread of
/// these alone.
inline bool sharesBusiest(const StatementFacts &sf) {
  return sf.hasLhs && !sf.hasHome && !sf.loops.empty() && sf.quietLoops;
}

/// work[k] is the computation of comm[k].sf, the statements in program
/// order. Only lowers terms.
void shareBusiestProcessor(std::vector<ComputationCost> &work,
                           const std::vector<StatementComm> &comm);

} // namespace dlayout::cost
