//===- model/LayoutJson.h - The "dlayout-layout/1" document -----*- C++ -*-===//
//
// A Layout as JSON (docs/schema/layout.json):
//
//   { "schema": "dlayout-layout/1", "mesh": [4, 2],
//     "arrays": { "A": { "dims": [
//         { "kind": "block_cyclic", "mesh_dim": 0, "block": 4,
//           "offset": 1, "overlap": [1, 1] },
//         { "kind": "collapsed" } ] } } }
//
// toJson() writes only what is meaningful and not the default: mesh_dim when
// the dimension is on the mesh, block for block_cyclic, begins for
// general_block, map for indirect, offset when non-zero, overlap when either
// side is. The readers are strict and never throw: wrong or missing schema,
// wrong types, missing or unknown fields, bad JSON text, and anything
// verify(const Layout &) rejects come back as an Error naming the JSON path,
// e.g. "arrays.A.dims[0].block: must be positive".
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Layout.h"

#include <nlohmann/json.hpp>

#include <string_view>

namespace dlayout {

inline constexpr const char *kLayoutSchema = "dlayout-layout/1";

nlohmann::json toJson(const Layout &l);
Result<Layout> layoutFromJson(const nlohmann::json &doc);
Result<Layout> parseLayout(std::string_view text);

} // namespace dlayout
