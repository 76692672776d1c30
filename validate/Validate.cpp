//===- validate/Validate.cpp - Run layouts and set them beside predictions ===//
#include "validate/Validate.h"

#include "model/Json.h"
#include "model/LayoutJson.h"
#include "model/MachineJson.h"
#include "model/ProgramJson.h"
#include "validate/Launch.h"
#include "validate/Platform.h"
#include "validate/PlacementPlan.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <unistd.h>

namespace dlayout::validate {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// The busiest processor's predicted messages and bytes sent, as the
/// measured figures are the busiest rank's: each term counts on the
/// processors that send it (EstimateTerm::senders; dflux's boundary Shifts
/// leave from every block but the last), for its share of the repetitions
/// and its part of the data (Senders::parts: none from a line that holds
/// none), the maximum over the mesh of each.
std::pair<double, double> busiestPredicted(const std::vector<const EstimateTerm *> &terms,
                                           const std::vector<int64_t> &mesh) {
  double messages = 0, bytes = 0;
  for (const std::vector<int64_t> &at : meshCoordinates(mesh)) {
    Sent all;
    for (const EstimateTerm *t : terms) {
      Sent one = sentAt(t->primitive, t->groupSize, t->repetitions, t->messageBytes, t->senders, at);
      all.messages += one.messages;
      all.bytes += one.bytes;
    }
    messages = std::max(messages, all.messages);
    bytes = std::max(bytes, all.bytes);
  }
  return {messages, bytes};
}

/// The line of a job's standard error that says what went wrong: the first
/// report of the executor or the runtime ("dlayout-exec: error: rank R: ...",
/// "dlayout: error: rank R: ...": the rank that found the problem prints
/// first), else the last line that mentions an error (SimGrid's "Parse error
/// at ...", mpirun's complaints), else the last line.
std::string jobErrorLine(const std::string &path) {
  std::ifstream f(path);
  std::string line, own, best, last;
  while (std::getline(f, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty() || line.find_first_not_of("-= ") == std::string::npos) continue;
    last = line;
    if (own.empty() && (line.rfind("dlayout-exec: error:", 0) == 0 ||
                        line.rfind("dlayout: error:", 0) == 0))
      own = line;
    if (line.find("error") != std::string::npos || line.find("rror:") != std::string::npos)
      best = line;
  }
  std::string out = !own.empty() ? own : !best.empty() ? best : last;
  // SimGrid's log prefix ("[0.000000] ./src/xbt/exception.cpp:95:
  // [xbt_exception/ERROR] ") says nothing to the user.
  static const std::regex simgridPrefix(R"(^\[[^\]]*\] \S+:[0-9]+: \[[^\]]*\] )");
  out = std::regex_replace(out, simgridPrefix, "", std::regex_constants::format_first_only);
  while (!out.empty() && out.back() == '.') out.pop_back();
  if (out.size() > 400) out = out.substr(0, 400) + "...";
  return out;
}

std::string secondsText(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", s);
  return buf;
}

/// Why a run is not correct, from the executor's comparisons with the
/// sequential reference: each array or scalar that differs or was not
/// fully gathered, and reads of elements no fetch brought.
std::vector<std::string> discrepancies(const json &execution) {
  std::vector<std::string> out;
  for (const bool arrays : {true, false})
    for (const json &c : execution.value(arrays ? "arrays" : "scalars", json::array())) {
      const std::string status = c.value("status", std::string());
      const std::string what = (arrays ? "array " : "scalar ") + c.value("name", std::string("?"));
      char diff[64];
      std::snprintf(diff, sizeof diff, "%.3g", c.value("max_rel_diff", 0.0));
      if (status == "mismatch" && arrays)
        out.push_back(what + ": " + std::to_string(c.value("mismatches", int64_t(0))) + " of " +
                      std::to_string(c.value("compared", int64_t(0))) +
                      " elements differ from the sequential run's (largest relative difference " +
                      diff + ")");
      else if (status == "mismatch")
        out.push_back(what + " differs from the sequential run's (relative difference " + diff +
                      ")");
      else if (status == "incomplete")
        out.push_back(what + ": some elements were not gathered from any rank");
    }
  if (int64_t misses = execution.value("unfetched_reads", int64_t(0)); misses > 0)
    out.push_back(std::to_string(misses) + " reads of elements no fetch brought, or out of bounds");
  if (int64_t outside = execution.value("out_of_range", int64_t(0)); outside > 0)
    out.push_back("the sequential run itself took " + std::to_string(outside) +
                  " subscripts out of the arrays' bounds");
  if (out.empty()) out.push_back("the executor reported a difference it did not describe");
  return out;
}

} // namespace

std::optional<double> spearman(const std::vector<double> &a, const std::vector<double> &b) {
  const size_t n = a.size();
  if (n < 2 || b.size() != n) return std::nullopt;
  auto ranks = [n](const std::vector<double> &v) {
    std::vector<size_t> idx(n);
    for (size_t i = 0; i < n; ++i) idx[i] = i;
    std::sort(idx.begin(), idx.end(), [&](size_t x, size_t y) { return v[x] < v[y]; });
    std::vector<double> r(n);
    for (size_t i = 0; i < n;) {
      size_t j = i;
      while (j + 1 < n && v[idx[j + 1]] == v[idx[i]]) ++j;
      for (size_t k = i; k <= j; ++k) r[idx[k]] = (i + j) / 2.0 + 1;
      i = j + 1;
    }
    return r;
  };
  auto ra = ranks(a), rb = ranks(b);
  double ma = 0, mb = 0;
  for (size_t i = 0; i < n; ++i) { ma += ra[i]; mb += rb[i]; }
  ma /= n;
  mb /= n;
  double sab = 0, saa = 0, sbb = 0;
  for (size_t i = 0; i < n; ++i) {
    sab += (ra[i] - ma) * (rb[i] - mb);
    saa += (ra[i] - ma) * (ra[i] - ma);
    sbb += (rb[i] - mb) * (rb[i] - mb);
  }
  if (saa == 0 || sbb == 0) return std::nullopt;
  return sab / std::sqrt(saa * sbb);
}

std::vector<LayoutCase> baselineLayouts(const Program &p, int64_t procs) {
  std::vector<LayoutCase> out;
  size_t maxRank = 0;
  for (auto &a : p.arrays) maxRank = std::max(maxRank, a.dims.size());
  auto has = [&](const Layout &l) {
    return std::any_of(out.begin(), out.end(), [&](auto &c) { return c.layout == l; });
  };
  for (size_t d = 0; d < maxRank; ++d) {
    Layout l;
    l.mesh = {procs};
    for (auto &a : p.arrays) {
      ArrayLayout al;
      al.dims.assign(a.dims.size(), DimLayout{});
      if (!a.dims.empty()) {
        size_t k = std::min(d, a.dims.size() - 1);
        al.dims[k].kind = DistKind::Block;
        al.dims[k].meshDim = 0;
      }
      l.arrays[a.name] = al;
    }
    if (!has(l)) out.push_back({"block-dim" + std::to_string(d + 1), l, false});
  }
  if (maxRank >= 2 && procs > 1) {
    int64_t p1 = static_cast<int64_t>(std::sqrt(static_cast<double>(procs)));
    while (p1 > 1 && procs % p1) --p1;
    int64_t p0 = procs / p1; // MPI_Dims_create: non-increasing
    Layout l;
    l.mesh = {p0, p1};
    for (auto &a : p.arrays) {
      ArrayLayout al;
      al.dims.assign(a.dims.size(), DimLayout{});
      for (size_t k = 0; k < a.dims.size() && k < 2; ++k) {
        al.dims[k].kind = DistKind::Block;
        al.dims[k].meshDim = static_cast<int>(k);
      }
      l.arrays[a.name] = al;
    }
    if (p1 > 1 && !has(l))
      out.push_back({"block-block-" + std::to_string(p0) + "x" + std::to_string(p1), l, false});
  }
  return out;
}

Result<ValidationReport> validateLayouts(const Program &p, const Machine &m,
                                         const std::vector<LayoutCase> &layouts,
                                         const ValidateOptions &o) {
  ValidationReport rep;
  rep.backend = o.backend == Backend::SimGrid ? "simgrid" : "mpi";
  rep.machine = m.name;
  rep.procs = o.procs;
  if (o.platform && o.backend != Backend::SimGrid)
    return makeError("a platform other than the machine is simulated by the simgrid backend only "
                     "(mpi measures the machine it runs on)");
  // What runs: the simulated machine (simgrid), else the predicting one.
  const Machine &simulated = o.platform ? *o.platform : m;
  if (o.backend == Backend::SimGrid) rep.platform = simulated.name;
  EstimateOptions eo = o.estimate;
  eo.procs = o.procs;
  auto est = Estimator::build(p, eo);
  if (!est) return est.error();
  // Refuse what does not fit before anything runs.
  std::vector<Estimate> estimates;
  for (const auto &c : layouts) {
    if (auto s = validateLayout(p, c.layout, o.procs); !s)
      return makeError("layout " + c.name + ": " + s.error().message);
    auto e = est->evaluate(c.layout, m);
    if (!e) return makeError("layout " + c.name + ": " + e.error().message);
    estimates.push_back(std::move(*e));
  }
  std::optional<Platform> platform;
  if (o.backend == Backend::SimGrid) {
    auto pf = platformFor(simulated, static_cast<int>(o.procs));
    if (!pf) return pf.error();
    platform = std::move(*pf);
  }
  auto plan = placementPlan(p, analysisOptions(eo));
  if (!plan) return plan.error();
  // Test hooks (docs/validate.md, "Faults"): "platform" corrupts the
  // platform file SimGrid reads; the others go to the executor.
  const bool corruptPlatform = o.fault == "platform";
  if (corruptPlatform && o.backend != Backend::SimGrid)
    return makeError("the fault 'platform' needs the simgrid backend");
  const std::string launcher = o.backend == Backend::SimGrid ? o.smpirun : o.mpirun;
  const std::string launcherName = fs::path(launcher).filename().string();
  const std::string exe = o.executorDir + (o.backend == Backend::SimGrid
                                                ? "/dlayout-exec-simgrid" : "/dlayout-exec-mpi");
  if (access(exe.c_str(), X_OK) != 0)
    return makeError("the executor " + exe + " is missing (build the dlayout_exec targets)");

  for (size_t i = 0; i < layouts.size(); ++i) {
    const LayoutCase &c = layouts[i];
    if (o.progress) o.progress(i, layouts.size(), c.name);
    auto dir = makeRunDirectory("validate");
    if (!dir) return dir.error();
    const std::string d = *dir;
    auto cleanup = [&] {
      if (!o.keepRunDirectories) {
        std::error_code ec;
        fs::remove_all(d, ec);
      }
    };
    for (auto [name, text] :
         {std::pair<std::string, std::string>{"model.json", dlayout::dump(toJson(p))},
          {"layout.json", dlayout::dump(dlayout::toJson(c.layout))},
          {"plan.json", dlayout::dump(*plan)},
          {"machine.json", dlayout::dump(dlayout::toJson(simulated))}}) {
      if (auto s = writeText(d + "/" + name, text); !s) { cleanup(); return s.error(); }
    }
    std::vector<std::string> argv;
    LaunchOptions lo;
    lo.stdoutPath = d + "/stdout.txt";
    lo.stderrPath = d + "/stderr.txt";
    lo.workingDirectory = d;
    const double predicted = estimates[i].predictedSeconds;
    lo.timeoutSeconds = o.timeoutSeconds > 0 ? o.timeoutSeconds : 120 + 10 * predicted;
    if (platform) {
      std::string hosts;
      for (auto &h : platform->hosts) hosts += h + "\n";
      // The "platform" fault: the document cut off halfway, which SimGrid's
      // XML parser refuses before any rank starts.
      const std::string xml =
          corruptPlatform ? platform->xml.substr(0, platform->xml.size() / 2) : platform->xml;
      if (auto s = writeText(d + "/platform.xml", xml); !s) { cleanup(); return s.error(); }
      if (auto s = writeText(d + "/hosts.txt", hosts); !s) { cleanup(); return s.error(); }
      argv = {o.smpirun, "-platform", d + "/platform.xml", "-hostfile", d + "/hosts.txt",
              "-np", std::to_string(o.procs)};
      argv.push_back("--log=root.thres:error");
    } else {
      argv = {o.mpirun, "-np", std::to_string(o.procs)};
      for (auto &a : o.mpirunArgs) argv.push_back(a);
      lo.environment["OMPI_MCA_orte_tmpdir_base"] = d;
    }
    argv.insert(argv.end(), {exe, "--model", d + "/model.json", "--layout", d + "/layout.json",
                             "--plan", d + "/plan.json", "--machine", d + "/machine.json",
                             "--out", d + "/result.json", "--seed", std::to_string(o.seed)});
    if (platform) argv.insert(argv.end(), {"--speed", std::to_string(platform->speed)});
    if (!o.fault.empty() && !corruptPlatform) argv.insert(argv.end(), {"--fault", o.fault});
    auto out = launch(argv, lo);
    if (!out) {
      // The launcher could not be started (not installed, not on PATH, not
      // executable): nothing ran.
      cleanup();
      return makeError("layout " + c.name + ": " +
                       (platform ? "SimGrid did not start: " : "MPI did not start: ") +
                       out.error().message + "; nothing was measured");
    }
    if (!out->ok()) {
      const std::string job = "the job (" + launcherName + ")";
      std::string why = out->timedOut
          ? "did not finish within the time limit of " + std::to_string(int(lo.timeoutSeconds)) +
                " s (a rank hung?); " + job + " was killed"
          : out->signal ? job + " was killed by signal " + std::to_string(out->signal) +
                              " after " + secondsText(out->seconds) + " s"
                        : job + " failed with exit status " + std::to_string(out->exitCode) +
                              " after " + secondsText(out->seconds) + " s";
      std::string tail = jobErrorLine(lo.stderrPath);
      cleanup();
      return makeError("layout " + c.name + ": " + why + (tail.empty() ? "" : ": " + tail) +
                       "; nothing was measured");
    }
    auto text = dlayout::readFile(d + "/result.json");
    if (!text) {
      std::string tail = jobErrorLine(lo.stderrPath);
      cleanup();
      return makeError("layout " + c.name + ": the job (" + launcherName +
                       ") exited 0 but wrote no result" + (tail.empty() ? "" : ": " + tail) +
                       "; nothing was measured");
    }
    auto doc = jsonio::parse(*text);
    cleanup();
    if (!doc || !doc->is_object() || doc->value("schema", "") != "dlayout-execution/1")
      return makeError("layout " + c.name + ": the job's result is unreadable");
    const json &r = *doc;
    LayoutRun run;
    run.name = c.name;
    run.layout = c.layout;
    run.recommended = c.recommended;
    run.execution = r;
    run.measuredSeconds = r.at("measured_seconds").get<double>();
    run.messages = r.at("messages").get<int64_t>();
    run.totalBytes = r.at("bytes").get<int64_t>();
    run.refinements = r.at("refinements").get<int>();
    run.correct = r.at("correct").get<bool>();
    if (!run.correct) run.discrepancies = discrepancies(r);
    std::set<std::string> executed;
    for (auto &ph : r.at("phases")) {
      if (ph.at("executed").get<bool>()) executed.insert(ph.at("id").get<std::string>());
      else run.skippedPhases.push_back(ph.at("id").get<std::string>() + ": " +
                                       ph.value("reason", std::string()));
    }
    for (auto &rk : r.at("ranks")) {
      int64_t sent = 0, msgs = 0;
      for (auto &ph : rk.at("phases")) {
        sent += ph.at("bytes_sent").get<int64_t>();
        msgs += ph.at("messages_sent").get<int64_t>();
      }
      run.bytes = std::max(run.bytes, sent);
      run.busiestMessages = std::max(run.busiestMessages, msgs);
    }
    // Predictions over the phases that ran (all of them unless one was skipped).
    std::vector<const EstimateTerm *> comm;
    for (const auto &t : estimates[i].terms) {
      if (!executed.count(t.phase)) continue;
      run.predictedSeconds += t.seconds;
      if (t.kind == EstimateTerm::Kind::Communication) comm.push_back(&t);
    }
    std::tie(run.predictedMessages, run.predictedBytes) = busiestPredicted(comm, run.layout.mesh);
    rep.runs.push_back(std::move(run));
  }
  std::vector<double> pred, meas;
  for (auto &r : rep.runs) {
    pred.push_back(r.predictedSeconds);
    meas.push_back(r.measuredSeconds);
  }
  rep.spearman = spearman(pred, meas);
  if (rep.runs.size() >= 2) {
    double best = *std::min_element(meas.begin(), meas.end());
    for (auto &r : rep.runs)
      if (r.recommended && best > 0) rep.recommendedOverBest = r.measuredSeconds / best;
  }
  return rep;
}

json toJson(const ValidationReport &r) {
  json runs = json::array();
  for (const auto &x : r.runs) {
    json j = {{"layout", x.name},
              {"layout_document", dlayout::toJson(x.layout)},
              {"recommended", x.recommended},
              {"predicted_seconds", x.predictedSeconds},
              {"measured_seconds", x.measuredSeconds},
              {"messages", x.messages},
              {"bytes", x.bytes},
              {"total_bytes", x.totalBytes},
              {"predicted_bytes", x.predictedBytes},
              {"busiest_messages", x.busiestMessages},
              {"predicted_messages", x.predictedMessages},
              {"correct", x.correct},
              {"refinements", x.refinements},
              {"skipped_phases", x.skippedPhases},
              {"discrepancies", x.discrepancies},
              {"unfetched_reads", x.execution.value("unfetched_reads", int64_t(0))},
              {"arrays", x.execution.value("arrays", json::array())},
              {"scalars", x.execution.value("scalars", json::array())},
              {"phases", x.execution.value("phases", json::array())},
              {"ranks", x.execution.value("ranks", json::array())},
              {"placements", x.execution.value("placements", json::array())}};
    runs.push_back(j);
  }
  json doc = {{"schema", "dlayout-validation/1"}, {"backend", r.backend}, {"procs", r.procs},
              {"machine", r.machine},
              {"spearman", r.spearman ? json(*r.spearman) : json(nullptr)},
              {"recommended_over_best",
               r.recommendedOverBest ? json(*r.recommendedOverBest) : json(nullptr)},
              {"runs", runs}};
  if (!r.platform.empty()) doc["platform"] = r.platform;
  return doc;
}

} // namespace dlayout::validate
