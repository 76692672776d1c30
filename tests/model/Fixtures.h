//===- tests/model/Fixtures.h - Rich models for the model tests -*- C++ -*-===//
//
// A Program, a Layout and Machines that between them use every kind and
// field of the data model, and pass verify(). The round-trip tests and the
// example writer (tools/write_examples.cpp, whose output the schema tests
// validate) share them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Layout.h"
#include "model/Machine.h"
#include "model/Program.h"

namespace dlayout::testing {

/// Four statements in three phases: a 2-deep nest with max/min bounds and
/// single/multiple subscripts, a scalar sum reduction through an indirect
/// subscript, a guarded statement with an unknown subscript under a
/// non-affine, negative-step loop, and a statement outside any loop.
Program richProgram();

/// A 4 x 2 mesh with every distribution kind, offsets and overlaps; its
/// arrays are those of richProgram().
Layout richLayout();

/// The iPSC/2 of Gupta's thesis, section 6.1 and Table 6.1.
Machine ipsc2();

/// An expression that reads the scalar `name`.
inline Expr scalarRead(const std::string &name) {
  Expr e;
  e.kind = Expr::Kind::Scalar;
  e.name = name;
  return e;
}

} // namespace dlayout::testing
