//===- analyzer/TripBounds.cpp - Trip counts the array extents bound -----===//
//
// A loop whose bounds are not affine (DO J = 1, COUNT(I)) has no trip count
// the analysis can compute; one is assumed (--trip-count LINE=N, else
// BuildOptions::defaultTripCount). Where the loop's index subscripts an array
// dimension as alpha * j + c (COEF(I,J), ADJ(I,J) with J in 1..4), a run
// that stays within the array's bounds takes at most
// (extent - 1) / (|alpha| |step|) + 1 iterations: the assumed count is
// lowered to that, the smallest such bound over the function's references,
// and the warning says so. A count the user gave is kept.
//
//===----------------------------------------------------------------------===//
#include "analyzer/FunctionBuilder.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace dlayout {

namespace {

/// The iterations of loop `id` (step `step`) that keep `ref` within its
/// array's bounds, and the dimension that gives the fewest; nullopt where no
/// subscript is alpha * j + c in that loop alone.
std::optional<std::pair<double, size_t>> withinBounds(const Reference &ref, const Array &a,
                                                      const std::string &id, int64_t step) {
  std::optional<std::pair<double, size_t>> best;
  for (size_t k = 0; k < ref.subscripts.size() && k < a.dims.size(); ++k) {
    const Subscript &s = ref.subscripts[k];
    if (s.cls != SubscriptClass::Single || s.affine.coeffs.size() != 1 ||
        s.affine.coeffs.begin()->first != id || a.dims[k].extent <= 0)
      continue;
    const double stride =
        double(std::llabs(s.affine.coeffs.begin()->second)) * double(std::llabs(step ? step : 1));
    const double trips = std::floor(double(a.dims[k].extent - 1) / stride) + 1;
    if (!best || trips < best->first)
      best = std::make_pair(trips, k);
  }
  return best;
}

} // namespace

void FunctionBuilder::boundAssumedTripCounts() {
  for (size_t index : AssumedTrips) {
    Loop &L = P.loops[index];
    std::string because;
    for (size_t s = FirstStatement; s < P.statements.size(); ++s) {
      const Statement &st = P.statements[s];
      if (std::find(st.loops.begin(), st.loops.end(), L.id) == st.loops.end())
        continue;
      for (const Reference &ref : st.refs)
        if (const Array *a = P.findArray(ref.array))
          if (auto b = withinBounds(ref, *a, L.id, L.step); b && b->first < L.tripCount) {
            L.tripCount = b->first;
            because = "no more than dimension " + std::to_string(b->second + 1) + " of " +
                      ref.array + ", which its index subscripts, holds; ";
          }
    }
    warnOnce("trip-count", "loop " + L.id + " (" + L.var + ") has bounds that are "
             "not affine; its trip count is assumed to be " +
             std::to_string((int64_t)L.tripCount) + " (" + because + "give --trip-count " +
             std::to_string(L.loc.line) + "=VALUE)", L.loc);
  }
}

} // namespace dlayout
