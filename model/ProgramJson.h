//===- model/ProgramJson.h - The "dlayout-model/1" document -----*- C++ -*-===//
//
// A Program as JSON (docs/schema/model.json). toJson() writes every field,
// empty ones included. The readers are strict and never throw: a wrong or
// missing schema, a value of the wrong type, a missing required field, an
// unknown field, text that is not JSON (or is cut short), and anything
// verify(const Program &) rejects all come back as an Error whose message
// names the JSON path, e.g. "arrays[2].dims[0].extent: must be positive".
// A Program that passes verify() survives toJson -> programFromJson
// unchanged.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Program.h"

#include <nlohmann/json.hpp>

#include <string_view>

namespace dlayout {

inline constexpr const char *kModelSchema = "dlayout-model/1";

nlohmann::json toJson(const Program &p);
Result<Program> programFromJson(const nlohmann::json &doc);
Result<Program> parseProgram(std::string_view text);

} // namespace dlayout
