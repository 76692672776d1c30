//===- cli/ModelText.h - The program model as text for people ---*- C++ -*-===//
//
// `dlayout extract --format text`: the arrays with their shapes, the loop
// nests as an indented tree with each statement, its references and the
// class of every subscript, the dependences and the warnings.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Program.h"

#include <string>

namespace dlayout::cli {

/// A reference in source form: A(I - 1, J), X(COL(K)).
std::string renderReference(const Reference &r, const Program &p);
/// A statement's value expression in source form.
std::string renderExpr(const Expr &e, const Statement &s, const Program &p);
std::string renderModel(const Program &p);

} // namespace dlayout::cli
