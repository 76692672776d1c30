//===- costmodels/OuterSamples.h - A triangular nest per outer iteration -*- C++ -*-===//
//
// Beyond the thesis. Fig. 3.2 evaluates a loop whose bounds vary with an
// enclosing index at that index's mean. Where a cost is not linear in the
// index (lu's update: the processors a shrinking range reaches, and what
// each of them does), the mean misleads. These helpers walk a nest at its
// driving iterations instead: every iteration of the loops that inner
// bounds vary with, each such loop of more than kOuterSamples iterations
// sampled evenly with each sample standing for its share, and the loops
// whose bounds follow them re-evaluated (LoopFacts::at) at each. A caller
// sums its cost over the samples, weighted; Computation.h counts the
// busiest processor's iterations so, Communication.h a reference's
// messages.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/ProgramAnalysis.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

namespace dlayout::cost {

/// Samples per driving loop; several drivers whose iterations together are
/// more than this share them (forEachOuterSample). Computation counts are cheap
/// and take kOuterSamples; a reference's communication terms cost a term
/// walk each and take kCommSamples (the groups and senders they follow
/// change at block boundaries, at most a few per mesh dimension; but a
/// sample standing for steps of several owners charges each the sample's
/// message, lu's multipliers a row short on the first of two: 32 walks
/// every step of lu at N = 32, its layouts' busiest bytes exact; tred2's
/// estimate at N = 512 takes about 1.6 times as long as with 16).
constexpr int64_t kOuterSamples = 64;
constexpr int64_t kCommSamples = 32;
/// A reference whose message is vectorised over a driving loop too
/// (MessageSum.h) takes kCommSamples walks in all: kVectorisedSamples of
/// that loop within each of kCommSamples / kVectorisedSamples of the loops
/// its terms are repeated in.
constexpr int64_t kVectorisedSamples = 4;
/// Where the drivers of a vectorised message have this many iterations or
/// fewer together (by their mean trips), each is walked at every one: the
/// message's senders and sizes at every step, not at a few (tred2 at
/// N = 16: E(K) = E(K) + Z(K,J)*F over II and J, some 120 walks).
constexpr int64_t kExactCommWalks = 256;

/// The positions of the loops some inner loop's bounds vary with, outermost
/// first.
std::vector<int> boundDrivers(const std::vector<LoopFacts> &loops);

/// Calls visit(loops, weight) once per sample of `drivers` (positions in
/// `loops`): the drivers at one iteration each (trips 1, first the index
/// value), their followers at those indices and at the index of any loop
/// already at one iteration (an earlier walk's sample), `weight` the iterations the
/// sample stands for. A driver of more iterations than its share of
/// `samples` is sampled evenly: one driver has them all; several of more
/// iterations together share them outermost first, each all its own where
/// they fit in an even share of what the outer ones left (tred2's E(K) =
/// E(K) + Z(K,J)*F, driven by II and J: 5 of II's 15, 6 of J's at each).
/// False, having visited nothing or part, where a driver's or follower's
/// bounds are not affine in the enclosing indices or a driver's trip count
/// is not whole.
bool forEachOuterSample(
    const std::vector<LoopFacts> &loops, const std::vector<int> &drivers,
    const std::function<void(const std::vector<LoopFacts> &, double)> &visit,
    int64_t samples = kOuterSamples);

/// Calls visit() at every iteration of loops[from..to) (to: all of them
/// by default), an odometer, each loop re-evaluated at the indices around
/// it (LoopFacts::moveTo); `index` holds the indices by position, those
/// before `from` set by the caller. visit() returns false to stop. False
/// where a bound is not affine in the enclosing indices, a first index or
/// trip count is not whole, or visit() stopped.
template <typename Visit>
bool forEachIteration(const std::vector<LoopFacts> &all, size_t from, std::vector<int64_t> &index,
                      Visit &&visit, size_t to = SIZE_MAX) {
  const size_t end = std::min(to, all.size());
  std::vector<LoopFacts> loops(all.begin() + std::ptrdiff_t(std::min(from, end)),
                               all.begin() + std::ptrdiff_t(end));
  std::vector<int64_t> left(loops.size(), 0);
  auto enter = [&](size_t k) { // loop from + k at its first index
    LoopFacts &f = loops[k];
    if (!f.moveTo(index) || f.first != std::floor(f.first) || f.trips != std::floor(f.trips))
      return false;
    index[from + k] = int64_t(f.first);
    left[k] = int64_t(f.trips);
    return true;
  };
  for (size_t k = 0;;) {
    if (k < loops.size()) { // enter the next loop in
      if (!enter(k))
        return false;
      if (left[k] > 0) {
        ++k;
        continue;
      }
    } else if (!visit()) {
      return false;
    }
    // Step the innermost loop with iterations left, outwards.
    while (k > 0 && --left[k - 1] <= 0)
      --k;
    if (k == 0)
      return true;
    index[from + k - 1] += loops[k - 1].signedStep();
  }
}

/// forEachIteration with the innermost loop a row at a time: at every
/// iteration of loops[from..] but the innermost (from < all.size()), the
/// innermost's index at its first and row(trips) for its trips (rows of
/// none passed over). row returns false to stop; false where
/// forEachIteration would be.
template <typename Row>
bool forEachRow(const std::vector<LoopFacts> &all, size_t from, std::vector<int64_t> &index,
                Row &&row) {
  const size_t q = all.size() - 1;
  LoopFacts inner = all[q];
  return forEachIteration(all, from, index, [&] {
    if (!inner.moveTo(index) || inner.first != std::floor(inner.first) ||
        inner.trips != std::floor(inner.trips))
      return false;
    index[q] = int64_t(inner.first);
    const int64_t trips = int64_t(inner.trips);
    return trips <= 0 || row(trips);
  }, q);
}

} // namespace dlayout::cost
