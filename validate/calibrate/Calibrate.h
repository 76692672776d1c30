//===- validate/calibrate/Calibrate.h - A machine model from measurements -*- C++ -*-===//
//
// calibrate(base, options) measures a machine and returns a complete
// "dlayout-machine/1" model of it (issue 7, `dlayout calibrate`):
//
//   1. runProbe (Probe.h) on the backend: ping-pong times at 1 B ... 4 MiB,
//      the collectives, the operation kernels (real ranks) or the flop rate
//      (SimGrid, on the platform generated from options.platform, else from
//      the base machine);
//   2. Transfer(m): segmented weighted least squares (Fit.h); when it finds
//      more than one piece, a second, ping-pong-only job measures the sizes
//      between the pieces and the same number of pieces is fitted again to
//      all points, which places each break-point to the byte where sizes are
//      dense enough;
//   3. collectives: the Table 6.1 algorithm closest to each measured MPI
//      collective under the fitted Transfer (CollectiveChoice.h);
//   4. operations: real ranks - the kernels' seconds per load, store, add,
//      mul, div, intrinsic, compare, and flops = 2 / (add + mul); SimGrid -
//      the simulated machine's operation costs, because they are what the
//      executor charges there (smpi_execute_flops of the instances'
//      operation times at the platform's rate, docs/validate.md): a simulated
//      platform has no operation times of its own, only a flop rate, which
//      is measured (flops);
//   5. topology, gray_code and per_hop come from the base machine (not
//      measured); "sources" says what was measured, how, and the fit errors.
// The machine is written with the project's writer and read back with its
// reader (parseMachine, which verifies it) before it is returned: what the
// caller writes out is a document dlayout accepts.
// Library code: errors returned, nothing printed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Machine.h"
#include "model/Result.h"
#include "validate/calibrate/CollectiveChoice.h"
#include "validate/calibrate/Fit.h"
#include "validate/calibrate/Probe.h"

#include <optional>
#include <string>
#include <vector>

namespace dlayout::calibrate {

struct CalibrateOptions {
  ProbeOptions probe; // backend, procs, launcher, time limit per job
  /// SimGrid: the machine whose generated platform is measured, where it is
  /// not the base (unset: the base's); an Error with the mpi backend.
  std::optional<Machine> platform;
  bool refine = true; // measure between the pieces and refit
  std::string date;   // for "sources" ("" = today, UTC)
};

struct Calibration {
  Machine machine;         // verified
  std::string machineText; // its "dlayout-machine/1" document, as read back
  std::string base;        // the base machine's name
  std::string platform;    // SimGrid: the simulated machine's name
  ProbeResult probe;       // ping-pong points of every job, sorted by size
  PiecewiseFit transfer;
  size_t refinementPoints = 0;
  std::vector<CollectiveChoice> collectives;
  double wallSeconds = 0;  // the jobs, launchers included
};

Result<Calibration> calibrate(const Machine &base, const CalibrateOptions &o);

} // namespace dlayout::calibrate
