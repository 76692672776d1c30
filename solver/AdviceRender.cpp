//===- solver/AdviceRender.cpp - Text, JSON, HPF and SARIF advice ----------===//
#include "solver/AdviceRender.h"

#include "model/LayoutJson.h"
#include "solver/Plan.h"

#include <fmt/format.h>

#include <set>

namespace dlayout {

namespace {

std::string secs(double s) {
  if (s == 0) return "0 s";
  if (s >= 1) return fmt::format("{:.4g} s", s);
  if (s >= 1e-3) return fmt::format("{:.4g} ms", s * 1e3);
  return fmt::format("{:.4g} us", s * 1e6);
}

std::string dimText(const DimLayout &d) {
  switch (d.kind) {
  case DistKind::Block: return fmt::format("block@{}", d.meshDim + 1);
  case DistKind::Cyclic: return fmt::format("cyclic@{}", d.meshDim + 1);
  case DistKind::BlockCyclic: return fmt::format("cyclic({})@{}", d.block, d.meshDim + 1);
  case DistKind::Replicated: return "replicated";
  case DistKind::Collapsed: return "*";
  default: return toString(d.kind);
  }
}

nlohmann::json ranked(const RankedLayout &r) {
  auto j = toJson(r.layout);
  j["predicted_seconds"] = r.seconds;
  j["origin"] = r.origin;
  return j;
}

nlohmann::json locJson(const SourceLoc &l) {
  nlohmann::json j = nlohmann::json::object();
  if (!l.file.empty()) j["file"] = l.file;
  if (l.line) j["line"] = l.line;
  if (l.col) j["col"] = l.col;
  return j;
}

std::string hpfDist(const DimLayout &d) {
  switch (d.kind) {
  case DistKind::Block: return "BLOCK";
  case DistKind::Cyclic: return "CYCLIC";
  case DistKind::BlockCyclic: return fmt::format("CYCLIC({})", d.block);
  default: return "*";
  }
}

} // namespace

nlohmann::json toJson(const Advice &a) {
  nlohmann::json j;
  j["schema"] = kAdviceSchema;
  j["procs"] = a.procs;
  j["machine"] = a.machine;
  j["recommended"] = ranked(a.recommended);
  j["recommended"]["computation_seconds"] = a.computationSeconds;
  j["recommended"]["communication_seconds"] = a.communicationSeconds;
  j["alternatives"] = nlohmann::json::array();
  for (auto &r : a.alternatives) j["alternatives"].push_back(ranked(r));
  j["solver"] = {{"heuristic_seconds", a.solver.heuristicSeconds},
                 {"optimal_seconds", a.solver.optimalSeconds},
                 {"gap", a.solver.gap},
                 {"method", a.solver.method},
                 {"proved", a.solver.proved},
                 {"alignment",
                  {{"li_chen_cut", a.solver.liChenCut},
                   {"exact_cut", a.solver.exactCut},
                   {"method", a.solver.alignMethod},
                   {"proved", a.solver.alignProved}}},
                 {"stats",
                  {{"analysis_seconds", a.stats.analysisSeconds},
                   {"passes_seconds", a.stats.passesSeconds},
                   {"align_z3_seconds", a.stats.alignZ3Seconds},
                   {"optimiser_seconds", a.stats.optimiserSeconds},
                   {"optimiser_z3_seconds", a.stats.optimiserZ3Seconds},
                   {"optimiser_variables", a.stats.optimiserVariables},
                   {"optimiser_eliminated", a.stats.optimiserEliminated},
                   {"estimates", a.stats.estimates}}}};
  j["constraints"] = nlohmann::json::array();
  for (auto &c : a.constraints)
    j["constraints"].push_back({{"kind", c.kind},
                                {"arrays", c.arrays},
                                {"quality_seconds", c.qualitySeconds},
                                {"loc", locJson(c.loc)},
                                {"detail", c.detail}});
  j["warnings"] = nlohmann::json::array();
  for (auto &w : a.warnings)
    j["warnings"].push_back({{"kind", w.kind}, {"message", w.message}, {"loc", locJson(w.loc)}});
  return j;
}

std::string renderAdviceText(const Advice &a, const Program &p) {
  const Layout &l = a.recommended.layout;
  std::string out = fmt::format(
      "{} on {} processors, machine {}\nmesh {}\npredicted {}  (computation {}, "
      "communication {})  [{}]\n\n",
      p.sources.empty() ? "program" : p.sources[0], a.procs, a.machine,
      solver::meshString(l.mesh), secs(a.recommended.seconds), secs(a.computationSeconds),
      secs(a.communicationSeconds), a.recommended.origin);
  out += fmt::format("{:<10} {}\n", "array", "distribution per dimension");
  for (auto &arr : p.arrays) {
    auto it = l.arrays.find(arr.name);
    if (it == l.arrays.end()) continue;
    std::string dims;
    for (auto &d : it->second.dims) dims += (dims.empty() ? "" : ", ") + dimText(d);
    out += fmt::format("{:<10} ({})\n", arr.name, dims);
  }
  out += fmt::format("\nsolver: heuristic {}, optimum {} ({}{}), gap {:.2f}%\n",
                     secs(a.solver.heuristicSeconds), secs(a.solver.optimalSeconds),
                     a.solver.method, a.solver.proved ? ", proved" : "", 100 * a.solver.gap);
  out += fmt::format("alignment: Li-Chen cut {}, exact cut {}{}; {} used\n",
                     secs(a.solver.liChenCut), secs(a.solver.exactCut),
                     a.solver.alignProved ? " (proved)" : "", a.solver.alignMethod);
  out += "\nalternatives:\n";
  for (auto &r : a.alternatives) {
    std::string desc;
    for (auto &[name, al] : r.layout.arrays) {
      std::string dims;
      for (auto &d : al.dims) dims += (dims.empty() ? "" : ",") + dimText(d);
      desc += fmt::format(" {}({})", name, dims);
    }
    out += fmt::format("  {:>12}  mesh {:<8} [{}]{}\n", secs(r.seconds),
                       solver::meshString(r.layout.mesh), r.origin, desc);
  }
  out += "\ndecisive constraints:\n";
  for (auto &c : a.constraints) {
    std::string arrays;
    for (auto &n : c.arrays) arrays += (arrays.empty() ? "" : ",") + n;
    out += fmt::format("  {:<12} {:<14} {:>12}  {}{}\n", c.kind, arrays, secs(c.qualitySeconds),
                       c.detail, c.loc.known() ? "  at " + c.loc.str() : "");
  }
  if (!a.warnings.empty()) {
    out += "\nwarnings:\n";
    for (auto &w : a.warnings)
      out += fmt::format("  {}{}: {}\n", w.loc.known() ? w.loc.str() + ": " : "", w.kind,
                         w.message);
  }
  return out;
}

std::string renderAdviceHpf(const Advice &a, const Program &p) {
  const Layout &l = a.recommended.layout;
  std::string shape;
  for (auto n : l.mesh) shape += (shape.empty() ? "" : ",") + std::to_string(n);
  std::string out = fmt::format("!HPF$ PROCESSORS PROCS({})\n", shape);
  // An array that is the first with its exact mapping is DISTRIBUTEd; one
  // with the same distributed dimensions on the same mesh dimensions and
  // kinds is ALIGNed with it.
  std::vector<std::pair<std::string, const ArrayLayout *>> targets;
  for (auto &arr : p.arrays) {
    auto it = l.arrays.find(arr.name);
    if (it == l.arrays.end()) continue;
    const ArrayLayout &al = it->second;
    bool repl = !al.dims.empty() && al.dims[0].kind == DistKind::Replicated;
    if (repl) {
      out += fmt::format("!     {} is replicated on every processor\n", arr.name);
      continue;
    }
    const std::pair<std::string, const ArrayLayout *> *target = nullptr;
    for (auto &t : targets) {
      const ArrayLayout &tl = *t.second;
      bool ok = true;
      for (size_t m = 0; m < l.mesh.size() && ok; ++m) {
        const DimLayout *x = nullptr, *y = nullptr;
        for (auto &d : al.dims) if (d.distributed() && d.meshDim == int(m)) x = &d;
        for (auto &d : tl.dims) if (d.distributed() && d.meshDim == int(m)) y = &d;
        ok = (x == nullptr) == (y == nullptr) &&
             (!x || (x->kind == y->kind && x->block == y->block));
      }
      if (ok) { target = &t; break; }
    }
    if (target && target->first != arr.name) {
      std::string src, dst;
      const ArrayLayout &tl = *target->second;
      std::vector<std::string> tdims(tl.dims.size(), "*");
      for (size_t d = 0; d < al.dims.size(); ++d) {
        std::string v = "I" + std::to_string(d + 1);
        src += (d ? "," : "") + (al.dims[d].distributed() ? v : std::string(":"));
        if (al.dims[d].distributed())
          for (size_t e = 0; e < tl.dims.size(); ++e)
            if (tl.dims[e].distributed() && tl.dims[e].meshDim == al.dims[d].meshDim)
              tdims[e] = v;
      }
      for (size_t e = 0; e < tdims.size(); ++e) dst += (e ? "," : "") + tdims[e];
      out += fmt::format("!HPF$ ALIGN {}({}) WITH {}({})\n", arr.name, src, target->first, dst);
      continue;
    }
    targets.push_back({arr.name, &al});
    std::string dist;
    bool any = false;
    for (auto &d : al.dims) {
      dist += (dist.empty() ? "" : ",") + hpfDist(d);
      any |= d.distributed();
    }
    if (!any && l.mesh.size() > 0) {
      out += fmt::format("!     {} is not distributed\n", arr.name);
      continue;
    }
    out += fmt::format("!HPF$ DISTRIBUTE {}({}) ONTO PROCS\n", arr.name, dist);
  }
  return out;
}

nlohmann::json renderAdviceSarif(const Advice &a, const Program &p) {
  nlohmann::json results = nlohmann::json::array();
  auto location = [&](const SourceLoc &l) {
    nlohmann::json region = nlohmann::json::object();
    if (l.line) region["startLine"] = l.line;
    if (l.col) region["startColumn"] = l.col;
    nlohmann::json phys = {{"artifactLocation",
                            {{"uri", l.file.empty() ? (p.sources.empty() ? "" : p.sources[0])
                                                    : l.file}}}};
    if (!region.empty()) phys["region"] = region;
    return nlohmann::json::array({{{"physicalLocation", phys}}});
  };
  for (auto &c : a.constraints) {
    std::string arrays;
    for (auto &n : c.arrays) arrays += (arrays.empty() ? "" : ", ") + n;
    nlohmann::json r = {{"ruleId", "dlayout/" + c.kind},
                        {"level", "note"},
                        {"message", {{"text", fmt::format("{} constraint{}{}: {} (quality {:.4g} s)",
                                                          c.kind, arrays.empty() ? "" : " on ",
                                                          arrays, c.detail, c.qualitySeconds)}}},
                        {"properties", {{"quality_seconds", c.qualitySeconds}}}};
    r["locations"] = location(c.loc);
    results.push_back(r);
  }
  for (auto &w : a.warnings) {
    nlohmann::json r = {{"ruleId", "dlayout/" + w.kind},
                        {"level", "warning"},
                        {"message", {{"text", w.message}}}};
    r["locations"] = location(w.loc);
    results.push_back(r);
  }
  std::set<std::string> ruleIds;
  for (auto &r : results) ruleIds.insert(r["ruleId"].get<std::string>());
  nlohmann::json rules = nlohmann::json::array();
  for (auto &id : ruleIds) rules.push_back({{"id", id}});
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs",
           nlohmann::json::array(
               {{{"tool", {{"driver", {{"name", "dlayout"},
                                       {"rules", rules}}}}},
                 {"results", results}}})}};
}

} // namespace dlayout
