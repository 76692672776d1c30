//===- solver/TableSum.h - Exact minimum of a sum of tables -*- C++ -*-===//
//
// The exact optimiser's inner problem (ExactOptimizer.h): discrete
// variables (each with a few options) and tables, each over a few of them;
// find the assignment that minimises the sum of the tables.
//
// Exact, cheapest way first:
//   0. bucket elimination (min-sum variable elimination): a variable whose
//      tables together span at most kEliminateRows rows of the other
//      variables is summed out -- its tables replaced by one over those
//      others holding the minimum over its options -- smallest first, until
//      none is left that small; its best option is recovered once the rest
//      are chosen. Chains and trees of arrays vanish here; what is left (the
//      densely linked core) goes through 1-3;
//   1. the lower bound (every table at its own minimum) against the start
//      assignment improved by coordinate descent: equal means optimal;
//   2. a space of at most kEnumerate assignments is enumerated;
//   3. otherwise the multi-valued variables (block / cyclic kinds) are
//      enumerated outside, best lower bound first, pruned by the bound, and
//      for each the two-way variables are solved on z3::optimize as weighted
//      MaxSAT -- per table row a soft "not this row" of weight row - (the
//      table's minimum), picoseconds -- or, when the multi-valued variables
//      are too many, everything is given to Z3 (one-hot options).
// Within a time limit; at the limit the best assignment found is returned,
// not proved.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <vector>

namespace dlayout::solver {

struct TableSum {
  struct Table {
    std::vector<int> vars;      // variable indices, the first most significant
    std::vector<double> values; // per combination of their options (mixed radix)
  };
  std::vector<int> options; // per variable, >= 1
  std::vector<Table> tables;

  double value(const std::vector<int> &sel) const;
  size_t row(const Table &t, const std::vector<int> &sel) const;
};

struct TableSumResult {
  std::vector<int> sel;
  double value = 0;
  bool proved = false;
  bool usedZ3 = false;
  double z3Seconds = 0;
  size_t eliminated = 0; // variables summed out before 1-3
};

/// The minimum of `ts`, starting from `start` (a valid assignment).
/// `eliminateFirst` false skips step 0 (to measure or test the rest alone).
TableSumResult minimiseTableSum(const TableSum &ts, const std::vector<int> &start,
                                double timeLimitSeconds, bool eliminateFirst = true);

} // namespace dlayout::solver
