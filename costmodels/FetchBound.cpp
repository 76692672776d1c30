//===- costmodels/FetchBound.cpp - A fetch sends no more than its sender holds -===//

#include "costmodels/FetchBound.h"

#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <tuple>

namespace dlayout::cost {

namespace {

/// Per mesh dimension of the fetched array's distribution, the mesh
/// dimension along which its reader sits at the same coordinate as the
/// element's holder, or -1: an array dimension whose subscript is the
/// written element's in a dimension of the same owner function (fig2_2's
/// V(MP,MI) read for XRSIQ(MI,MQ): column MI's holders send only to row
/// MI's owners). Only where the owners of the element the statement writes
/// alone run it and read the operand: not a reduction's home or operands
/// brought to it, not a private scalar's several owners, not the index
/// values or loop bounds every processor reads.
std::vector<int> readerAlong(const StatementFacts &sf, const CommCost &c, const LayoutView &lv,
                             const ArrayDist &ad) {
  std::vector<int> along(lv.mesh.size(), -1);
  if (!sf.hasLhs || sf.hasHome || !sf.alsoRunBy.empty() || c.rhs < 0)
    return along;
  const RhsFacts &rf = sf.rhs[size_t(c.rhs)];
  if (rf.everyProcessor || rf.toHome || rf.home)
    return along;
  const RefFacts &read = rf.ref;
  const ArrayDist &written = lv.arrays[size_t(sf.lhs.array)];
  for (size_t k = 0; k < read.subs.size() && k < ad.dims.size(); ++k) {
    const SubscriptForm &g = read.subs[k];
    if (!ad.dims[k].onMesh() || g.cls != SubscriptClass::Single)
      continue;
    for (size_t j = 0; j < sf.lhs.subs.size() && j < written.dims.size(); ++j) {
      const SubscriptForm &h = sf.lhs.subs[j];
      if (h.cls == g.cls && h.terms == g.terms && h.constant == g.constant &&
          ad.dims[k].sameOwners(written.dims[j])) {
        along[size_t(ad.dims[k].meshDim)] = written.dims[j].meshDim;
        break;
      }
    }
  }
  return along;
}

/// The processors that may read what the processor at `at` holds, less
/// those holding it too: every one, or where `along` pins a reader's
/// coordinate to the holder's, those at it.
int64_t readers(const std::vector<int64_t> &at, const std::vector<int> &along,
                const ArrayDist &ad, const std::vector<int64_t> &mesh) {
  std::vector<int64_t> pinned(mesh.size(), -1); // a reader's coordinate, where fixed
  for (size_t m = 0; m < mesh.size(); ++m)
    if (along[m] >= 0)
      pinned[size_t(along[m])] = at[m];
  int64_t all = 1, holding = 1; // in the slice; of those, the holders
  for (size_t m = 0; m < mesh.size(); ++m) {
    all *= pinned[m] >= 0 ? 1 : mesh[m];
    if (ad.dimOnMesh[m] >= 0) // a holder sits at the holder's coordinate
      holding *= pinned[m] < 0 || pinned[m] == at[m] ? 1 : 0;
    else
      holding *= pinned[m] >= 0 ? 1 : mesh[m];
  }
  return all - holding;
}

} // namespace

std::optional<std::pair<std::string, int>> fetchNest(const StatementFacts &sf) {
  // A reduction's terms may carry partial results, not the array's
  // elements (PartialsExchange.cpp).
  if (sf.loops.empty() || sf.path.empty() || sf.hasHome || sf.reductionRegion >= 0)
    return std::nullopt;
  return std::pair(sf.phase, sf.path[0]);
}

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
    const auto nest = fetchNest(sf);
    if (!nest)
      continue;
    for (size_t n = 0; n < comm[k].costs.size(); ++n) {
      const CommCost &c = comm[k].costs[n];
      // Inspector and executor terms name no primitive of Table 6.1; a
      // message serving several references carries elements other
      // processors may hold.
      if (c.placement != -1 || c.pipelined || c.rhs < 0 || c.sharedBy > 1 ||
          c.carried.size() > 1 || std::string_view(c.primitive) != toString(c.prim))
        continue;
      fetches[{nest->first, nest->second, sf.rhs[size_t(c.rhs)].ref.array}].push_back({k, n});
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
    // The mesh dimensions every term's readers are pinned along.
    std::vector<int> along;
    for (const Term &t : terms) {
      const std::vector<int> a =
          readerAlong(*comm[t.statement].sf, comm[t.statement].costs[t.term], lv, ad);
      if (along.empty())
        along = a;
      for (size_t m = 0; m < along.size(); ++m)
        if (a[m] != along[m])
          along[m] = -1;
    }
    const double perElement = double(pf.arrays[size_t(array)]->elementBytes);
    double sent = 0, bounded = 0; // the largest sum, and the largest bounded one
    for (const std::vector<int64_t> &at : mesh) {
      double s = 0;
      for (const Term &t : terms) {
        const CommCost &c = comm[t.statement].costs[t.term];
        s += sentAt(c.primitive, c.group, c.repetitions, c.bytes, c.senders, at).bytes;
      }
      const double bound = perElement * double(ad.heldBy(at)) * double(readers(at, along, ad, lv.mesh));
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
