//===- costmodels/Irregular.cpp - Inspector/executor cost -----------------===//

#include "costmodels/Irregular.h"

#include <algorithm>
#include <cmath>

namespace dlayout::cost {

InspectorExecutor
inspectorExecutor(const StatementFacts &sf, const RhsFacts &rf,
                  const ReferenceTerms &rt, const LayoutView &lv,
                  const PrimitiveCosts &costs, double elementBytes) {
  InspectorExecutor ie;
  const Machine &m = costs.machine();
  // References per processor in the combined (type-1) loops: the
  // iterations are spread over the processors the lhs is partitioned on.
  double refs = 1;
  for (size_t l = 0; l < sf.loops.size(); ++l)
    if (!rt.type2[l])
      refs *= sf.loops[l].trips;
  double spread = 1;
  if (sf.hasLhs) {
    const ArrayDist &ad = lv.arrays[sf.lhs.array];
    for (size_t d = 0; d < lv.mesh.size(); ++d) {
      int k = ad.dimOnMesh[d];
      if (k < 0)
        continue;
      int level = sf.lhs.subs[k].varLevel;
      if (level > 0 && !rt.type2[level - 1])
        spread *= double(lv.mesh[d]);
    }
  }
  refs = std::ceil(refs / spread);
  int64_t N = rt.irregularMeshDim >= 0 ? lv.mesh[rt.irregularMeshDim] : 1;
  ie.nonlocalWords =
      std::ceil(refs * (1 - 1 / double(std::max<int64_t>(N, 1))));
  ie.sources = ie.nonlocalWords > 0
                   ? std::min<int64_t>(N - 1, int64_t(ie.nonlocalWords))
                   : 0;
  double perSource = ie.sources ? ie.nonlocalWords / double(ie.sources) : 0;

  // Executor: receive the nonlocal elements from each owner.
  ie.executor =
      double(ie.sources) * costs.transfer(perSource * elementBytes, N);
  // Inspector: locality pass, global combine of the counts, request lists.
  double locality = refs * (m.load + m.compare + m.add);
  double combine = double(ceilLog2(lv.procs)) *
                   costs.transfer(8.0 * double(lv.procs), lv.procs);
  double requests = double(ie.sources) * costs.transfer(perSource * 8.0, N);
  ie.inspector = locality + combine + requests;

  // It runs again only where the index array changes.
  ie.inspectorRuns = 1;
  if (rf.indexWrittenIn >= 0) {
    ie.inspectorRuns = sf.rho;
    for (size_t l = size_t(rf.indexWrittenIn); l < sf.loops.size(); ++l)
      if (rt.type2[l])
        ie.inspectorRuns *= sf.loops[l].trips;
  }
  return ie;
}

} // namespace dlayout::cost
