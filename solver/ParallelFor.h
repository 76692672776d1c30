//===- solver/ParallelFor.h - Independent estimates on every core -*- C++ -*-===//
//
// parallelFor(n, work) calls work(i, worker) once for each i in [0, n), on
// up to one thread per hardware core (`worker` in [0, workers(n)): an index
// for per-thread scratch). The calls must be independent: the exact
// optimiser's estimates of distinct layouts, each reading the shared,
// immutable program facts (the Estimator is const). A caller that needs an
// order writes each result to slot i and reads the slots after.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <thread>
#include <vector>

namespace dlayout::solver {

/// The threads parallelFor uses for n calls: the hardware's cores, at most
/// 8, at most n, at least 1.
inline size_t workers(size_t n) {
  size_t cores = std::max<size_t>(1, std::thread::hardware_concurrency());
  return std::max<size_t>(1, std::min({cores, size_t(8), n}));
}

inline void parallelFor(size_t n, const std::function<void(size_t, size_t)> &work) {
  const size_t w = workers(n);
  // Each thread takes runs of `chunk` consecutive calls: the callers'
  // neighbouring layouts share most parts of their estimates
  // (costmodels/StatementCache.h), and tred2's advise takes 5-15 % less CPU
  // this way than with one call at a time (docs/solver.md).
  const size_t chunk = std::max<size_t>(1, n / (w * 8));
  std::atomic<size_t> next{0};
  auto run = [&](size_t worker) {
    for (size_t first; (first = next.fetch_add(chunk)) < n;)
      for (size_t i = first, end = std::min(n, first + chunk); i < end; ++i)
        work(i, worker);
  };
  std::vector<std::thread> threads;
  for (size_t t = 1; t < w; ++t)
    threads.emplace_back(run, t);
  run(0);
  for (auto &t : threads)
    t.join();
}

} // namespace dlayout::solver
