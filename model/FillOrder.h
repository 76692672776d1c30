//===- model/FillOrder.h - The order a replicated lhs is filled in -*- C++ -*-===//
//
// A replicated left-hand side read from an array distributed over several
// mesh dimensions is filled one dimension at a time: along each, the
// coordinates that hold some of the operand (its holders) multicast what
// they have so far to their line, their own part and what the dimensions
// before brought them. The executor fills so (gatherByDimension) and the
// estimator prices so (Composition.h); both take the dimensions in the
// order given here, which depends on the dimensions' holders and sizes,
// never on how the mesh dimensions are numbered: a layout and its mirror
// (8x2 with the arrays' dimensions on the other mesh dimensions than on
// 2x8) fill alike and cost the same.
//
// The order is the cheapest for tree multicasts (the machines' default,
// costmodels/Primitives.h) where the holders hold alike. Along dimension k
// each of its h_k holders multicasts over its n_k processors in
// c_k = ceil(log2 n_k) steps what the earlier dimensions' holders brought
// it, so the bytes in those steps go as
//   sum_k h_k c_k prod_{j<k} h_j,
// and exchanging two neighbours i, j shows i goes first exactly when
//   (h_i - 1) / (h_i c_i) < (h_j - 1) / (h_j c_j):
// a dimension with one holder first (it brings nothing to multiply the
// later stages). Where two dimensions tie, the longer goes first, then the
// lower-numbered.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Machine.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace dlayout {

/// A mesh dimension to fill: its holding coordinates, its size, its number.
struct FillStage {
  int64_t holders = 1;
  int64_t size = 1;
  int dim = 0;
};

/// Whether stage a is filled before stage b (a strict weak order).
inline bool fillsBefore(const FillStage &a, const FillStage &b) {
  auto steps = [](int64_t n) { return std::max<int64_t>(1, ceilLog2(n)); };
  // (h_a - 1) / (h_a c_a) against (h_b - 1) / (h_b c_b), in integers.
  const int64_t ka = (a.holders - 1) * b.holders * steps(b.size);
  const int64_t kb = (b.holders - 1) * a.holders * steps(a.size);
  if (ka != kb)
    return ka < kb;
  if (a.size != b.size)
    return a.size > b.size;
  return a.dim < b.dim;
}

/// Sorts stages into the order they are filled in: the dimensions every
/// coordinate of which holds some first (holders == size), then the
/// others, each kind by fillsBefore.
inline void sortFillStages(std::vector<FillStage> &stages) {
  std::sort(stages.begin(), stages.end(), [](const FillStage &a, const FillStage &b) {
    const bool everyA = a.holders >= a.size, everyB = b.holders >= b.size;
    return everyA != everyB ? everyA : fillsBefore(a, b);
  });
}

} // namespace dlayout
