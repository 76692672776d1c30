//===- analyzer/ExprMake.h - Building the model's expressions ---*- C++ -*-===//
//
// Private to the analyzer: the three shapes of model::Expr it builds, an
// operator over arguments, a leaf (scalar, parameter, loop index) and a
// number.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Program.h"

#include <string>
#include <vector>

namespace dlayout::exprs {

inline Expr op(std::string name, std::vector<Expr> args) {
  Expr e;
  e.kind = Expr::Kind::Op;
  e.name = std::move(name);
  e.args = std::move(args);
  return e;
}

inline Expr leaf(Expr::Kind k, std::string name, double value = 0) {
  Expr e;
  e.kind = k;
  e.name = std::move(name);
  e.value = value;
  return e;
}

inline Expr constant(double v) {
  Expr e;
  e.kind = Expr::Kind::Const;
  e.value = v;
  return e;
}

} // namespace dlayout::exprs
