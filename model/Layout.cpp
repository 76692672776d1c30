//===- model/Layout.cpp - A data layout -----------------------------------===//
//
// Names of the distribution kinds, and verify(): the rules a layout obeys
// (stated in Layout.h) that its JSON schema cannot express.
//
//===----------------------------------------------------------------------===//

#include "model/Layout.h"
#include "model/Program.h"

#include <set>

namespace dlayout {

const char *toString(DistKind k) {
  switch (k) {
  case DistKind::Block:
    return "block";
  case DistKind::Cyclic:
    return "cyclic";
  case DistKind::BlockCyclic:
    return "block_cyclic";
  case DistKind::GeneralBlock:
    return "general_block";
  case DistKind::Indirect:
    return "indirect";
  case DistKind::Replicated:
    return "replicated";
  case DistKind::Collapsed:
    return "collapsed";
  }
  return "collapsed";
}

std::optional<DistKind> distKindFromString(const std::string &s) {
  for (auto k : {DistKind::Block, DistKind::Cyclic, DistKind::BlockCyclic,
                 DistKind::GeneralBlock, DistKind::Indirect,
                 DistKind::Replicated, DistKind::Collapsed})
    if (s == toString(k))
      return k;
  return std::nullopt;
}

namespace {

/// The first problem with one array dimension, as "field: what", or "".
std::string checkDim(const DimLayout &d, const std::vector<int64_t> &mesh) {
  bool onMesh =
      d.distributed() || (d.kind == DistKind::Replicated && d.meshDim != -1);
  if (!onMesh && d.meshDim != -1)
    return "mesh_dim: a collapsed dimension is on no mesh dimension";
  if (onMesh && (d.meshDim < 0 || size_t(d.meshDim) >= mesh.size()))
    return "mesh_dim: " + std::to_string(d.meshDim) +
           " is not a dimension of the " + std::to_string(mesh.size()) +
           "-dimensional mesh";
  int64_t procs = onMesh ? mesh[d.meshDim] : 1;

  if (d.kind == DistKind::BlockCyclic && d.block <= 0)
    return "block: must be positive";
  if (d.kind != DistKind::BlockCyclic && d.block != 0)
    return "block: only block_cyclic has a block size";

  if (d.kind == DistKind::GeneralBlock) {
    if (int64_t(d.begins.size()) != procs)
      return "begins: has " + std::to_string(d.begins.size()) +
             " entries for the " + std::to_string(procs) +
             " processors of mesh dimension " + std::to_string(d.meshDim);
    for (size_t i = 1; i < d.begins.size(); ++i)
      if (d.begins[i] <= d.begins[i - 1])
        return "begins[" + std::to_string(i) + "]: must be greater than " +
               "begins[" + std::to_string(i - 1) + "]";
  } else if (!d.begins.empty()) {
    return "begins: only general_block has begins";
  }

  if (d.kind == DistKind::Indirect) {
    if (d.map.empty())
      return "map: must not be empty";
    for (size_t i = 0; i < d.map.size(); ++i)
      if (d.map[i] < 0 || d.map[i] >= procs)
        return "map[" + std::to_string(i) + "]: processor " +
               std::to_string(d.map[i]) + " is outside mesh dimension " +
               std::to_string(d.meshDim) + " (0.." + std::to_string(procs - 1) +
               ")";
  } else if (!d.map.empty()) {
    return "map: only indirect has a map";
  }

  if (!d.distributed() && d.offset != 0)
    return "offset: only a distributed dimension has an offset";
  if (d.overlapLeft < 0 || d.overlapRight < 0)
    return "overlap: must not be negative";
  if (!d.distributed() && (d.overlapLeft || d.overlapRight))
    return "overlap: only a distributed dimension has an overlap";
  return "";
}

} // namespace

Status verify(const Layout &l) {
  if (l.mesh.empty())
    return makeError("mesh: must have at least one dimension");
  int64_t procs = 1;
  for (size_t i = 0; i < l.mesh.size(); ++i) {
    if (l.mesh[i] < 1)
      return makeError("mesh[" + std::to_string(i) + "]: must be at least 1");
    // procs() multiplies the entries in int64_t.
    if (__builtin_mul_overflow(procs, l.mesh[i], &procs))
      return makeError("mesh: the product of its dimensions overflows 64 bits");
  }
  for (const auto &[name, array] : l.arrays) {
    std::string path = "arrays." + name;
    if (name.empty())
      return makeError("arrays: an array name must not be empty");
    if (array.dims.empty())
      return makeError(path + ".dims: must not be empty");
    std::set<int> used;
    for (size_t i = 0; i < array.dims.size(); ++i) {
      const DimLayout &d = array.dims[i];
      std::string dpath = path + ".dims[" + std::to_string(i) + "]";
      if (auto problem = checkDim(d, l.mesh); !problem.empty())
        return makeError(dpath + "." + problem);
      if (d.meshDim >= 0 && !used.insert(d.meshDim).second)
        return makeError(dpath + ".mesh_dim: another dimension of " + name +
                         " is already on mesh dimension " +
                         std::to_string(d.meshDim));
    }
  }
  return success();
}

Status verify(const Layout &l, const Program &p) {
  if (auto s = verify(l); !s)
    return s;
  for (const auto &[name, array] : l.arrays) {
    std::string path = "arrays." + name;
    const Array *a = p.findArray(name);
    if (!a)
      return makeError(path + ": the program has no array " + name);
    if (a->dims.size() != array.dims.size())
      return makeError(path + ".dims: " + std::to_string(array.dims.size()) +
                       " dimensions, but " + name + " has " +
                       std::to_string(a->dims.size()));
    for (size_t i = 0; i < array.dims.size(); ++i)
      if (array.dims[i].kind == DistKind::Indirect &&
          int64_t(array.dims[i].map.size()) != a->dims[i].extent)
        return makeError(path + ".dims[" + std::to_string(i) +
                         "].map: " + std::to_string(array.dims[i].map.size()) +
                         " entries for an extent of " +
                         std::to_string(a->dims[i].extent));
  }
  return success();
}

} // namespace dlayout
