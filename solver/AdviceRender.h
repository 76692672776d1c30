//===- solver/AdviceRender.h - The advice as text, JSON, HPF and SARIF -*- C++ -*-===//
//
// Renders an Advice to strings (cli/ prints them):
//   text   the mesh, arrays x distribution per dimension, predicted time split
//          into computation and communication, alternatives, decisive
//          constraints with locations and quality measures, warnings;
//   json   "dlayout-advice/1" (docs/schema/advice.json); "recommended" and
//          each alternative are dlayout-layout/1 layouts plus
//          "predicted_seconds", so `dlayout estimate --layout` reads them;
//   hpf    !HPF$ PROCESSORS / DISTRIBUTE / ALIGN directives;
//   sarif  SARIF 2.1.0, one result per decisive constraint and warning.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "solver/Advice.h"

#include <nlohmann/json.hpp>
#include <string>

namespace dlayout {

inline constexpr const char *kAdviceSchema = "dlayout-advice/1";

nlohmann::json toJson(const Advice &a);
std::string renderAdviceText(const Advice &a, const Program &p);
std::string renderAdviceHpf(const Advice &a, const Program &p);
nlohmann::json renderAdviceSarif(const Advice &a, const Program &p);

} // namespace dlayout
