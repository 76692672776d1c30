//===- validate/calibrate/CollectiveChoice.cpp - Which algorithm fits a collective ===//
#include "validate/calibrate/CollectiveChoice.h"

#include "costmodels/Primitives.h"

#include <cmath>
#include <limits>

namespace dlayout::calibrate {

namespace {

Primitive primitiveOf(const std::string &name) {
  if (name == "shift") return Primitive::Shift;
  if (name == "reduction") return Primitive::Reduction;
  if (name == "one_to_many_multicast") return Primitive::OneToManyMulticast;
  if (name == "many_to_many_multicast") return Primitive::ManyToManyMulticast;
  if (name == "scatter") return Primitive::Scatter;
  return Primitive::Gather;
}

/// RMS of log(measured / predicted) over the sizes of one primitive.
double logError(const std::vector<double> &measured, const std::vector<double> &predicted) {
  double s = 0;
  size_t n = 0;
  for (size_t i = 0; i < measured.size(); ++i) {
    if (!(measured[i] > 0) || !(predicted[i] > 0)) continue;
    double r = std::log(measured[i] / predicted[i]);
    s += r * r;
    ++n;
  }
  return n ? std::sqrt(s / double(n)) : std::numeric_limits<double>::infinity();
}

} // namespace

CollectiveAlgorithm defaultAlgorithm(const std::string &primitive) {
  if (primitive == "shift") return CollectiveAlgorithm::Exchange;
  if (primitive == "many_to_many_multicast") return CollectiveAlgorithm::Ring;
  if (primitive == "scatter" || primitive == "gather") return CollectiveAlgorithm::Linear;
  return CollectiveAlgorithm::Tree; // reduction, one_to_many_multicast
}

std::vector<CollectiveChoice> chooseCollectives(Machine &m, int64_t procs,
                                                const std::vector<CollectivePoint> &points) {
  std::vector<CollectiveChoice> out;
  for (const std::string &name : collectivePrimitives()) { // shift comes first
    CollectiveChoice c;
    c.primitive = name;
    for (const auto &p : points)
      if (p.primitive == name && p.seconds > 0) {
        c.call = p.call;
        c.bytes.push_back(p.bytes);
        c.measured.push_back(p.seconds);
      }
    if (c.bytes.empty()) continue;
    const CollectiveAlgorithm fallback = defaultAlgorithm(name);
    std::vector<CollectiveAlgorithm> candidates = {fallback};
    // Shift knows two costs only: 2 Transfers (exchange) or 1 (written "ring").
    for (auto a : name == "shift" ? std::vector<CollectiveAlgorithm>{CollectiveAlgorithm::Ring}
                                  : std::vector<CollectiveAlgorithm>{
                                        CollectiveAlgorithm::Tree, CollectiveAlgorithm::Linear,
                                        CollectiveAlgorithm::Exchange, CollectiveAlgorithm::Ring})
      if (a != fallback) candidates.push_back(a);
    double best = std::numeric_limits<double>::infinity();
    for (auto a : candidates) {
      Machine trial = m;
      trial.collectives[name] = a;
      PrimitiveCosts costs(trial);
      std::vector<double> predicted;
      for (double bytes : c.bytes) predicted.push_back(costs.cost(primitiveOf(name), bytes, procs));
      double e = logError(c.measured, predicted);
      c.candidates.push_back({a, e});
      // Strictly better (beyond rounding) to leave Table 6.1's choice.
      if (e < best * (1 - 1e-9)) {
        best = e;
        c.algorithm = a;
        c.rmsLogError = e;
        c.predicted = predicted;
      }
    }
    if (!std::isfinite(best)) continue; // nothing comparable: keep the machine's
    m.collectives[name] = c.algorithm;
    out.push_back(std::move(c));
  }
  return out;
}

} // namespace dlayout::calibrate
