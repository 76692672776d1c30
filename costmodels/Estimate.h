//===- costmodels/Estimate.h - Predicted run time of a layout ---*- C++ -*-===//
//
// The whole estimate of a program under a layout on a machine: the sum over
// its statements of the computation time T(S) (Computation.h, thesis ch. 3)
// and the time of the communication its rhs references need
// (Communication.h, ch. 4), with the breakdown by phase, statement and
// primitive.
//
//   auto est = dlayout::Estimator::build(program);   // once per program
//   for (const Layout &l : candidates)                // cheap per layout
//     double s = *est->seconds(l, machine);
//   auto full = est->evaluate(l, machine);            // with every term
//
// The Estimator keeps pointers into the Program, which must outlive it.
// Like the thesis's estimates, which are symbolic in the mesh shape, the
// layout-independent part (loops, subscripts, dependence levels, placement)
// is analysed once; evaluating a layout only does arithmetic, and a
// statement whose arrays are laid out as in an earlier evaluation on the same
// machine is not costed again (StatementCache.h).
//
// A layout that names an array the program lacks, omits one, has a mesh
// whose product differs from EstimateOptions::procs, a block <= 0, ... is an
// Error (LayoutView.h lists the checks).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/Communication.h"
#include "costmodels/ProgramAnalysis.h"
#include "costmodels/StatementCache.h"
#include "model/Layout.h"
#include "model/Machine.h"
#include "model/Program.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dlayout {

using cost::PlacementSource;

struct EstimateOptions {
  /// When set, the layout's mesh must have this many processors.
  std::optional<int64_t> procs;
  /// The imbalance factor imb for unknown lhs subscripts (section 3.2.2; the
  /// thesis calls it "an arbitrary small value greater than one").
  double imbalance = 1.5;
  bool overlap = true;            // section 3.3
  bool pipelining = true;         // section 4.5.3
  /// Beyond section 4.5.3: on a half-duplex machine a pipeline's inner
  /// processors receive, then send, a Transfer each per step
  /// (Communication.h). Off under the thesis's placement whatever this says.
  bool relayedPipeline = true;
  bool parallelReductions = true; // see Computation.h
  /// Where parallelism and the placement of communication come from
  /// (ProgramAnalysis.h): the model's dependences (default), or every
  /// non-parallel loop taken as a recurrence, as PARADIGM saw programs
  /// through Parafrase-2 (reproduces the thesis's estimates).
  PlacementSource placement = PlacementSource::Dependences;
  /// Beyond the thesis (section 5.4.1 analyses only assignments to array
  /// elements and to reduction scalars): cost the operands of other scalar
  /// assignments, which run on every processor and so must reach every one
  /// (what validate's executor does). Off under the thesis's placement
  /// (PlacementSource::SequentialLoops) whatever this says.
  bool scalarCommunication = true;
  /// Beyond the thesis: network hops (Machine::perHop) on the topology.
  bool topologyHops = false;
  /// Irregular references (Communication.h): by default Kali / PARTI's
  /// inspector/executor, which validate's executor runs, so that a
  /// validation measures the plan that was priced; the thesis's collectives
  /// (Table 4.4, always under PlacementSource::SequentialLoops), or the
  /// cheaper of the two, on request.
  IrregularStrategy irregular = IrregularStrategy::InspectorExecutor;
  bool ghostExchange = true;
  /// Beyond the thesis: message coalescing (Communication.h) and owners
  /// decided from the layout where positions are numbers (CommTerms.h,
  /// TermOptions; Computation.h). Both off: the thesis's per-reference terms
  /// and Eq. 3.2; both off under PlacementSource::SequentialLoops whatever
  /// these say (the thesis's placement with its formulas).
  bool coalescing = true;
  bool exactOwners = true;
};

/// The program analysis the estimate of these options rests on (the
/// advisor and validate's placement plan use the same).
cost::AnalysisOptions analysisOptions(const EstimateOptions &opts);

struct EstimateTerm {
  enum class Kind { Computation, Communication };
  Kind kind = Kind::Computation;
  std::string phase;
  std::string statement;
  SourceLoc loc;
  std::string array;     // communication: the rhs array
  std::string primitive; // "Transfer", ..., "Inspector", "Executor"
  double messageWords = 0;
  double messageBytes = 0;
  int64_t groupSize = 0;
  /// Communication: expected executions (probabilities, counts, tiles and
  /// type-2 loops included). Computation: rho(S) * prod C_l(S), the
  /// instances the busiest processor runs.
  double repetitions = 0;
  std::string placement; // loop id the communication is placed in; "" = outside
  std::string rule;      // which case of the thesis gave the term
  Senders senders;       // communication: who sends (the busiest's bytes)
  double seconds = 0;
};

struct Estimate {
  double predictedSeconds = 0;
  double computationSeconds = 0;
  double communicationSeconds = 0;
  std::string machine;
  std::vector<int64_t> mesh;
  std::vector<EstimateTerm> terms;
  std::vector<Warning> warnings;
};

/// How much of each term an estimate keeps. The exact optimiser's and the
/// passes' many estimates sum the terms by statement and array alone;
/// the report, the JSON and validate read every field.
enum class Breakdown {
  Keys, // kind, statement, array and seconds
  Full, // every field
};

class Estimator {
public:
  static Result<Estimator> build(const Program &p, EstimateOptions opts = {});

  /// The estimate with every term.
  Result<Estimate> evaluate(const Layout &l, const Machine &m,
                            Breakdown detail = Breakdown::Full) const;
  /// Only the predicted seconds (no breakdown kept): the solver's path.
  Result<double> seconds(const Layout &l, const Machine &m) const;
  /// The terms of one statement alone, in the time of that statement rather
  /// than the program's: the passes' quality measures compare two layouts on
  /// the statement a constraint comes from (thesis section 5.1.2).
  Result<Estimate> evaluateStatement(const Layout &l, const Machine &m,
                                     const std::string &statement,
                                     Breakdown detail = Breakdown::Full) const;
  /// The terms of several statements costed together, as they are in the
  /// program: their fetches coalesced, subsumed and bounded together
  /// (Coalescing.h, Subsumption.h, FetchBound.h). The exact optimiser's
  /// table for the statements of one nest that fetch the same array.
  Result<Estimate> evaluateStatements(const Layout &l, const Machine &m,
                                      const std::vector<std::string> &statements,
                                      Breakdown detail = Breakdown::Full) const;

  const EstimateOptions &options() const { return opts_; }
  /// How many parts of statements' costs were taken from earlier estimates
  /// (StatementCache.h) rather than computed again.
  size_t reusedParts() const { return cache_ ? cache_->hits() : 0; }
  const Program &program() const { return *program_; }
  /// What the estimates are computed from (ProgramAnalysis.h), analysed
  /// once by build().
  const cost::ProgramFacts &facts() const { return *facts_; }

private:
  /// `only`: cost these statements alone, in program order (null: every
  /// statement). No `detail`: the totals alone, no terms.
  Result<Estimate> run(const Layout &l, const Machine &m, std::optional<Breakdown> detail,
                       const std::vector<const cost::StatementFacts *> *only = nullptr) const;

  const Program *program_ = nullptr;
  std::shared_ptr<const cost::ProgramFacts> facts_;
  EstimateOptions opts_;
  /// The statements' costs under the layouts already estimated.
  std::shared_ptr<cost::StatementCache> cache_;
};

/// Estimator::build(p, opts) then evaluate(l, m).
Result<Estimate> estimate(const Program &p, const Layout &l, const Machine &m,
                          const EstimateOptions &opts = {});

/// Checks a layout against a program (and a processor count) without
/// estimating anything.
Status validateLayout(const Program &p, const Layout &l,
                      std::optional<int64_t> procs = std::nullopt);

} // namespace dlayout
