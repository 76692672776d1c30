//===- validate/PlacementPlan.cpp - Where the estimator communicates ------===//
#include "validate/PlacementPlan.h"

#include "costmodels/LoopDistribution.h"

namespace dlayout::validate {

namespace {

/// The order of the statement's loops (levels as written, from 1) that the
/// estimator prices (Fig. 4.8): the loops it is parallel with respect to
/// outside its innermost recurrence brought inside that loop, the others
/// in place; empty where that is the order as written.
std::vector<int> loopOrder(const cost::StatementFacts &sf) {
  const int m = static_cast<int>(sf.parallel.size());
  int last = -1; // the innermost loop S is not parallel with respect to
  for (int l = 0; l < m; ++l)
    if (!sf.parallel[l]) last = l;
  std::vector<int> order;
  for (int l = 0; l <= last; ++l)
    if (!sf.parallel[l]) order.push_back(l + 1);
  for (int l = 0; l < last; ++l)
    if (sf.parallel[l]) order.push_back(l + 1);
  for (int l = last + 1; l < m; ++l) order.push_back(l + 1);
  for (int l = 0; l < m; ++l)
    if (order[l] != l + 1) return order;
  return {};
}

} // namespace

Result<nlohmann::json> placementPlan(const Program &p, const cost::AnalysisOptions &opts) {
  auto facts = cost::analyzeProgram(p, opts);
  if (!facts) return facts.error();
  nlohmann::json levels = nlohmann::json::object(), indexLevels = nlohmann::json::object(),
                 orders = nlohmann::json::object();
  for (const auto &sf : facts->statements) {
    const Statement &s = *sf.stmt;
    if (auto order = loopOrder(sf); !order.empty()) orders[s.id] = order;
    // The level of the reference priced as `r`, or null: an index reference
    // equal to one priced before stands for it (ProgramAnalysis.cpp).
    auto levelOf = [&](const Reference &r) {
      nlohmann::json v = nullptr;
      for (const auto &rhs : sf.rhs)
        if (rhs.ref.ref && rhs.ref.ref->array == r.array &&
            rhs.ref.ref->subscripts == r.subscripts && (v.is_null() || rhs.ref.ref == &r))
          v = rhs.commLevel;
      return v;
    };
    nlohmann::json row = nlohmann::json::array(), indexRow = nlohmann::json::array();
    for (size_t r = 0; r < s.refs.size(); ++r) {
      nlohmann::json v = nullptr, subs = nlohmann::json::array();
      for (const auto &rhs : sf.rhs)
        if (rhs.ref.ref == &s.refs[r]) v = rhs.commLevel;
      for (const Subscript &sub : s.refs[r].subscripts)
        subs.push_back(sub.cls == SubscriptClass::Indirect && !sub.index.empty()
                           ? levelOf(sub.index.front())
                           : nlohmann::json(nullptr));
      row.push_back(v);
      indexRow.push_back(subs);
    }
    levels[s.id] = row;
    indexLevels[s.id] = indexRow;
  }
  cost::DependenceLevels dl(p);
  auto paths = cost::distributeLoops(p, dl);
  nlohmann::json byStatement = nlohmann::json::object();
  for (size_t i = 0; i < p.statements.size(); ++i)
    if (!paths[i].empty()) byStatement[p.statements[i].id] = paths[i];
  return nlohmann::json{{"schema", "dlayout-plan/1"}, {"levels", levels},
                        {"index_levels", indexLevels}, {"paths", byStatement},
                        {"orders", orders}};
}

} // namespace dlayout::validate
