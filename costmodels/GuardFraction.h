//===- costmodels/GuardFraction.h - How often a statement's guards hold -*- C++ -*-===//
//
// Beyond the thesis, which takes the reaching probability rho(S) =
// num(S) / prod n_l (section 3.2.1) from the user, default 1, and names
// profiling as the best source. Where a statement's guards read only its
// loops' indices and the program's parameters (kali/relax's boundary test
// IX .EQ. 1 .OR. IX .EQ. NX .OR. IY .EQ. 1 .OR. IY .EQ. NY, and the
// interior's .NOT. of it), num(S) is counted: the fraction of its
// iterations at which those guards all hold. A guard that reads anything
// else (a scalar, an array's predicate) is taken to hold, as rho's default.
//
// Only the computation is scaled (Computation.h): communication placed
// outside a loop fetches the operands of every instance in it, guarded or
// not, as validate's executor does.
//
// Nests of up to kGuardCountAll iterations are counted whole; in larger ones
// each loop is sampled at its first and last index (boundary tests) and at
// evenly spaced indices between.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/ProgramAnalysis.h"

#include <map>
#include <string>

namespace dlayout::cost {

constexpr int64_t kGuardCountAll = 4096;

/// The fraction in [0, 1] of the iterations of `loops` (the statement's,
/// outermost first) at which st's guards that read only loop indices and
/// parameters hold; 1 where it has none, or where the loops' bounds are not
/// affine in the enclosing indices.
double guardFraction(const Statement &st, const std::vector<LoopFacts> &loops,
                     const std::map<std::string, int64_t> &params);

} // namespace dlayout::cost
