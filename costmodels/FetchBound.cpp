//===- costmodels/FetchBound.cpp - A fetch sends no more than its sender holds -===//

#include "costmodels/FetchBound.h"

#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <tuple>

namespace dlayout::cost {

void boundFetches(std::vector<StatementComm> &comm, const LayoutView &lv, const ProgramFacts &pf,
                  const PrimitiveCosts &costs, const CommunicationOptions &opts) {
  if (lv.procs < 2 || lv.procs > kMaxBoundedProcessors)
    return;
  // The terms fetched before a whole nest, by phase, nest and array.
  struct Term {
    size_t statement, term;
  };
  std::map<std::tuple<std::string, int, int>, std::vector<Term>> fetches;
  for (size_t k = 0; k < comm.size(); ++k) {
    const StatementFacts &sf = *comm[k].sf;
    // A reduction's terms may carry partial results, not the array's
    // elements (PartialsExchange.cpp).
    if (sf.loops.empty() || sf.path.empty() || sf.hasHome || sf.reductionRegion >= 0)
      continue;
    for (size_t n = 0; n < comm[k].costs.size(); ++n) {
      const CommCost &c = comm[k].costs[n];
      // Inspector and executor terms name no primitive of Table 6.1; a
      // message serving several references carries elements other
      // processors may hold.
      if (c.placement != -1 || c.pipelined || c.rhs < 0 || c.sharedBy > 1 ||
          c.carried.size() > 1 || std::string_view(c.primitive) != toString(c.prim))
        continue;
      fetches[{sf.phase, sf.path[0], sf.rhs[size_t(c.rhs)].ref.array}].push_back({k, n});
    }
  }
  if (fetches.empty())
    return;
  const std::vector<std::vector<int64_t>> mesh = meshCoordinates(lv.mesh);
  for (const auto &[key, terms] : fetches) {
    const int array = std::get<2>(key);
    const ArrayDist &ad = lv.arrays[size_t(array)];
    if (!ad.distributed())
      continue;
    int64_t holders = 1; // R: the processors holding one part
    for (size_t m = 0; m < lv.mesh.size(); ++m)
      if (ad.dimOnMesh[m] < 0)
        holders *= lv.mesh[m];
    const double perElement = double(pf.arrays[size_t(array)]->elementBytes);
    double sent = 0, bounded = 0; // the largest sum, and the largest bounded one
    for (const std::vector<int64_t> &at : mesh) {
      double s = 0;
      for (const Term &t : terms) {
        const CommCost &c = comm[t.statement].costs[t.term];
        s += sentAt(c.primitive, c.group, c.repetitions, c.bytes, c.senders, at).bytes;
      }
      const double bound = perElement * double(ad.heldBy(at)) * double(lv.procs - holders);
      sent = std::max(sent, s);
      bounded = std::max(bounded, std::min(s, bound));
    }
    if (sent <= 0 || bounded >= sent * (1 - 1e-9))
      continue;
    const double f = bounded / sent;
    for (const Term &t : terms) {
      CommCost &c = comm[t.statement].costs[t.term];
      c.words *= f;
      c.bytes *= f;
      c.seconds = c.repetitions * messageSeconds(c, *comm[t.statement].sf, costs, opts);
    }
  }
}

} // namespace dlayout::cost
