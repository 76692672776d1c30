//===- model/MachineJson.h - The "dlayout-machine/1" document ---*- C++ -*-===//
//
// A Machine as JSON (docs/schema/machine.json); all times in seconds:
//
//   { "schema": "dlayout-machine/1", "name": "ipsc2", "description": "...",
//     "ops": { "load": 0.5e-6, "store": 0.5e-6, "add": 5e-6, "mul": 5e-6,
//              "div": 15e-6, "intrinsic": 0, "compare": 0 },
//     "message": [
//       { "below_bytes": 100, "startup": 350e-6, "per_byte": 0.15e-6 },
//       { "below_bytes": 0, "startup": 700e-6, "per_byte": 0.36e-6 } ],
//     "collectives": { "shift": "exchange", "reduction": "tree" },
//     "topology": "hypercube", "gray_code": true, "per_hop": 0, "flops": 2e5,
//     "sources": ["Gupta thesis, section 6.1"] }
//
// toJson() writes every field. The readers are strict and never throw: wrong
// or missing schema, wrong types, missing or unknown fields, bad JSON text,
// unknown names, and anything verify(const Machine &) rejects come back as
// an Error naming the JSON path, e.g. "message[0].startup: must not be
// negative".
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Machine.h"

#include <nlohmann/json.hpp>

#include <string_view>

namespace dlayout {

inline constexpr const char *kMachineSchema = "dlayout-machine/1";

nlohmann::json toJson(const Machine &m);
Result<Machine> machineFromJson(const nlohmann::json &doc);
Result<Machine> parseMachine(std::string_view text);

} // namespace dlayout
