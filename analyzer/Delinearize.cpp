//===- analyzer/Delinearize.cpp -------------------------------------------===//
#include "analyzer/Delinearize.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace dlayout {

namespace {

/// The leading monomial of a stride: the one of highest degree, ties by
/// largest coefficient.
std::pair<Monomial, int64_t> leadingTerm(const Poly &p) {
  std::pair<Monomial, int64_t> best{{}, 0};
  for (auto &[m, c] : p.terms())
    if (m.size() > best.first.size() ||
        (m.size() == best.first.size() && std::llabs(c) > std::llabs(best.second)))
      best = {m, c};
  return best;
}

/// If `m` contains every symbol of `d` (as a multiset), m / d.
std::optional<Monomial> divideMonomial(const Monomial &m, const Monomial &d) {
  Monomial rest = m;
  for (auto &s : d) {
    auto it = std::find(rest.begin(), rest.end(), s);
    if (it == rest.end()) return std::nullopt;
    rest.erase(it);
  }
  return rest;
}

/// v as an int64_t; out of range (a cast would be undefined) it raises the
/// overflow flag, which fails the analysis.
int64_t toInt64(double v) {
  if (v > -9.2e18 && v < 9.2e18) return (int64_t)v;
  Poly::markOverflow();
  return 0;
}
int64_t floorDiv(double a, int64_t b) { return toInt64(std::floor(a / (double)b)); }

/// Splits `rest` into q*stride + r; returns q and leaves r in `rest`.
Poly splitOff(Poly &rest, const Poly &stride,
              const std::map<std::string, std::pair<double, double>> &ranges) {
  auto [lead, leadCoeff] = leadingTerm(stride);
  Poly q;
  // A zero stride (an extent of 0) divides nothing; the caller reports the
  // extent. INT64_MIN / -1 does not fit.
  if (leadCoeff == 0) return q;
  auto divisible = [&](int64_t c) { return !(leadCoeff == -1 && c == INT64_MIN); };
  if (!lead.empty()) {
    // Symbolic stride: exact division of the terms the leading monomial
    // divides, whatever their coefficient sign.
    for (auto &[m, c] : rest.terms()) {
      auto rm = divideMonomial(m, lead);
      if (!rm || !divisible(c) || c % leadCoeff != 0) continue;
      Poly t = Poly::constant(c / leadCoeff);
      for (auto &s : *rm) t = t * Poly::symbol(s);
      q = q + t;
    }
  } else {
    // Numeric stride: the whole multiples of the stride in each coefficient
    // go to this dimension; the constant goes where the remainder stays in
    // [0, stride) over `ranges`.
    int64_t s = leadCoeff;
    Poly symbolic;
    for (auto &[m, c] : rest.terms()) {
      if (m.empty() || !divisible(c)) continue;
      int64_t k = c / s; // a coefficient below the stride stays below
      if (k == 0) continue;
      Poly t = Poly::constant(k);
      for (auto &sym : m) t = t * Poly::symbol(sym);
      symbolic = symbolic + t;
    }
    Poly remainder = rest - symbolic * stride;
    int64_t k0;
    if (auto r = remainder.range(ranges))
      k0 = floorDiv(r->first, s);
    else
      k0 = toInt64(std::round((double)remainder.constantTerm() / (double)s));
    q = symbolic + Poly::constant(k0);
  }
  rest = rest - q * stride;
  return q;
}

} // namespace

std::vector<Poly>
delinearize(const Poly &offset, const std::vector<Poly> &extents,
            bool columnMajor,
            const std::map<std::string, std::pair<double, double>> &ranges) {
  size_t n = extents.size();
  std::vector<Poly> subs(n);
  if (n == 0) return subs;
  // order[0] is the fastest dimension.
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = columnMajor ? i : n - 1 - i;
  std::vector<Poly> stride(n);
  stride[0] = Poly::constant(1);
  for (size_t k = 1; k < n; ++k) stride[k] = stride[k - 1] * extents[order[k - 1]];

  Poly rest = offset;
  for (size_t k = n - 1; k >= 1; --k)
    subs[order[k]] = splitOff(rest, stride[k], ranges);
  subs[order[0]] = rest;
  return subs;
}

} // namespace dlayout
