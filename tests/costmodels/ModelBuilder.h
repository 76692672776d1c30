//===- tests/costmodels/ModelBuilder.h - Hand-built program models -*- C++
//-*-===//
//
// Builds the small Program models of the thesis's figures in C++, the way
// the analyzer would describe them: loops with affine bounds, statements with
// their references (subscripts classified from their affine form), operation
// counts, and dependences with direction vectors.
//
//   ModelBuilder b;
//   b.param("N", 64);
//   b.array("A", {64, 64});
//   auto i = b.loop("I", b.c(1), b.p("N"));
//   b.stmt({i}, b.ref("A", {b.iv(i), b.c(3)}), {b.ref("B", {b.c(5),
//   b.iv(i)})});
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Layout.h"
#include "model/Program.h"

#include <string>
#include <vector>

namespace dlayout::test {

class ModelBuilder {
public:
  explicit ModelBuilder(std::string language = "fortran");

  void param(const std::string &name, int64_t value);
  void array(const std::string &name, std::vector<int64_t> extents,
             unsigned bytes = 8);

  // Affine expressions.
  AffineExpr c(int64_t v) const;
  AffineExpr p(const std::string &param, int64_t coeff = 1,
               int64_t constant = 0) const;
  AffineExpr iv(const std::string &loop, int64_t coeff = 1,
                int64_t constant = 0) const;

  /// A loop; returns its id. `parent` "" for a top-level loop.
  std::string loop(const std::string &var, AffineExpr lower, AffineExpr upper,
                   const std::string &parent = "", int64_t step = 1,
                   bool parallel = false);

  /// A subscript classified from its affine form (constant, single,
  /// multiple), with its variation level.
  Subscript sub(const AffineExpr &e) const;
  Subscript unknown(unsigned variationLevel, AffineExpr knownPart = {}) const;
  /// x(index): the value of another reference, e.g. B(IDX(I)).
  Subscript indirect(const Reference &index) const;
  Reference ref(const std::string &array, std::vector<AffineExpr> subs,
                Reference::Access a = Reference::Access::Read) const;
  Reference refOf(const std::string &array, std::vector<Subscript> subs) const;

  /// A statement writing `lhs` (an array element) and reading `rhs`.
  std::string stmt(std::vector<std::string> loops, Reference lhs,
                   std::vector<Reference> rhs, OpCounts ops = {},
                   std::string reduction = "");
  /// A reduction into a scalar.
  std::string scalarStmt(std::vector<std::string> loops,
                         const std::string &scalar, std::vector<Reference> rhs,
                         OpCounts ops, std::string reduction);
  void probability(const std::string &stmt, double rho);

  void dep(const std::string &from, const std::string &to, Dependence::Kind k,
           const std::string &var, const std::string &carriedBy,
           std::vector<std::string> dirs,
           std::vector<std::optional<int64_t>> dist = {});

  /// The program, with one phase per top-level loop.
  Program build() const;

private:
  unsigned levelOf(const std::string &loop) const;
  Program p_;
};

/// Layout helpers.
DimLayout block(int meshDim);
DimLayout cyclic(int meshDim);
DimLayout blockCyclic(int meshDim, int64_t b);
DimLayout collapsed();
DimLayout replicated(int meshDim = -1);
Layout
layout(std::vector<int64_t> mesh,
       std::vector<std::pair<std::string, std::vector<DimLayout>>> arrays);

} // namespace dlayout::test
