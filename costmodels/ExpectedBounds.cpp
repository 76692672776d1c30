//===- costmodels/ExpectedBounds.cpp - Loop bounds at expected values ----===//

#include "costmodels/ExpectedBounds.h"

#include <algorithm>
#include <cmath>

namespace dlayout::cost {
namespace detail {

Error unboundParameter(const std::string &name, const SourceLoc &loc) {
  return makeError("parameter " + name + " has no value (give it with --param " + name + "=V)",
                   loc);
}

LoopValue spanOf(double lo, double hi, int64_t signedStep) {
  LoopValue v;
  v.step = signedStep == 0 ? 1 : std::abs(signedStep);
  double first = lo, last = hi;
  if (signedStep < 0 && first < last)
    std::swap(first, last); // bounds stored low..high for a down-count
  double span = signedStep < 0 ? first - last : last - first;
  v.trips = span >= 0 ? std::floor(span / double(v.step)) + 1 : 0;
  v.range = std::max(span + double(v.step), 0.0); // r_l = f - i + s
  v.first = first;
  // The expected index value is the mean of the bounds, in integer
  // arithmetic: for DO I = 1, N it is (N+1)/2, which makes the range of
  // DO J = 1, I the ceil(N/2) of section 5.2.2.
  v.expected = std::floor((lo + hi) / 2);
  v.evaluated = true;
  return v;
}

std::vector<BoundForm> boundForms(const Bound &b, const Program &p,
                                  const std::map<std::string, int> &positions) {
  std::vector<BoundForm> out;
  if (b.kind == Bound::Kind::NonAffine)
    return out;
  for (const AffineExpr &e : b.terms) {
    BoundForm f;
    f.constant = double(e.constant);
    for (const auto &[name, c] : e.params) {
      auto it = p.params.find(name);
      if (it == p.params.end())
        return {};
      f.constant += double(c) * double(it->second);
    }
    for (const auto &[loop, c] : e.coeffs) {
      auto it = positions.find(loop);
      if (it == positions.end())
        return {};
      f.terms.push_back({it->second, c});
    }
    out.push_back(std::move(f));
  }
  return out;
}

Result<LoopValue> LoopTable::get(const std::string &id) {
  if (auto it = done_.find(id); it != done_.end())
    return it->second;
  const Loop *l = p_.findLoop(id);
  if (!l)
    return makeError("no loop " + id);
  if (!active_.insert(id).second)
    return makeError("loop " + id + ": its bounds depend on themselves",
                     l->loc);
  auto v = compute(*l);
  active_.erase(id);
  if (!v)
    return v;
  done_[id] = *v;
  return v;
}

Result<double> LoopTable::value(const AffineExpr &e, const SourceLoc &loc) {
  double v = double(e.constant);
  for (const auto &[name, c] : e.params) {
    auto it = p_.params.find(name);
    if (it == p_.params.end())
      return unboundParameter(name, loc);
    v += double(c) * double(it->second);
  }
  for (const auto &[loop, c] : e.coeffs) {
    auto lv = get(loop);
    if (!lv)
      return lv.error();
    v += double(c) * lv->expected;
  }
  return v;
}

std::optional<double> LoopTable::bound(const Bound &b, const SourceLoc &loc,
                                       std::optional<Error> &err) {
  if (b.kind == Bound::Kind::NonAffine || b.terms.empty())
    return std::nullopt;
  std::optional<double> out;
  for (const auto &t : b.terms) {
    auto v = value(t, loc);
    if (!v) {
      err = v.error();
      return std::nullopt;
    }
    if (!out)
      out = *v;
    else if (b.kind == Bound::Kind::Max)
      out = std::max(*out, *v);
    else
      out = std::min(*out, *v); // Min (Affine has one term)
  }
  return out;
}

Result<LoopValue> LoopTable::compute(const Loop &l) {
  LoopValue v;
  v.step = l.step == 0 ? 1 : std::abs(l.step);
  std::optional<Error> err;
  auto lo = bound(l.lower, l.loc, err);
  if (err)
    return *err;
  auto hi = bound(l.upper, l.loc, err);
  if (err)
    return *err;
  if (lo && hi)
    return spanOf(*lo, *hi, l.step);
  // Bounds the analysis could not express: the expected trip count the
  // model records (from the user, profiling or the analyzer).
  v.trips = std::max(l.tripCount, 0.0);
  v.range = v.trips * double(v.step);
  double start = lo ? *lo : (hi ? *hi - (v.trips - 1) * double(l.step) : 0);
  v.first = start;
  v.expected = std::floor(start + (v.trips - 1) * double(l.step) / 2);
  if (l.tripCount <= 0)
    warnings.push_back({"trip-count",
                        "loop " + l.id + " (" + l.var +
                            "): bounds are not affine and no trip count is "
                            "known; assumed to run 0 times",
                        l.loc});
  return v;
}

} // namespace detail

bool LoopFacts::boundsVaryWith(int pos) const {
  for (const auto *forms : {&lower, &upper})
    for (const BoundForm &f : *forms)
      for (const auto &[q, alpha] : f.terms)
        if (q == pos && alpha != 0)
          return true;
  return false;
}

bool LoopFacts::moveTo(const std::vector<int64_t> &index) {
  if (!loop || lower.empty() || upper.empty())
    return false;
  auto value = [&](const std::vector<BoundForm> &forms, bool isMax) {
    double out = 0;
    for (size_t i = 0; i < forms.size(); ++i) {
      double v = forms[i].constant;
      for (const auto &[q, alpha] : forms[i].terms)
        v += double(alpha) * double(index[size_t(q)]);
      out = i == 0 ? v : isMax ? std::max(out, v) : std::min(out, v);
    }
    return out;
  };
  detail::LoopValue v = detail::spanOf(value(lower, lowerMax), value(upper, upperMax), loop->step);
  trips = v.trips;
  range = v.range;
  first = v.first;
  return true;
}

} // namespace dlayout::cost
