//===- validate/Validate.h - Run layouts and set them beside predictions -*- C++ -*-===//
//
// validateLayouts(program, machine, layouts, options) runs the program under
// each layout with the executor (validate/executor) on `procs` ranks - under
// smpirun on a platform generated from the machine (Platform.h), or under
// mpirun - and sets each measurement beside the estimator's prediction with
// that machine. Under SimGrid the simulated machine may be another one
// (ValidateOptions::platform): a model checked against a machine it does
// not describe, or a calibrated model against the platform it was measured
// on (docs/calibrate.md).
//   1. every layout is checked against the program and P first
//      (validateLayout); one that does not fit is an Error before anything runs;
//   2. per layout, a private run directory (mkdtemp, mode 0700) receives the
//      model, layout, plan (PlacementPlan.h), machine and platform documents;
//      the launcher runs from an argument vector with a time limit (default:
//      120 s + 10 x the predicted seconds, Launch.h); a launcher that cannot
//      be started, or a job that dies, hangs, fails (an MPI error, a platform
//      SimGrid refuses) or writes no result is an Error naming the layout and
//      what failed (the executor's own error line when it printed one) -
//      nothing is reported as measured that was not;
//   3. the result ("dlayout-execution/1") is read back; the Spearman rank
//      correlation of predicted and measured seconds over the runs, and the
//      recommended layout's measured time over the best measured one, are
//      computed when there are at least two runs.
// Bytes are per processor: the most any rank sent (measured) and the
// estimator's bytes sent by one processor of each primitive (predicted).
// Library code: progress goes through a callback, nothing printed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/Estimate.h"
#include "model/Layout.h"
#include "model/Machine.h"
#include "model/Program.h"
#include "model/Result.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dlayout::validate {

struct LayoutCase {
  std::string name;
  Layout layout;
  bool recommended = false;
};

enum class Backend { SimGrid, Mpi };

struct ValidateOptions {
  int64_t procs = 1;
  Backend backend = Backend::SimGrid;
  std::string executorDir; // holds dlayout-exec-simgrid and dlayout-exec-mpi
  std::string smpirun = "smpirun", mpirun = "mpirun";
  std::vector<std::string> mpirunArgs; // e.g. --hostfile FILE, --oversubscribe
  uint64_t seed = 1;
  double timeoutSeconds = 0; // 0: scaled to the prediction
  EstimateOptions estimate;
  /// SimGrid: the machine simulated - the platform is generated from it, its
  /// topology embeds the mesh and its operation times are what the executor
  /// charges - where it is not the machine that predicts (unset: the same).
  std::optional<Machine> platform;
  // Testing (DLAYOUT_VALIDATE_FAULT): "kill:R", "hang:R", "mpierror:R" go to
  // the executor (rank R dies, sleeps forever, makes an erroneous MPI call);
  // "platform" (simgrid) writes a platform file SimGrid must refuse.
  std::string fault;
  bool keepRunDirectories = false;
  std::function<void(size_t index, size_t count, const std::string &name)> progress;
};

struct LayoutRun {
  std::string name;
  Layout layout;
  bool recommended = false;
  double predictedSeconds = 0, predictedBytes = 0, predictedMessages = 0;
  double measuredSeconds = 0;
  int64_t messages = 0, bytes = 0, totalBytes = 0; // bytes: the busiest rank's
  int64_t busiestMessages = 0;                     // the busiest rank's messages sent
  int refinements = 0;
  bool correct = false;
  /// Where not correct, why: "array Z: 3 of 256 elements differ (max
  /// relative difference 0.01)", "scalar G differs", "5 reads of elements
  /// never fetched".
  std::vector<std::string> discrepancies;
  std::vector<std::string> skippedPhases; // "P2: reason"
  nlohmann::json execution;               // the executor's document
};

struct ValidationReport {
  std::string backend, machine;
  std::string platform; // simgrid: the simulated machine's name (ValidateOptions::platform)
  int64_t procs = 0;
  std::vector<LayoutRun> runs;
  std::optional<double> spearman;
  std::optional<double> recommendedOverBest;
};

Result<ValidationReport> validateLayouts(const Program &p, const Machine &m,
                                         const std::vector<LayoutCase> &layouts,
                                         const ValidateOptions &o);

/// Spearman's rank correlation (average ranks for ties); nullopt for fewer
/// than two values or a constant series.
std::optional<double> spearman(const std::vector<double> &a, const std::vector<double> &b);

/// The baselines a user would otherwise pick: 1-D BLOCK of every array on
/// each dimension (arrays of lower rank collapsed), and BLOCK x BLOCK on the
/// MPI_Dims_create-like 2-D mesh of P for 2-D arrays.
std::vector<LayoutCase> baselineLayouts(const Program &p, int64_t procs);

/// "dlayout-validation/1" (docs/schema/validation.json).
nlohmann::json toJson(const ValidationReport &r);

} // namespace dlayout::validate
