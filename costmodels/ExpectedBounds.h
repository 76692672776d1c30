//===- costmodels/ExpectedBounds.h - Loop bounds at expected values -*- C++ -*-===//
//
// Section 3.1, Fig. 3.2: a loop whose bounds name enclosing indices is
// evaluated with each of them at its expected value, the mean of its
// bounds in integer arithmetic (DO I = 1, N: (N+1)/2, which makes the
// range of DO J = 1, I the ceil(N/2) of section 5.2.2). LoopTable gives
// every loop's trip count, range r_l = f - i + s, first and expected index
// so, each computed once; a bound it cannot express takes the trip count
// the model records. boundForms keeps a bound's affine forms over the
// enclosing loops' positions, for LoopFacts::moveTo to re-evaluate it at
// given indices (OuterSamples.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/ProgramAnalysis.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace dlayout::cost::detail {

struct LoopValue {
  double trips = 0, range = 0, expected = 0, first = 0;
  int64_t step = 1;
  bool evaluated = false;
};

/// The error of a parameter `name` that has no value.
Error unboundParameter(const std::string &name, const SourceLoc &loc);

/// A loop from bound lo to bound hi by signedStep.
LoopValue spanOf(double lo, double hi, int64_t signedStep);

/// A bound's forms over the loop positions `positions` names (the loops
/// enclosing it), parameters bound; empty where it is not affine in them.
std::vector<BoundForm> boundForms(const Bound &b, const Program &p,
                                  const std::map<std::string, int> &positions);

/// Every loop's value at the expected indices of the loops it names.
class LoopTable {
public:
  explicit LoopTable(const Program &p) : p_(p) {}

  /// An error where the loop is unknown, its bounds depend on themselves
  /// or name a parameter without a value.
  Result<LoopValue> get(const std::string &id);

  /// An affine expression with parameters bound and loop indices at their
  /// expected values.
  Result<double> value(const AffineExpr &e, const SourceLoc &loc);

  std::vector<Warning> warnings;

private:
  std::optional<double> bound(const Bound &b, const SourceLoc &loc, std::optional<Error> &err);
  Result<LoopValue> compute(const Loop &l);

  const Program &p_;
  std::map<std::string, LoopValue> done_;
  std::set<std::string> active_;
};

} // namespace dlayout::cost::detail
