//===- analyzer/Polynomial.cpp --------------------------------------------===//
#include "analyzer/Polynomial.h"

#include <algorithm>
#include <cmath>

namespace dlayout {

std::string ivSymbol(const std::string &loopId) { return "iv:" + loopId; }
std::string paramSymbol(const std::string &name) { return "p:" + name; }

static bool isOpaque(const std::string &s) { return s.rfind("?:", 0) == 0; }

// Coefficients are int64_t: a product or sum that does not fit wraps (as
// unsigned arithmetic, never undefined) and raises this flag, which the
// analysis checks once it is done (extractModule) and reports as an error.
static thread_local bool overflowFlag = false;
bool Poly::overflowed() { return overflowFlag; }
void Poly::clearOverflow() { overflowFlag = false; }
void Poly::markOverflow() { overflowFlag = true; }

int64_t Poly::checkedAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) {
    overflowFlag = true;
    r = int64_t(uint64_t(a) + uint64_t(b));
  }
  return r;
}

int64_t Poly::checkedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) {
    overflowFlag = true;
    r = int64_t(uint64_t(a) * uint64_t(b));
  }
  return r;
}

Poly Poly::constant(int64_t c) {
  Poly p;
  p.add({}, c);
  return p;
}

Poly Poly::symbol(const std::string &s) {
  Poly p;
  p.add({s}, 1);
  return p;
}

void Poly::add(const Monomial &m, int64_t c) {
  if (c == 0) return;
  auto &slot = terms_[m];
  slot = checkedAdd(slot, c);
  if (slot == 0) terms_.erase(m);
}

Poly Poly::operator+(const Poly &o) const {
  Poly r = *this;
  for (auto &[m, c] : o.terms_) r.add(m, c);
  return r;
}

Poly Poly::operator-(const Poly &o) const { return *this + (-o); }

Poly Poly::operator*(int64_t k) const {
  Poly r;
  for (auto &[m, c] : terms_) r.add(m, checkedMul(c, k));
  return r;
}

Poly Poly::operator*(const Poly &o) const {
  Poly r;
  for (auto &[m1, c1] : terms_)
    for (auto &[m2, c2] : o.terms_) {
      Monomial m = m1;
      m.insert(m.end(), m2.begin(), m2.end());
      std::sort(m.begin(), m.end());
      r.add(m, checkedMul(c1, c2));
    }
  return r;
}

std::optional<int64_t> Poly::asConstant() const {
  if (terms_.empty()) return 0;
  if (terms_.size() == 1 && terms_.begin()->first.empty())
    return terms_.begin()->second;
  return std::nullopt;
}

int64_t Poly::constantTerm() const {
  auto it = terms_.find({});
  return it == terms_.end() ? 0 : it->second;
}

unsigned Poly::degree() const {
  unsigned d = 0;
  for (auto &[m, c] : terms_) d = std::max<unsigned>(d, m.size());
  return d;
}

bool Poly::hasOpaque() const {
  for (auto &[m, c] : terms_)
    for (auto &s : m)
      if (isOpaque(s)) return true;
  return false;
}

bool Poly::mentions(const std::string &symbol) const {
  for (auto &[m, c] : terms_)
    if (std::find(m.begin(), m.end(), symbol) != m.end()) return true;
  return false;
}

AffineExpr Poly::affinePart() const {
  AffineExpr e;
  for (auto &[m, c] : terms_) {
    if (m.empty()) e.constant = c;
    else if (m.size() == 1 && m[0].rfind("iv:", 0) == 0) e.coeffs[m[0].substr(3)] = c;
    else if (m.size() == 1 && m[0].rfind("p:", 0) == 0) e.params[m[0].substr(2)] = c;
  }
  return e;
}

std::optional<AffineExpr> Poly::toAffine() const {
  if (!isAffine()) return std::nullopt;
  return affinePart();
}

Poly Poly::fromAffine(const AffineExpr &e) {
  Poly p = constant(e.constant);
  for (auto &[l, c] : e.coeffs) p = p + symbol(ivSymbol(l)) * c;
  for (auto &[n, c] : e.params) p = p + symbol(paramSymbol(n)) * c;
  return p;
}

Poly Poly::substitute(const std::string &symbol, const Poly &by) const {
  Poly r;
  for (auto &[m, c] : terms_) {
    Poly term = constant(c);
    for (auto &s : m) term = term * (s == symbol ? by : Poly::symbol(s));
    r = r + term;
  }
  return r;
}

std::optional<double>
Poly::evaluate(const std::map<std::string, double> &values) const {
  double v = 0;
  for (auto &[m, c] : terms_) {
    double t = c;
    for (auto &s : m) {
      auto it = values.find(s);
      if (it == values.end()) return std::nullopt;
      t *= it->second;
    }
    v += t;
  }
  return v;
}

std::optional<std::pair<double, double>> Poly::range(
    const std::map<std::string, std::pair<double, double>> &ranges) const {
  double lo = 0, hi = 0;
  for (auto &[m, c] : terms_) {
    double tlo = c, thi = c;
    for (auto &s : m) {
      auto it = ranges.find(s);
      if (it == ranges.end()) return std::nullopt;
      auto [a, b] = it->second;
      double cands[] = {tlo * a, tlo * b, thi * a, thi * b};
      tlo = *std::min_element(std::begin(cands), std::end(cands));
      thi = *std::max_element(std::begin(cands), std::end(cands));
    }
    lo += tlo;
    hi += thi;
  }
  return std::make_pair(lo, hi);
}

std::string Poly::str() const {
  if (terms_.empty()) return "0";
  std::string s;
  // Highest degree first, the constant last.
  std::vector<std::pair<Monomial, int64_t>> ts(terms_.begin(), terms_.end());
  std::stable_sort(ts.begin(), ts.end(), [](auto &a, auto &b) {
    return a.first.size() > b.first.size();
  });
  for (auto &[m, c] : ts) {
    uint64_t a = c < 0 ? 0 - uint64_t(c) : uint64_t(c); // |INT64_MIN| too
    if (s.empty()) { if (c < 0) s += "-"; }
    else s += c < 0 ? " - " : " + ";
    std::string body;
    for (auto &sym : m) body += (body.empty() ? "" : "*") + sym.substr(sym.find(':') + 1);
    if (body.empty()) s += std::to_string(a);
    else s += (a == 1 ? "" : std::to_string(a) + "*") + body;
  }
  return s;
}

} // namespace dlayout
