//===- analyzer/ProgramBuilder.h - IR to ProgramModel -----------*- C++ -*-===//
//
// Builds the ProgramModel of a canonicalised module (what the model *is* is
// model/Program.h; how it is *found* is here, as Polly's ScopBuilder is to
// ScopInfo). For each function analysed:
//   1. loops: LoopInfo's nests, induction variables, bounds as polynomials,
//      steps, expected trip counts (the mean over the enclosing iterations);
//   2. statements: every store to an array element or scalar variable, and
//      every assignment to a named floating-point (or array-derived) scalar
//      temporary; each with its value expression, operation counts, guards,
//      read references and the loops around it;
//   3. arrays: shapes from debug info, completed from the address arithmetic
//      where the declaration does not say (adjustable Fortran dummies, C
//      heap arrays); then every reference's subscripts by delinearisation,
//      classified as thesis §3.1 does;
//   4. reductions into scalars (a header phi updated by an associative
//      operator) and into array elements.
// Dependences and parallel loops are added by analyzer/Dependences.h.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Program.h"

#include "llvm/IR/Module.h"

#include <map>
#include <set>
#include <string>

namespace dlayout {

struct BuildOptions {
  bool fortran = false;
  /// Functions to analyse; empty = every function defined in the module.
  std::set<std::string> functions;
  /// Values of parameters (case-insensitive for Fortran).
  std::map<std::string, int64_t> params;
  /// Reaching probability of the statements on a source line.
  std::map<unsigned, double> probabilities;
  /// Expected trip count of the loop starting on a source line, for loops
  /// whose bounds are not affine.
  std::map<unsigned, double> tripCounts;
  /// Loop variable names by function and source line (loopVariablesByLine).
  std::map<std::string, std::map<unsigned, std::string>> loopVariables;
  /// Assumed value of a parameter that has none.
  int64_t defaultParam = 100;
  /// Assumed trip count of a loop whose bounds are not affine.
  double defaultTripCount = 10;
};

/// Builds the model of `M`. Fails only when there is nothing to analyse
/// (no function, or none of the requested ones); what could not be analysed
/// is reported in Program::warnings.
Result<Program> buildProgram(llvm::Module &M, const BuildOptions &opts);

} // namespace dlayout
