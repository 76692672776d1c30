//===- costmodels/BodyBusiest.cpp - One busiest processor per loop body ---===//

#include "costmodels/BodyBusiest.h"

#include <algorithm>

namespace dlayout::cost {

namespace {

bool sameLoops(const StatementFacts &a, const StatementFacts &b) {
  return a.loops.size() == b.loops.size() &&
         std::equal(a.loops.begin(), a.loops.end(), b.loops.begin(),
                    [](const LoopFacts &x, const LoopFacts &y) { return x.loop == y.loop; });
}

} // namespace

void shareBusiestProcessor(std::vector<ComputationCost> &work,
                           const std::vector<StatementComm> &comm) {
  auto counted = [&](size_t k) { return !work[k].spread.empty() && sharesBusiest(*comm[k].sf); };
  auto joins = [&](size_t k, size_t next) { // next continues k's run
    const StatementFacts &a = *comm[k].sf, &b = *comm[next].sf;
    return &b == &a + 1 && counted(next) && sameLoops(a, b) && a.lhs.array == b.lhs.array &&
           work[k].spreadDims == work[next].spreadDims &&
           work[k].spread.size() == work[next].spread.size();
  };
  for (size_t k = 0, end; k < comm.size(); k = end) {
    end = k + 1;
    if (!counted(k))
      continue;
    while (end < comm.size() && joins(end - 1, end))
      ++end;
    std::vector<double> total(work[k].spread.size(), 0.0); // seconds by processor
    for (size_t s = k; s < end; ++s)
      for (size_t p = 0; p < total.size(); ++p)
        total[p] += work[s].spread[p] * work[s].instance;
    const size_t busiest = size_t(std::max_element(total.begin(), total.end()) - total.begin());
    for (size_t s = k; s < end; ++s) {
      ComputationCost &c = work[s];
      c.iterations = std::min(c.iterations, c.spread[busiest]);
      c.seconds = c.iterations * c.instance;
    }
  }
}

} // namespace dlayout::cost
