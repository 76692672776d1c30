//===- validate/PlacementPlan.cpp - Where the estimator communicates ------===//
#include "validate/PlacementPlan.h"

#include "costmodels/LoopDistribution.h"

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
  cost::DependenceLevels dl(p);
  auto paths = cost::distributeLoops(p, dl);
  nlohmann::json byStatement = nlohmann::json::object();
  for (size_t i = 0; i < p.statements.size(); ++i)
    if (!paths[i].empty()) byStatement[p.statements[i].id] = paths[i];
  return nlohmann::json{{"schema", "dlayout-plan/1"}, {"levels", levels}, {"paths", byStatement}};
}

} // namespace dlayout::validate
