//===- analyzer/Delinearize.h - Offsets back to subscripts ------*- C++ -*-===//
//
// Compilers flatten A(I,J) into one offset from the array's base; the cost
// model needs the subscripts back. Given the offset in elements as a
// polynomial and the array's shape, delinearize() recovers one zero-based
// subscript per dimension.
//
// Dimensions are visited from the slowest-varying (largest stride) to the
// fastest. Where a stride is symbolic (NP2 in an adjustable Fortran array,
// n in a C VLA) the split is exact polynomial division by its leading
// monomial. Where every extent is a number the split of constants is
// ambiguous (A(I-33,J) and A(I+33,J-1) flatten alike in a 66-row array), so
// the quotient is chosen that keeps the faster subscript inside its
// dimension over the iteration ranges given; without ranges it rounds.
//
// The extent of the slowest dimension is never needed, and may be unknown.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "analyzer/Polynomial.h"

#include <optional>
#include <vector>

namespace dlayout {

/// `extents` in source order; `columnMajor` says whether dims[0] (Fortran)
/// or dims[last] (C) varies fastest. `ranges` bounds the symbols of the
/// offset (induction variables, parameters) for the numeric case.
std::vector<Poly>
delinearize(const Poly &offset, const std::vector<Poly> &extents,
            bool columnMajor,
            const std::map<std::string, std::pair<double, double>> &ranges);

} // namespace dlayout
