//===- solver/ExactOptimizer.h - Beyond PARADIGM: the optimum on Z3 -*- C++ -*-===//
//
// Chooses together, on z3::optimize, what the passes decide one at a time:
//   orientation  per multi-dimensional array: its dimensions on the kept
//                classes as aligned, or with the first two kept classes
//                swapped (pairs of arrays are linked through the terms);
//   kind         per (kept class x CR set): block, cyclic, block_cyclic(k),
//                k in {2, 4, 8};
//   replication  per replication candidate (Passes.h);
//   mesh shape   every ordered factorisation of P over the kept classes.
// The objective is the estimator's seconds. When the combinations are few
// (AdviseOptions::tableLimit) every one is estimated and tabulated, and the
// optimum Z3 returns is the exact optimum over that space ("table"). Above
// it, the objective is the second-order expansion around a reference point
// per shape -- base + per-choice terms + pairwise terms ("pairwise") -- and
// every solution is re-estimated exactly. Solutions are enumerated best first
// by blocking each found one, within the time limit. The heuristic's point is
// always evaluated, so the best returned is never worse than it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "solver/Plan.h"

#include <vector>

namespace dlayout::solver {

struct OptimizerResult {
  std::vector<RankedLayout> found; // distinct, exact seconds, best first
  bool proved = false;
  std::string method;              // "table" or "pairwise"
  size_t combinations = 0;         // per shape
  bool timedOut = false;
};

Result<OptimizerResult> optimiseExactly(SolverContext &ctx, const Plan &heuristic,
                                        const AdviseOptions &opts);

} // namespace dlayout::solver
