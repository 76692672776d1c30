//===- model/LayoutJson.cpp - The "dlayout-layout/1" document -------------===//
//
// Writer, then reader. The reader checks types and which fields each kind
// takes as it goes (jsonio::Node), then the whole layout with verify().
//
//===----------------------------------------------------------------------===//

#include "model/LayoutJson.h"
#include "model/Json.h"

#include <climits>

namespace dlayout {

using Json = nlohmann::json;
using jsonio::Node;

namespace {

Json dimJson(const DimLayout &d) {
  Json out = {{"kind", toString(d.kind)}};
  if (d.meshDim >= 0)
    out["mesh_dim"] = d.meshDim;
  if (d.kind == DistKind::BlockCyclic)
    out["block"] = d.block;
  if (d.kind == DistKind::GeneralBlock)
    out["begins"] = d.begins;
  if (d.kind == DistKind::Indirect)
    out["map"] = d.map;
  if (d.offset != 0)
    out["offset"] = d.offset;
  if (d.overlapLeft != 0 || d.overlapRight != 0)
    out["overlap"] = {d.overlapLeft, d.overlapRight};
  return out;
}

std::vector<int64_t> readIntegers(const Node &n) {
  std::vector<int64_t> out;
  for (const Node &e : n.elements())
    out.push_back(e.integer());
  return out;
}

/// `key` is required when `needed` and forbidden otherwise.
std::optional<Node> member(const Node &n, std::string_view key, bool needed,
                           const std::string &kind) {
  if (needed)
    return n.get(key);
  if (auto m = n.find(key))
    m->fail("not a field of a " + kind + " dimension");
  return std::nullopt;
}

DimLayout readDim(const Node &n) {
  n.allowOnly(
      {"kind", "mesh_dim", "block", "offset", "overlap", "begins", "map"});
  DimLayout d;
  Node kind = n.get("kind");
  auto k = distKindFromString(kind.str());
  if (!k)
    kind.fail("unknown distribution kind " + kind.str() +
              " (block, cyclic, block_cyclic, general_block, indirect, "
              "replicated, collapsed)");
  d.kind = *k;
  std::string name = toString(d.kind);

  if (d.distributed())
    n.get("mesh_dim"); // required: fails when absent
  if (auto m = n.find("mesh_dim")) {
    int64_t v = m->integer();
    if (v < -1 || v > INT_MAX)
      m->fail("not a mesh dimension");
    d.meshDim = int(v);
  }
  if (auto m = member(n, "block", d.kind == DistKind::BlockCyclic, name))
    d.block = m->integer();
  if (auto m = member(n, "begins", d.kind == DistKind::GeneralBlock, name))
    d.begins = readIntegers(*m);
  if (auto m = member(n, "map", d.kind == DistKind::Indirect, name))
    d.map = readIntegers(*m);
  d.offset = n.integer("offset", 0);
  if (auto m = n.find("overlap")) {
    auto widths = readIntegers(*m);
    if (widths.size() != 2)
      m->fail("must be [left, right]");
    d.overlapLeft = widths[0];
    d.overlapRight = widths[1];
  }
  return d;
}

Layout readLayout(const Node &doc) {
  jsonio::expectSchema(doc, kLayoutSchema);
  // A layout inside advice carries its predictions; they annotate the
  // layout and are not part of it.
  doc.allowOnly({"schema", "mesh", "arrays", "predicted_seconds", "computation_seconds",
                 "communication_seconds", "origin"});
  for (const char *key : {"predicted_seconds", "computation_seconds", "communication_seconds"})
    if (auto n = doc.find(key)) (void)n->number();
  if (auto n = doc.find("origin")) (void)n->str();
  Layout l;
  l.mesh = readIntegers(doc.get("mesh"));
  for (const auto &[name, array] : doc.get("arrays").members()) {
    array.allowOnly({"dims"});
    ArrayLayout &a = l.arrays[name];
    for (const Node &dim : array.get("dims").elements())
      a.dims.push_back(readDim(dim));
  }
  if (auto ok = verify(l); !ok)
    throw jsonio::ReadError{ok.error().message};
  return l;
}

} // namespace

nlohmann::json toJson(const Layout &l) {
  Json arrays = Json::object();
  for (const auto &[name, array] : l.arrays) {
    Json dims = Json::array();
    for (const auto &d : array.dims)
      dims.push_back(dimJson(d));
    arrays[name] = {{"dims", dims}};
  }
  return {{"schema", kLayoutSchema}, {"mesh", l.mesh}, {"arrays", arrays}};
}

Result<Layout> layoutFromJson(const nlohmann::json &doc) {
  return jsonio::read([&] { return readLayout(Node(doc)); });
}

Result<Layout> parseLayout(std::string_view text) {
  auto doc = jsonio::parse(text);
  if (!doc)
    return doc.error();
  return layoutFromJson(*doc);
}

} // namespace dlayout
