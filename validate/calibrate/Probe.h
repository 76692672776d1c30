//===- validate/calibrate/Probe.h - Running the calibration probe -*- C++ -*-===//
//
// runProbe(machine, options) runs the measuring program
// (validate/calibrate/probe.cpp) on `procs` ranks and reads back what it
// measured ("dlayout-calibration-probe/1"):
//   - backend simgrid: dlayout-calibrate-simgrid under smpirun on the
//     platform `dlayout validate` generates from the machine
//     (validate/Platform.h: same XML, hostfile and --cfg settings);
//   - backend mpi: dlayout-calibrate-mpi under mpirun with the given
//     arguments (--oversubscribe, --hostfile ...).
// Like validate (Validate.h), the job runs in a private directory (mkdtemp,
// mode 0700) from an argument vector, never a shell, with a time limit
// (Launch.h); a job that fails, hangs or writes nothing readable is an
// Error - nothing is reported as measured that was not.
// Library code: errors returned, nothing printed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Machine.h"
#include "model/Result.h"
#include "validate/Validate.h"
#include "validate/calibrate/CollectiveChoice.h"
#include "validate/calibrate/Fit.h"

#include <map>
#include <string>
#include <vector>

namespace dlayout::calibrate {

struct ProbeOptions {
  validate::Backend backend = validate::Backend::SimGrid;
  int procs = 2;
  std::string probeDir; // holds dlayout-calibrate-simgrid and dlayout-calibrate-mpi
  std::string smpirun = "smpirun", mpirun = "mpirun";
  std::vector<std::string> mpirunArgs;
  double timeoutSeconds = 300;
  std::vector<long> sizes, collectiveSizes; // empty: the probe's own lists
  bool collectives = true, compute = true;
  bool grayRing = false; // shift between Gray-code neighbours (hypercubes)
};

struct ProbeResult {
  int procs = 0;
  bool simgrid = false;
  std::vector<std::string> hosts; // rank r ran on hosts[r]
  double wtick = 0;
  std::vector<SizeTime> pingpong;       // one-way seconds (fastest batch)
  std::vector<double> pingpongMedian;   // the median batch, beside it
  std::vector<CollectivePoint> collectives;
  std::map<std::string, double> ops;    // real ranks: seconds per operation
  double flopsPerSecond = 0;            // SimGrid: the platform's rate
  std::map<std::string, double> sectionSeconds;
  double wallSeconds = 0;               // the whole job, launcher included
};

/// `machine` is the platform's model (SimGrid) and only named in errors
/// otherwise.
Result<ProbeResult> runProbe(const Machine &machine, const ProbeOptions &o);

} // namespace dlayout::calibrate
