//===- tests/costmodels/Helpers.h - Shared test helpers ---------*- C++ -*-===//
#pragma once

#include "ModelBuilder.h"
#include "costmodels/Estimate.h"
#include "costmodels/MachinePresets.h"

#include <gtest/gtest.h>

#include <cmath>

namespace dlayout::test {

/// Section 6.1.2, in seconds: Transfer(m bytes) on the iPSC/2.
inline double T(double bytes) {
  if (bytes <= 0)
    return 0;
  return (bytes < 100 ? 350 + 0.15 * bytes : 700 + 0.36 * bytes) * 1e-6;
}
inline double ceilLog2(double p) { return std::ceil(std::log2(p)); }
inline double ceilDiv(double a, double b) { return std::ceil(a / b); }

inline Machine ipsc2() { return *machinePreset("ipsc2"); }

inline Estimate run(const Program &p, const Layout &l, EstimateOptions o = {}) {
  auto e = estimate(p, l, ipsc2(), o);
  EXPECT_TRUE(e.ok()) << (e ? "" : e.error().str());
  return e ? *e : Estimate{};
}

/// The communication terms of one statement (and rhs array, if given).
inline std::vector<EstimateTerm> comm(const Estimate &e,
                                      const std::string &stmt,
                                      const std::string &array = "") {
  std::vector<EstimateTerm> out;
  for (const auto &t : e.terms)
    if (t.kind == EstimateTerm::Kind::Communication && t.statement == stmt &&
        (array.empty() || t.array == array))
      out.push_back(t);
  return out;
}

inline double commSeconds(const Estimate &e, const std::string &stmt,
                          const std::string &array = "") {
  double s = 0;
  for (const auto &t : comm(e, stmt, array))
    s += t.seconds;
  return s;
}

inline const EstimateTerm *computation(const Estimate &e,
                                       const std::string &stmt) {
  for (const auto &t : e.terms)
    if (t.kind == EstimateTerm::Kind::Computation && t.statement == stmt)
      return &t;
  return nullptr;
}

} // namespace dlayout::test
