//===- costmodels/Redistribution.cpp - Cost of changing a layout ----------===//

#include "costmodels/Redistribution.h"
#include "costmodels/SubReference.h"

#include <algorithm>
#include <map>

namespace dlayout {

namespace {

using cost::floorDiv;
using cost::floorMod;

/// The position along its mesh dimension of element i (0 when the
/// dimension is on no mesh dimension).
int64_t owner(const DimLayout &d, const ArrayDim &ad, int64_t i, int64_t N) {
  int64_t o = ad.lower + d.offset;
  switch (d.kind) {
  case DistKind::Block: {
    int64_t b = (ad.extent + N - 1) / N;
    return std::clamp<int64_t>(floorDiv(i - o, b), 0, N - 1);
  }
  case DistKind::Cyclic:
    return floorMod(i - o, N);
  case DistKind::BlockCyclic:
    return floorMod(floorDiv(i - o, d.block), N);
  case DistKind::GeneralBlock: {
    int64_t p = 0;
    for (size_t q = 0; q < d.begins.size(); ++q)
      if (d.begins[q] <= i)
        p = int64_t(q);
    return p;
  }
  case DistKind::Indirect:
    return d.map[size_t(i - ad.lower)];
  case DistKind::Replicated:
  case DistKind::Collapsed:
    return 0;
  }
  return 0;
}

std::vector<int64_t> strides(const std::vector<int64_t> &mesh) {
  std::vector<int64_t> s(mesh.size(), 1);
  for (int m = int(mesh.size()) - 2; m >= 0; --m)
    s[m] = s[m + 1] * mesh[m + 1];
  return s;
}

Status check(const Array &a, const ArrayLayout &l,
             const std::vector<int64_t> &mesh, const char *which) {
  Layout probe;
  probe.mesh = mesh;
  probe.arrays[a.name] = l;
  if (auto ok = verify(probe); !ok)
    return makeError(std::string(which) + " layout of " + a.name + ": " +
                     ok.error().message);
  if (l.dims.size() != a.dims.size())
    return makeError(std::string(which) + " layout of " + a.name + " has " +
                     std::to_string(l.dims.size()) + " dimensions for " +
                     std::to_string(a.dims.size()));
  return success();
}

} // namespace

Result<RedistributionCost>
redistributionCost(const Array &array, const ArrayLayout &from,
                   const std::vector<int64_t> &fromMesh, const ArrayLayout &to,
                   const std::vector<int64_t> &toMesh, const Machine &machine) {
  if (auto ok = check(array, from, fromMesh, "source"); !ok)
    return ok.error();
  if (auto ok = check(array, to, toMesh, "target"); !ok)
    return ok.error();
  auto sFrom = strides(fromMesh), sTo = strides(toMesh);
  int64_t pFrom = 1, pTo = 1;
  for (auto n : fromMesh)
    pFrom *= n;
  for (auto n : toMesh)
    pTo *= n;

  // (source rank, target rank) -> elements, built one dimension at a time:
  // a rank is the sum of its dimensions' contributions.
  std::map<std::pair<int64_t, int64_t>, double> pairs{{{0, 0}, 1.0}};
  for (size_t k = 0; k < array.dims.size(); ++k) {
    const ArrayDim &ad = array.dims[k];
    const DimLayout &df = from.dims[k], &dt = to.dims[k];
    bool onF = df.distributed(), onT = dt.distributed();
    int64_t nF = onF ? fromMesh[df.meshDim] : 1,
            nT = onT ? toMesh[dt.meshDim] : 1;
    std::map<std::pair<int64_t, int64_t>, double> hist;
    for (int64_t i = ad.lower; i < ad.lower + ad.extent; ++i) {
      int64_t a = onF ? owner(df, ad, i, nF) * sFrom[df.meshDim] : 0;
      int64_t b = onT ? owner(dt, ad, i, nT) * sTo[dt.meshDim] : 0;
      hist[{a, b}] += 1;
    }
    std::map<std::pair<int64_t, int64_t>, double> next;
    for (const auto &[ab, n] : pairs)
      for (const auto &[cd, m] : hist)
        next[{ab.first + cd.first, ab.second + cd.second}] += n * m;
    pairs.swap(next);
  }

  // Replication: every copy of a replicated target is filled; a replicated
  // source serves from the target's own position when the meshes agree.
  auto replicatedOn = [](const ArrayLayout &l, size_t meshDims) {
    std::vector<char> on(meshDims, 0);
    bool everywhere = false;
    std::vector<char> used(meshDims, 0);
    for (const auto &d : l.dims) {
      if (d.kind == DistKind::Replicated && d.meshDim >= 0)
        on[d.meshDim] = 1;
      else if (d.kind == DistKind::Replicated)
        everywhere = true;
      if (d.distributed())
        used[d.meshDim] = 1;
    }
    if (everywhere)
      for (size_t m = 0; m < meshDims; ++m)
        on[m] = on[m] || !used[m];
    return on;
  };
  auto repTo = replicatedOn(to, toMesh.size());
  auto repFrom = replicatedOn(from, fromMesh.size());
  for (size_t m = 0; m < toMesh.size(); ++m) {
    if (!repTo[m])
      continue;
    std::map<std::pair<int64_t, int64_t>, double> next;
    for (const auto &[ab, n] : pairs)
      for (int64_t q = 0; q < toMesh[m]; ++q)
        next[{ab.first, ab.second + q * sTo[m]}] += n;
    pairs.swap(next);
  }
  if (fromMesh == toMesh) {
    std::map<std::pair<int64_t, int64_t>, double> next;
    for (const auto &[ab, n] : pairs) {
      int64_t src = ab.first;
      for (size_t m = 0; m < fromMesh.size(); ++m)
        if (repFrom[m])
          src += ((ab.second / sTo[m]) % toMesh[m]) * sFrom[m];
      next[{src, ab.second}] += n;
    }
    pairs.swap(next);
  }

  PrimitiveCosts costs(machine);
  RedistributionCost c;
  double elem = double(array.elementBytes);
  std::vector<double> sendTime(std::max(pFrom, pTo), 0),
      recvTime(std::max(pFrom, pTo), 0), sendBytes(std::max(pFrom, pTo), 0);
  std::vector<int64_t> messages(std::max(pFrom, pTo), 0);
  for (const auto &[ab, n] : pairs) {
    if (ab.first == ab.second || n <= 0)
      continue;
    double bytes = n * elem, t = costs.transfer(bytes);
    sendTime[ab.first] += t;
    recvTime[ab.second] += t;
    sendBytes[ab.first] += bytes;
    messages[ab.first] += 1;
    c.bytesMoved += bytes;
  }
  for (size_t p = 0; p < sendTime.size(); ++p) {
    c.seconds = std::max({c.seconds, sendTime[p], recvTime[p]});
    c.maxSendBytes = std::max(c.maxSendBytes, sendBytes[p]);
    c.maxMessages = std::max(c.maxMessages, messages[p]);
  }
  return c;
}

} // namespace dlayout
