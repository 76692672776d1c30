//===- validate/calibrate/CollectiveChoice.h - Which algorithm fits a collective -*- C++ -*-===//
//
// The machine model has no free number per collective: each primitive's cost
// is an algorithm over Transfer(m) (model/Machine.h, costmodels/Primitives.h,
// thesis Table 6.1): tree ceil(log2 p) Transfer(m), linear (p - 1)
// Transfer(m), ring (p - 1) Shift(m), exchange 2 ceil(log2 p) Transfer(m);
// Shift itself is 2 Transfer(m) with "exchange" (the iPSC/2's one-way links)
// and 1 Transfer(m) with anything else (send and receive overlap). So what a
// calibration can set is the algorithm: for each primitive measured, the one
// whose cost on the calibrated machine (fitted Transfer, p = the ranks the
// collective ran on) is closest to the measured times, by the RMS of
// log(measured / predicted) over the sizes. Ties (on 2 ranks tree and linear
// both cost one Transfer) keep Table 6.1's algorithm, else the first of
// tree, linear, exchange, ring. Shift is chosen first, since ring costs are
// in Shifts. Pure arithmetic; no I/O.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Machine.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dlayout::calibrate {

struct CollectivePoint {
  std::string primitive; // a name of collectivePrimitives()
  std::string call;      // the MPI call measured
  double bytes = 0, seconds = 0;
};

struct CollectiveChoice {
  std::string primitive, call;
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::Tree;
  double rmsLogError = 0; // of the chosen algorithm
  std::vector<std::pair<CollectiveAlgorithm, double>> candidates; // each one's error
  std::vector<double> bytes, measured, predicted; // predicted: the chosen algorithm
};

/// Table 6.1's algorithm for a primitive (what Primitives.h assumes when the
/// machine names none).
CollectiveAlgorithm defaultAlgorithm(const std::string &primitive);

/// Sets m.collectives[primitive] for every primitive with a measured time
/// above 0, and says why. Primitives not measured keep what m had.
std::vector<CollectiveChoice> chooseCollectives(Machine &m, int64_t procs,
                                                const std::vector<CollectivePoint> &points);

} // namespace dlayout::calibrate
