//===- solver/ExactOptimizer.h - Beyond PARADIGM: the optimum on Z3 -*- C++ -*-===//
//
// Chooses together, on z3::optimize, what the passes decide one at a time:
//   orientation  per multi-dimensional array: its dimensions on the kept
//                classes as aligned, or with the first two kept classes
//                swapped (pairs of arrays are linked through the terms);
//   kind         per (distributed class x CR set): block, or cyclic with the
//                block-size pass's blocks times 1, 2, 4 or 8 (the BCG's
//                ratios kept);
//   replication  per replication candidate (Passes.h);
//   mesh shape   every ordered factorisation of P over the kept classes
//                with at most two classes distributed (section 5.4's
//                collapse), and the heuristic's shape. A shape whose mirror
//                (its first two dimensions swapped) was solved is not: its
//                optimum is the mirror's mirrored, where the orientation
//                variables cover every mirror (mirrorsCovered) -- the
//                estimate prices a layout and its mirror alike
//                (model/FillOrder.h): a third fewer estimates on the samples.
//
// The objective is the estimator's seconds, which is a sum of terms per
// statement: its computation, which depends on the layout of its lhs array
// (of its rhs arrays for a scalar reduction, and of its home operand's too
// for a reduction into an array element, model/Reduction.h), and its
// communication per rhs array B, which depends on the layouts of the lhs
// array and B (thesis chapters 3 and 4: T(S) and the lhs/rhs pair analysis
// of section 4.2), and the home's for an operand brought to it. The
// statements of one nest that fetch the same array are one group where that
// adds at most one array to what either reads: their fetches are bounded
// together (costmodels/FetchBound.h), a sum only over them all.
// Per mesh shape, each such term group is tabulated over the choices it
// depends on -- the "local" variables -- and the tables are filled by
// whole-program estimates that cover many groups' local combinations at
// once, while they are fewer than the entries over the statements, and then
// entry by entry, costing one group's statements an entry ("separable": exact where
// the estimate is a sum of these groups, which every returned layout checks
// by a full re-estimate). Z3 minimises
// the sum of the tables per connected component of the variables; the
// component optima add up to the shape's optimum. The heuristic's layout is
// always among the results, so the best is never worse than it. Within the
// time limit; at the limit the best found so far is returned.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "solver/Plan.h"

#include <vector>

namespace dlayout::solver {

struct OptimizerResult {
  std::vector<RankedLayout> found; // distinct, exact seconds, best first
  bool proved = false;  // every shape solved to optimality, the sums exact
  std::string method;   // "separable"
  size_t combinations = 0; // the space: product of every variable's options, per shape (capped)
  size_t estimates = 0;    // whole-program estimates the tables took
  bool timedOut = false;
  double z3Seconds = 0;    // time inside z3::optimize
  size_t variables = 0;    // over every shape
  size_t eliminated = 0;   // of them summed out before the search (TableSum.h)
};

Result<OptimizerResult> optimiseExactly(SolverContext &ctx, const Plan &heuristic,
                                        const AdviseOptions &opts);

} // namespace dlayout::solver
