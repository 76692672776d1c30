//===- costmodels/OuterSamples.cpp - A triangular nest per outer iteration ===//

#include "costmodels/OuterSamples.h"

#include <algorithm>
#include <cmath>

namespace dlayout::cost {

std::vector<int> boundDrivers(const std::vector<LoopFacts> &loops) {
  const int m = int(loops.size());
  std::vector<int> drivers;
  for (int q = 0; q < m; ++q)
    for (int l = q + 1; l < m; ++l)
      if (loops[size_t(l)].boundsVaryWith(q)) {
        drivers.push_back(q);
        break;
      }
  return drivers;
}

bool forEachOuterSample(
    const std::vector<LoopFacts> &loops, const std::vector<int> &drivers,
    const std::function<void(const std::vector<LoopFacts> &, double)> &visit, int64_t samples) {
  const int m = int(loops.size());
  // Where the drivers' iterations together are more than `samples`, each
  // driver is sampled within its share of them, outermost first: all its
  // iterations where they fit in an even share of what is left, else that
  // share (a driver whose trips vary with another is shared by its mean).
  std::vector<int64_t> budget(drivers.size(), samples);
  double together = 1;
  for (int q : drivers)
    together *= std::max(loops[size_t(q)].trips, 1.0);
  if (!drivers.empty() && together > double(samples)) {
    double left = double(std::max<int64_t>(samples, 1));
    for (size_t i = 0; i + 1 < drivers.size(); ++i) {
      const double even = std::floor(std::pow(left, 1.0 / double(drivers.size() - i)) + 1e-9);
      const double trips = std::ceil(std::max(loops[size_t(drivers[i])].trips, 1.0));
      budget[i] = int64_t(std::max(1.0, std::min(even, trips)));
      left /= double(budget[i]);
    }
    budget.back() = int64_t(std::max(1.0, std::floor(left + 1e-9)));
  }
  // The other loops whose bounds vary with them, re-evaluated per sample.
  std::vector<int> followers;
  for (int l = 0; l < m; ++l)
    if (std::find(drivers.begin(), drivers.end(), l) == drivers.end() &&
        std::any_of(drivers.begin(), drivers.end(),
                    [&](int q) { return loops[size_t(l)].boundsVaryWith(q); }))
      followers.push_back(l);
  std::vector<LoopFacts> sample = loops;
  std::vector<int64_t> index(size_t(m), 0);
  for (int l = 0; l < m; ++l) // a loop at one iteration: its index is known
    if (auto at = loops[size_t(l)].onlyIndex())
      index[size_t(l)] = *at;
  bool affine = true;
  auto walk = [&](auto &self, size_t i, double weight) -> void {
    if (!affine)
      return;
    if (i == drivers.size()) {
      for (int l : followers)
        if (!sample[size_t(l)].moveTo(index)) {
          affine = false;
          return;
        }
      visit(sample, weight);
      return;
    }
    const int q = drivers[i];
    LoopFacts &lf = sample[size_t(q)]; // becomes each sample in turn
    if (!lf.moveTo(index) || lf.trips != std::floor(lf.trips) || lf.first != std::floor(lf.first)) {
      affine = false;
      return;
    }
    const int64_t trips = int64_t(lf.trips), first = int64_t(lf.first);
    const int64_t step = lf.signedStep();
    const int64_t stride = std::max<int64_t>(1, (trips + budget[i] - 1) / budget[i]);
    for (int64_t t0 = 0; t0 < trips; t0 += stride) {
      const int64_t share = std::min(stride, trips - t0); // the iterations t0 stands for
      const int64_t t = t0 + share / 2;
      index[size_t(q)] = first + t * step;
      lf.trips = 1;
      lf.range = double(lf.step);
      lf.first = double(index[size_t(q)]);
      lf.stands = share;
      lf.standsFrom = first + t0 * step;
      self(self, i + 1, weight * double(share));
    }
  };
  walk(walk, 0, 1.0);
  return affine;
}

} // namespace dlayout::cost
