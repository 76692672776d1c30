//===- validate/PlacementPlan.cpp - Where the estimator communicates ------===//
#include "validate/PlacementPlan.h"

namespace dlayout::validate {

Result<nlohmann::json> placementPlan(const Program &p, const cost::AnalysisOptions &opts) {
  auto facts = cost::analyzeProgram(p, opts);
  if (!facts) return facts.error();
  nlohmann::json levels = nlohmann::json::object();
  for (const auto &sf : facts->statements) {
    const Statement &s = *sf.stmt;
    nlohmann::json row = nlohmann::json::array();
    for (size_t r = 0; r < s.refs.size(); ++r) {
      nlohmann::json v = nullptr;
      for (const auto &rhs : sf.rhs)
        if (rhs.ref.ref == &s.refs[r]) v = rhs.commLevel;
      row.push_back(v);
    }
    levels[s.id] = row;
  }
  return nlohmann::json{{"schema", "dlayout-plan/1"}, {"levels", levels}};
}

} // namespace dlayout::validate
