//===- analyzer/Polynomial.h - Integer polynomials over symbols -*- C++ -*-===//
//
// The analyzer turns address arithmetic and loop bounds into polynomials with
// integer coefficients over named symbols, because that is the form in which
// delinearisation is exact: the offset (i-1) + (j-1)*NP2 of A(I,J) in an
// adjustable array is the polynomial I - 1 + J*NP2 - NP2, and dividing by the
// stride NP2 recovers the subscripts without guessing.
//
// Symbols are strings with a kind prefix:
//   "iv:L3"   the source induction variable of loop L3
//   "p:N"     the program parameter N
//   "?:text"  a value the analysis could not see through (non-affine)
// A Poly is affine when every monomial has degree <= 1 and no opaque symbol.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Program.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dlayout {

/// A product of symbols, sorted; the empty monomial is the constant 1.
using Monomial = std::vector<std::string>;

class Poly {
public:
  Poly() = default;
  static Poly constant(int64_t c);
  static Poly symbol(const std::string &s);

  Poly operator+(const Poly &o) const;
  Poly operator-(const Poly &o) const;
  Poly operator*(const Poly &o) const;
  Poly operator*(int64_t c) const;
  Poly operator-() const { return *this * -1; }
  bool operator==(const Poly &o) const { return terms_ == o.terms_; }

  const std::map<Monomial, int64_t> &terms() const { return terms_; }
  bool isZero() const { return terms_.empty(); }
  std::optional<int64_t> asConstant() const;
  int64_t constantTerm() const;
  unsigned degree() const;
  bool hasOpaque() const;
  bool mentions(const std::string &symbol) const;
  bool isAffine() const { return degree() <= 1 && !hasOpaque(); }

  /// The affine part: every degree-<=1 term over iv:/p: symbols.
  AffineExpr affinePart() const;
  /// Exact conversion; nullopt unless isAffine().
  std::optional<AffineExpr> toAffine() const;
  static Poly fromAffine(const AffineExpr &e);

  /// Replaces a symbol by a polynomial.
  Poly substitute(const std::string &symbol, const Poly &by) const;
  /// Value with every symbol bound; nullopt if one is missing.
  std::optional<double> evaluate(const std::map<std::string, double> &values) const;
  /// [min, max] over symbols ranging in the given intervals (interval
  /// arithmetic; exact for affine polynomials), nullopt if one is missing.
  std::optional<std::pair<double, double>>
  range(const std::map<std::string, std::pair<double, double>> &ranges) const;

  std::string str() const;

  /// Whether a coefficient overflowed int64_t on this thread since the last
  /// clearOverflow() (the result is then wrong; see Polynomial.cpp).
  static bool overflowed();
  static void clearOverflow();
  static void markOverflow();
  /// a + b and a * b, raising the overflow flag where they do not fit.
  static int64_t checkedAdd(int64_t a, int64_t b);
  static int64_t checkedMul(int64_t a, int64_t b);

private:
  void add(const Monomial &m, int64_t c);
  std::map<Monomial, int64_t> terms_;
};

std::string ivSymbol(const std::string &loopId);
std::string paramSymbol(const std::string &name);

} // namespace dlayout
