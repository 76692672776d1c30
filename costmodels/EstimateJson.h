//===- costmodels/EstimateJson.h - The "dlayout-estimate/1" document -*- C++
//-*-===//
//
//   { "schema": "dlayout-estimate/1", "machine": "ipsc2", "mesh": [16, 1],
//     "predicted_seconds": 515.7, "computation_seconds": ...,
//     "communication_seconds": ...,
//     "phases": [ { "id": "P1", "computation_seconds": ...,
//                   "communication_seconds": ... } ],
//     "terms": [ { "kind": "communication", "phase": "P2", "statement": "S7",
//                  "array": "A", "primitive": "Shift", "message_words": 129,
//                  "message_bytes": 1032, "group_size": 1,
//                  "repetitions": 100, "placement": "L1",
//                  "rule": "Table 4.2 (3): boundary Shift(bd)",
//                  "seconds": 0.12,
//                  "loc": { "file": "jacobi.F", "line": 9, "col": 7 } } ],
//     "warnings": [ { "kind": "trip-count", "message": "...", "loc": {...} } ]
//     }
//
// docs/schema/estimate.json is its JSON Schema.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/Estimate.h"

#include <nlohmann/json.hpp>

namespace dlayout {

inline constexpr const char *kEstimateSchema = "dlayout-estimate/1";

nlohmann::json toJson(const Estimate &e);

} // namespace dlayout
