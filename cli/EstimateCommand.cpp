//===- cli/EstimateCommand.cpp - dlayout estimate -------------------------===//
//
// The predicted run time of a program under one layout on a machine, with
// its breakdown into computation and each communication term (thesis ch. 3
// and 4; costmodels/Estimate.h).
//
//===----------------------------------------------------------------------===//
#include "cli/Command.h"
#include "cli/Options.h"
#include "costmodels/Estimate.h"
#include "costmodels/EstimateJson.h"
#include "costmodels/MachinePresets.h"
#include "model/Json.h"
#include "model/LayoutJson.h"

#include <fmt/format.h>

#include <cmath>
#include <memory>

namespace dlayout::cli {

namespace {

std::string renderEstimate(const Estimate &e, const Program &p, const std::string &layoutFile) {
  std::string mesh;
  for (auto n : e.mesh) mesh += (mesh.empty() ? "" : "x") + std::to_string(n);
  std::string out = fmt::format(
      "{} under {} on {} processors ({}), machine {}\n"
      "predicted {}  (computation {}, communication {})\n\n",
      p.sources.empty() ? "program" : p.sources[0], layoutFile,
      [&] { int64_t n = 1; for (auto m : e.mesh) n *= m; return n; }(), mesh, e.machine,
      formatSeconds(e.predictedSeconds), formatSeconds(e.computationSeconds),
      formatSeconds(e.communicationSeconds));
  out += fmt::format("{:<6} {:<6} {:<24} {:>12} {:>10} {:>6} {:>12} {:<6} {}\n", "phase",
                     "stmt", "term", "seconds", "bytes", "group", "repetitions",
                     "placed", "where");
  for (auto &t : e.terms) {
    bool comm = t.kind == EstimateTerm::Kind::Communication;
    std::string what = comm ? t.primitive + "(" + t.array + ")" : "computation";
    out += fmt::format("{:<6} {:<6} {:<24} {:>12} {:>10} {:>6} {:>12.6g} {:<6} {}\n",
                       t.phase, t.statement, what, formatSeconds(t.seconds),
                       comm ? fmt::format("{:.0f}", t.messageBytes) : "",
                       comm ? std::to_string(t.groupSize) : "", t.repetitions,
                       t.placement.empty() ? "-" : t.placement, t.loc.str());
  }
  return out;
}

} // namespace

Command addEstimateCommand(CLI::App &app, const std::vector<std::string> &flags) {
  struct Options : ProgramOptions {
    int64_t procs = 0;
    std::string layout, machine = "ipsc2", format = "text", output;
    EstimatorReading reading;
  };
  auto o = std::make_shared<Options>();
  auto *cmd = app.add_subcommand(
      "estimate", "Predict the run time of a program under a layout (dlayout-layout/1) "
                  "on a machine, with its computation and communication terms");
  addProgramOptions(cmd, *o);
  addProcsOption(cmd, o->procs, "Number of processors P (the layout's mesh must have P in all)");
  cmd->add_option("--layout", o->layout, "The layout file (dlayout-layout/1)")
      ->required()->type_name("FILE");
  addMachineOption(cmd, o->machine);
  addPlacementOptions(cmd, o->reading);
  addIrregularOption(cmd, o->reading);
  cmd->add_option("--format", o->format, "text or json (dlayout-estimate/1)")
      ->check(CLI::IsMember({"json", "text"}))->capture_default_str();
  addOutputOption(cmd, o->output);
  return {cmd, [o, &flags] {
            auto machine = readMachine(o->machine);
            if (!machine) return fail(machine.error());
            auto text = readFile(o->layout);
            if (!text) return fail(text.error());
            auto layout = parseLayout(*text);
            if (!layout) return fail(makeError(o->layout + ": " + layout.error().message));
            auto P = loadProgram(*o, flags);
            if (!P) return fail(P.error());
            EstimateOptions opts;
            opts.procs = o->procs;
            o->reading.applyTo(opts);
            auto e = estimate(*P, *layout, *machine, opts);
            if (!e) return fail(makeError(o->layout + ": " + e.error().message));
            // An infinite or NaN time is no prediction: never print it as one.
            if (!std::isfinite(e->predictedSeconds) || !std::isfinite(e->computationSeconds) ||
                !std::isfinite(e->communicationSeconds))
              return fail(makeError("the predicted time is not a finite number: the program's "
                                    "sizes or the machine's costs are too large to estimate"));
            std::string out = o->format == "json" ? dump(toJson(*e))
                                                  : renderEstimate(*e, *P, o->layout);
            if (auto s = emit(out, o->output); !s) return fail(s.error());
            return 0;
          }};
}

} // namespace dlayout::cli
