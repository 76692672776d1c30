//===- costmodels/EstimateJson.cpp - The "dlayout-estimate/1" document ----===//

#include "costmodels/EstimateJson.h"

#include <cmath>
#include <map>

namespace dlayout {

using Json = nlohmann::json;

namespace {

Json locJson(const SourceLoc &l) {
  Json j = Json::object();
  if (!l.file.empty())
    j["file"] = l.file;
  if (l.line)
    j["line"] = l.line;
  if (l.col)
    j["col"] = l.col;
  return j;
}

/// JSON has no infinities or NaNs; a number is always finite here.
double finite(double v) { return std::isfinite(v) ? v : 0.0; }

} // namespace

nlohmann::json toJson(const Estimate &e) {
  Json terms = Json::array();
  std::map<std::string, std::pair<double, double>> phases;
  std::vector<std::string> order;
  for (const EstimateTerm &t : e.terms) {
    bool comp = t.kind == EstimateTerm::Kind::Computation;
    if (!phases.count(t.phase))
      order.push_back(t.phase);
    auto &ph = phases[t.phase];
    (comp ? ph.first : ph.second) += t.seconds;
    Json j = {{"kind", comp ? "computation" : "communication"},
              {"phase", t.phase},
              {"statement", t.statement},
              {"primitive", t.primitive},
              {"repetitions", finite(t.repetitions)},
              {"seconds", finite(t.seconds)},
              {"rule", t.rule},
              {"loc", locJson(t.loc)}};
    if (!comp) {
      j["array"] = t.array;
      j["message_words"] = finite(t.messageWords);
      j["message_bytes"] = finite(t.messageBytes);
      j["group_size"] = t.groupSize;
      j["placement"] = t.placement.empty() ? Json(nullptr) : Json(t.placement);
      const Senders &from = t.senders;
      Json senders = {{"mesh_dim", from.meshDim >= 0 ? Json(from.meshDim) : Json(nullptr)},
                      {"first", from.first},
                      {"last", from.last},
                      {"share", finite(from.share)}};
      if (from.parts) {
        Json parts = Json::array();
        for (const auto &[d, byCoordinate] : *from.parts) {
          Json by = Json::array();
          for (double v : byCoordinate) by.push_back(finite(v));
          parts.push_back({{"mesh_dim", d}, {"by_coordinate", std::move(by)}});
        }
        senders["parts"] = std::move(parts);
      }
      if (from.joint) {
        Json by = Json::array();
        for (double v : from.joint->byCoordinates) by.push_back(finite(v));
        senders["joint"] = {{"mesh_dims", from.joint->dims},
                            {"extents", from.joint->extents},
                            {"by_coordinates", std::move(by)}};
      }
      j["senders"] = std::move(senders);
    }
    terms.push_back(std::move(j));
  }
  Json phaseList = Json::array();
  for (const auto &id : order)
    phaseList.push_back({{"id", id},
                         {"computation_seconds", finite(phases[id].first)},
                         {"communication_seconds", finite(phases[id].second)}});
  Json warnings = Json::array();
  for (const auto &w : e.warnings)
    warnings.push_back(
        {{"kind", w.kind}, {"message", w.message}, {"loc", locJson(w.loc)}});
  return {{"schema", kEstimateSchema},
          {"machine", e.machine},
          {"mesh", e.mesh},
          {"predicted_seconds", finite(e.predictedSeconds)},
          {"computation_seconds", finite(e.computationSeconds)},
          {"communication_seconds", finite(e.communicationSeconds)},
          {"phases", phaseList},
          {"terms", terms},
          {"warnings", warnings}};
}

} // namespace dlayout
