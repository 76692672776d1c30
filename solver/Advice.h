//===- solver/Advice.h - The advisor's answer and its entry point -*- C++ -*-===//
//
// advise(program, machine, options) chooses a layout for every array of the
// program on `procs` processors and explains it:
//   - the PARADIGM passes of thesis ch. 5 (align by the component affinity
//     graph -- Li-Chen and the exact minimum cut on Z3, the lower cut used --,
//     block-cyclic by summed quality measures per mesh dimension and CR set,
//     block-size by the block-size constraint graph (Theorem 5.1), num-procs
//     over every factorisation of P, replication as a choice), each a
//     detector -> driver (quality measures from costmodels/Estimate.h) ->
//     solver, give the heuristic layout;
//   - the exact optimiser (ExactOptimizer.h, Z3) chooses orientation,
//     distribution kind, block size, replication and mesh shape together over
//     the estimator's tabulated terms, warm-started by the heuristic, so its
//     optimum is never estimated worse than the heuristic's;
//   - the recommendation is the better of the two, or the fastest layout
//     without cyclic distributions where that is estimated within
//     AdviseOptions::cyclicMargin (2 %) of it (ties go to blocked, as in the
//     block-cyclic pass); alternatives are
//     distinct layouts, best first; decisive constraints carry quality
//     measures (seconds) and source locations.
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

namespace z3 {
class context;
}

namespace dlayout {

struct AdviseOptions {
  int64_t procs = 0;
  PlacementSource placement = PlacementSource::Dependences;
  bool scalarCommunication = true; // EstimateOptions::scalarCommunication
  IrregularStrategy irregular = IrregularStrategy::InspectorExecutor; // EstimateOptions::irregular
  /// The Z3 stages' budget: the exact alignment gets a quarter of it (at
  /// most 1 s), the exact optimiser the rest.
  double timeLimitSeconds = 5.0;
  unsigned alternatives = 5;
  /// A layout with cyclic or block-cyclic dimensions is recommended only
  /// where it is estimated faster by this fraction than the fastest layout
  /// estimated without them (Advise.cpp; 0: the fastest estimated).
  double cyclicMargin = 0.02;
  bool exact = true;             // run the exact alignment and optimiser
  /// A Z3 context for the exact alignment cut (none: one of its own), used
  /// from this thread alone: Z3 4.8 takes some 50 ms to make one, and
  /// extract() hands out the one it decided the dependences in.
  z3::context *solver = nullptr;
};

struct RankedLayout {
  Layout layout;
  double seconds = 0;
  /// "heuristic", "optimiser", "num-procs", "fewer-processors", or
  /// "blocked": another layout's cyclic distributions made BLOCK
  /// (AdviseOptions::cyclicMargin).
  std::string origin;
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
  std::string method;      // "table", "separable", "pairwise", "none"
  Layout heuristic, optimal;
  /// The align pass's two partitions of the component affinity graph
  /// (AlignmentCut.h): Li-Chen's cut and the exact minimum cut on Z3, in
  /// seconds of quality measure, and which one the passes used.
  double liChenCut = 0, exactCut = 0;
  std::string alignMethod = "li-chen"; // "li-chen" or "exact"
  bool alignProved = false;            // Z3 proved the exact cut minimal
};

/// Where the advisor's time went (seconds, wall clock) and how many
/// whole-program estimates it made.
struct AdviceStats {
  double analysisSeconds = 0;  // the estimator built, the program analysed
  double passesSeconds = 0;    // the PARADIGM passes (alignment's Z3 included)
  double alignZ3Seconds = 0;   // the exact minimum cut on Z3
  double optimiserSeconds = 0; // the exact optimiser, tables and Z3
  double optimiserZ3Seconds = 0;
  /// Variables the optimiser summed out by bucket elimination, and all of
  /// them (TableSum.h, step 0); what was left went to the bound, the
  /// enumeration or Z3.
  size_t optimiserEliminated = 0, optimiserVariables = 0;
  size_t estimates = 0;
};

struct Advice {
  int64_t procs = 0;
  std::string machine;
  RankedLayout recommended;
  double computationSeconds = 0, communicationSeconds = 0;
  /// Best first, the recommendation excluded; faster than it only where a
  /// layout without cyclic distributions was preferred to one with them
  /// (AdviseOptions::cyclicMargin), which is then the first.
  std::vector<RankedLayout> alternatives;
  SolverReport solver;
  std::vector<DecisiveConstraint> constraints;
  std::vector<Warning> warnings;
  AdviceStats stats;
};

Result<Advice> advise(const Program &p, const Machine &m, const AdviseOptions &opts);

} // namespace dlayout
