//===- solver/Advice.h - The advisor's answer and its entry point -*- C++ -*-===//
//
// advise(program, machine, options) chooses a layout for every array of the
// program on `procs` processors and explains it:
//   - the PARADIGM passes of thesis ch. 5 (align by the component affinity
//     graph, block-cyclic by summed quality measures per mesh dimension and CR
//     set, block-size, num-procs over every factorisation of P), each a
//     detector -> driver (quality measures from costmodels/Estimate.h) ->
//     solver, give the heuristic layout;
//   - the exact optimiser (ExactOptimizer.h, Z3) chooses orientation,
//     distribution kind, block size, replication and mesh shape together over
//     the estimator's tabulated terms, warm-started by the heuristic, so its
//     optimum is never estimated worse than the heuristic's;
//   - the recommendation is the better of the two; alternatives are distinct
//     layouts, best first; decisive constraints carry quality measures
//     (seconds) and source locations.
// Library code: errors are returned, nothing is printed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/Estimate.h"
#include "model/Layout.h"
#include "model/Machine.h"
#include "model/Program.h"
#include "model/Result.h"

#include <string>
#include <vector>

namespace dlayout {

struct AdviseOptions {
  int64_t procs = 0;
  PlacementSource placement = PlacementSource::Dependences;
  double timeLimitSeconds = 5.0; // the Z3 stage's budget
  unsigned alternatives = 5;
  bool exact = true;             // run the exact optimiser
  /// Largest number of tabulated combinations per mesh shape for which the
  /// optimiser tabulates every combination (exact); above it, it uses
  /// per-choice and pairwise terms and re-estimates what it finds.
  int64_t tableLimit = 4096;
};

struct RankedLayout {
  Layout layout;
  double seconds = 0;
  std::string origin; // "heuristic", "optimiser", "num-procs"
};

/// A constraint that decided the layout (thesis ch. 5 vocabulary).
struct DecisiveConstraint {
  std::string kind; // "alignment", "blocked", "cyclic", "block-size",
                    // "mesh", "replication"
  std::vector<std::string> arrays;
  double qualitySeconds = 0;
  SourceLoc loc;
  std::string detail;
};

struct SolverReport {
  double heuristicSeconds = 0;
  double optimalSeconds = 0;
  double gap = 0;          // (heuristic - optimal) / heuristic, >= 0
  bool proved = false;     // Z3 finished over an exact table
  std::string method;      // "table", "pairwise", "none"
  Layout heuristic, optimal;
};

struct Advice {
  int64_t procs = 0;
  std::string machine;
  RankedLayout recommended;
  double computationSeconds = 0, communicationSeconds = 0;
  std::vector<RankedLayout> alternatives; // best first, recommended excluded
  SolverReport solver;
  std::vector<DecisiveConstraint> constraints;
  std::vector<Warning> warnings;
};

Result<Advice> advise(const Program &p, const Machine &m, const AdviseOptions &opts);

} // namespace dlayout
