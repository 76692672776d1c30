//===- validate/runtime/Inspector.cpp - Kali's inspector -----------------------===//
#include "validate/runtime/Inspector.h"

#include "validate/runtime/TranslationTable.h"

#include <string>
#include <unordered_map>

namespace dlayout::rt {

Result<ForallPlan> inspect(ProcessorMesh &mesh, const ArrayDistribution &dist,
                           std::span<const int64_t> refPtr, std::span<const int64_t> refs,
                           const TranslationTable *table) {
  ForallPlan plan;
  std::optional<Error> err;
  Translation t;
  std::vector<Request> remote;
  {
    PhaseTimer timer(mesh.counters(), Phase::Scheduling);
    const int64_t n = refPtr.empty() ? 0 : static_cast<int64_t>(refPtr.size()) - 1;
    const int64_t r = dist.rank();
    bool csr = refPtr.empty() || refPtr[0] == 0;
    for (int64_t k = 0; csr && k < n; ++k) csr = refPtr[k] <= refPtr[k + 1];
    if (!csr || (n > 0 && refPtr[n] * r != static_cast<int64_t>(refs.size())))
      err = makeError("inspector for array " + dist.name() +
                      ": the reference lists are not a valid CSR (" +
                      std::to_string(refs.size()) + " subscripts)");
    t = Schedule::translate(mesh, dist, err ? std::span<const int64_t>() : refs,
                            Copies::One, table);
    if (t.error && t.agreed) return *t.error;
    if (!err && t.error) err = t.error;

    if (!err) {
      plan.refPtr.assign(refPtr.begin(), refPtr.end());
      plan.refSrc.resize(t.requests.size());
      const int64_t me = mesh.rank();
      std::unordered_map<uint64_t, int64_t> slotOf; // (proc, offset) → buffer slot
      for (const Request &q : t.requests) {
        if (q.proc == me) {
          plan.refSrc[q.slot] = q.offset;
          continue;
        }
        uint64_t key = (static_cast<uint64_t>(q.proc) << 44) ^ static_cast<uint64_t>(q.offset);
        auto [it, fresh] = slotOf.try_emplace(key, plan.bufferSize);
        if (fresh) remote.push_back({plan.bufferSize++, q.proc, q.offset});
        plan.refSrc[q.slot] = -1 - it->second;
      }
      for (int64_t k = 0; k < n; ++k) {
        bool local = true;
        for (int64_t j = refPtr[k]; local && j < refPtr[k + 1]; ++j)
          local = plan.refSrc[j] >= 0;
        (local ? plan.localIters : plan.nonlocalIters).push_back(k);
      }
    }
  }
  auto s = Schedule::build(mesh, remote, plan.bufferSize, Transport::PointToPoint,
                           err ? &*err : nullptr);
  if (!s) return s.error();
  plan.schedule = std::move(s).value();
  return plan;
}

} // namespace dlayout::rt
