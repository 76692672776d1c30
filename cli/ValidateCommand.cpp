//===- cli/ValidateCommand.cpp - dlayout validate -------------------------===//
//
// Runs a program under its recommended layout, the advisor's alternatives,
// the baselines, or layouts from a file, over MPI (simulated with SimGrid or
// real with mpirun), checks every result against a sequential run and sets
// the measured times beside the predicted ones (validate/Validate.h).
//
//===----------------------------------------------------------------------===//
#include "cli/Command.h"
#include "cli/Options.h"
#include "costmodels/MachinePresets.h"
#include "model/Json.h"
#include "model/LayoutJson.h"
#include "solver/Advice.h"
#include "validate/Validate.h"

#include <fmt/format.h>

#include <cstdlib>
#include <iostream>
#include <memory>


namespace dlayout::cli {

namespace {

std::string describe(const Layout &l) {
  std::string s;
  for (size_t k = 0; k < l.mesh.size(); ++k) s += (k ? "x" : "") + std::to_string(l.mesh[k]);
  for (const auto &[name, al] : l.arrays) {
    s += " " + name + "(";
    for (size_t k = 0; k < al.dims.size(); ++k) {
      const auto &d = al.dims[k];
      s += k ? "," : "";
      switch (d.kind) {
      case DistKind::Block: s += "B"; break;
      case DistKind::Cyclic: s += "C"; break;
      case DistKind::BlockCyclic: s += "BC" + std::to_string(d.block); break;
      case DistKind::GeneralBlock: s += "GB"; break;
      case DistKind::Indirect: s += "I"; break;
      case DistKind::Replicated: s += "R"; break;
      case DistKind::Collapsed: s += "*"; break;
      }
      if (d.distributed()) s += std::to_string(d.meshDim);
    }
    s += ")";
  }
  return s;
}

std::string renderText(const validate::ValidationReport &r) {
  std::string out = fmt::format("validation on {} processors, backend {}, machine {}{}\n\n", r.procs,
                                r.backend, r.machine,
                                r.platform.empty() || r.platform == r.machine
                                    ? std::string()
                                    : ", simulating machine " + r.platform);
  out += fmt::format("{:<3} {:<28} {:>12} {:>12} {:>9} {:>12} {:>12} {:<9}\n", "", "layout",
                     "predicted", "measured", "messages", "bytes", "pred.bytes", "correct");
  for (auto &x : r.runs) {
    out += fmt::format("{:<3} {:<28} {:>12} {:>12} {:>9} {:>12} {:>12.0f} {:<9}\n",
                       x.recommended ? "*" : "", x.name, formatSeconds(x.predictedSeconds),
                       formatSeconds(x.measuredSeconds), x.messages, x.bytes, x.predictedBytes,
                       x.correct ? "yes" : "NO");
    out += "    " + describe(x.layout) + "\n";
    for (auto &s : x.skippedPhases) out += "    phase not executed: " + s + "\n";
    for (auto &s : x.discrepancies) out += "    not as the sequential run: " + s + "\n";
  }
  out += "\n";
  out += r.spearman ? fmt::format("Spearman rank correlation (predicted vs measured): {:.3f}\n",
                                  *r.spearman)
                    : std::string("Spearman rank correlation: n/a (fewer than two distinct runs)\n");
  if (r.recommendedOverBest)
    out += fmt::format("recommended layout measured / best measured: {:.3f}\n",
                       *r.recommendedOverBest);
  out += "(bytes: sent by the busiest processor; * = recommended)\n";
  return out;
}

Result<std::vector<validate::LayoutCase>> layoutsFromFile(const std::string &path) {
  auto text = dlayout::readFile(path);
  if (!text) return text.error();
  auto doc = jsonio::parse(*text);
  if (!doc) return makeError(path + ": " + doc.error().message);
  if (!doc->is_array()) return makeError(path + ": expected a JSON list of layout documents");
  std::vector<validate::LayoutCase> out;
  for (size_t i = 0; i < doc->size(); ++i) {
    auto l = layoutFromJson((*doc)[i]);
    if (!l) return makeError(path + ": [" + std::to_string(i) + "]: " + l.error().message);
    out.push_back({"file-" + std::to_string(i + 1), *l, false});
  }
  return out;
}

} // namespace

Command addValidateCommand(CLI::App &app, const std::vector<std::string> &flags) {
  struct Options : ProgramOptions {
    int64_t procs = 0;
    std::string layouts = "recommended", backend = "simgrid", machine = "ipsc2",
                format = "text", output, hostfile, platform;
    uint64_t seed = 1;
    double timeout = 0, advisorTime = 5;
    double cyclicMargin = 100 * AdviseOptions{}.cyclicMargin;
    EstimatorReading reading;
  };
  auto o = std::make_shared<Options>();
  auto *cmd = app.add_subcommand(
      "validate", "Run a program under layouts over MPI (simulated with SimGrid or real), check "
                  "the results against a sequential run and compare measured with predicted times");
  addProgramOptions(cmd, *o);
  addProcsOption(cmd, o->procs, "Number of processors P");
  cmd->add_option("--layouts", o->layouts,
                  "recommended, alternatives (the recommended one and the advisor's "
                  "alternatives), all (those and the baselines: 1-D BLOCK on each dimension, "
                  "BLOCK x BLOCK), or a FILE holding a JSON list of layouts")
      ->capture_default_str()->type_name("WHICH|FILE");
  cmd->add_option("--backend", o->backend, "simgrid (smpirun on a platform generated from the "
                                           "machine) or mpi (mpirun, real time)")
      ->check(CLI::IsMember({"simgrid", "mpi"}))->capture_default_str();
  addMachineOption(cmd, o->machine);
  CLI::Option *platformOption = cmd->add_option("--platform", o->platform,
                  "simgrid backend: simulate this machine (a preset or a dlayout-machine/1 file: "
                  "its platform, topology and operation times) while --machine predicts; default "
                  "--machine itself")
      ->type_name("NAME|FILE");
  addPlacementOptions(cmd, o->reading);
  addCyclicMarginOption(cmd, o->cyclicMargin);
  cmd->add_option("--hostfile", o->hostfile, "mpi backend: mpirun's hostfile")->type_name("FILE");
  cmd->add_option("--seed", o->seed, "Seed of the initial data")->capture_default_str();
  cmd->add_option("--timeout", o->timeout,
                  "Seconds a layout's job may run (default: 120 + 10 x its prediction)");
  cmd->add_option("--format", o->format, "text or json (dlayout-validation/1)")
      ->check(CLI::IsMember({"json", "text"}))->capture_default_str();
  addOutputOption(cmd, o->output);
  return {cmd, [o, &flags, platformOption] {
            auto machine = readMachine(o->machine);
            if (!machine) return fail(machine.error());
            std::optional<Machine> platform;
            if (platformOption->count() > 0) { // given, even as "": read (and refused)
              if (o->backend != "simgrid")
                return fail(makeError("--platform is for --backend simgrid (mpi measures the "
                                      "machine it runs on)"));
              auto pm = readMachine(o->platform);
              if (!pm) return fail(pm.error());
              platform = std::move(*pm);
            }
            auto P = loadProgram(*o, flags);
            if (!P) return fail(P.error());
            validate::ValidateOptions vo;
            vo.procs = o->procs;
            vo.backend = o->backend == "mpi" ? validate::Backend::Mpi : validate::Backend::SimGrid;
            vo.seed = o->seed;
            vo.platform = std::move(platform);
            vo.timeoutSeconds = o->timeout;
            o->reading.applyTo(vo.estimate);
            JobPrograms jp = jobPrograms();
            vo.executorDir = jp.executorDir;
            vo.smpirun = jp.smpirun;
            vo.mpirun = jp.mpirun;
            vo.mpirunArgs = jp.mpirunArgs;
            if (!o->hostfile.empty()) vo.mpirunArgs.insert(vo.mpirunArgs.end(), {"--hostfile", o->hostfile});
            if (const char *f = std::getenv("DLAYOUT_VALIDATE_FAULT")) vo.fault = f; // tests
            if (isatty(2))
              vo.progress = [](size_t i, size_t n, const std::string &name) {
                std::cerr << fmt::format("\rdlayout: validating layout {}/{}: {:<40}", i + 1, n,
                                         name.substr(0, 40))
                          << std::flush;
              };

            std::vector<validate::LayoutCase> cases;
            if (o->layouts == "recommended" || o->layouts == "alternatives" ||
                o->layouts == "all") {
              AdviseOptions ao;
              ao.procs = o->procs;
              o->reading.applyTo(ao);
              ao.timeLimitSeconds = o->advisorTime;
              ao.cyclicMargin = o->cyclicMargin / 100;
              auto a = advise(*P, *machine, ao);
              if (!a) return fail(a.error());
              cases.push_back({"recommended", a->recommended.layout, true});
              if (o->layouts != "recommended")
                for (size_t k = 0; k < a->alternatives.size(); ++k)
                  cases.push_back({"alternative-" + std::to_string(k + 1),
                                   a->alternatives[k].layout, false});
              if (o->layouts == "all")
                for (auto &b : validate::baselineLayouts(*P, o->procs))
                  if (std::none_of(cases.begin(), cases.end(),
                                   [&](auto &c) { return c.layout == b.layout; }))
                    cases.push_back(b);
            } else {
              auto f = layoutsFromFile(o->layouts);
              if (!f) return fail(f.error());
              cases = std::move(*f);
            }
            auto rep = validate::validateLayouts(*P, *machine, cases, vo);
            if (vo.progress) std::cerr << "\r" << std::string(80, ' ') << "\r" << std::flush;
            if (!rep) return fail(rep.error());
            std::string out = o->format == "json" ? dlayout::dump(validate::toJson(*rep))
                                                  : renderText(*rep);
            if (auto s = emit(out, o->output); !s) return fail(s.error());
            bool allCorrect = std::all_of(rep->runs.begin(), rep->runs.end(),
                                          [](auto &r) { return r.correct; });
            return allCorrect ? 0 : 4;
          }};
}

} // namespace dlayout::cli
