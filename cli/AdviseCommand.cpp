//===- cli/AdviseCommand.cpp - dlayout advise -----------------------------===//
//
// The recommended layout of a program on P processors (solver/Advice.h): the
// PARADIGM passes, the exact optimiser, the alternatives and the decisive
// constraints, as text, dlayout-advice/1 JSON, HPF directives or SARIF 2.1.0.
//
//===----------------------------------------------------------------------===//
#include "cli/Command.h"
#include "cli/Options.h"
#include "costmodels/MachinePresets.h"
#include "model/Json.h"
#include "solver/Advice.h"
#include "solver/AdviceRender.h"

#include <fmt/format.h>
#include <z3++.h>

#include <cmath>
#include <memory>

namespace dlayout::cli {

Command addAdviseCommand(CLI::App &app, const std::vector<std::string> &flags) {
  struct Options : ProgramOptions {
    int64_t procs = 0;
    double timeLimit = 5;
    unsigned alternatives = 5;
    double cyclicMargin = 100 * AdviseOptions{}.cyclicMargin;
    bool noExact = false;
    std::string machine = "ipsc2", format = "text", output;
    EstimatorReading reading;
  };
  auto o = std::make_shared<Options>();
  auto *cmd = app.add_subcommand(
      "advise", "Recommend a data layout for every array on P processors, with its "
                "predicted time, alternatives and the constraints that decided it");
  addProgramOptions(cmd, *o);
  addProcsOption(cmd, o->procs, "Number of processors P");
  addMachineOption(cmd, o->machine);
  addPlacementOptions(cmd, o->reading);
  addIrregularOption(cmd, o->reading);
  cmd->add_option("--format", o->format, "text, json (dlayout-advice/1), sarif or hpf")
      ->check(CLI::IsMember({"text", "json", "sarif", "hpf"}))->capture_default_str();
  cmd->add_option("--time-limit", o->timeLimit, "Seconds for the Z3 stages (the exact alignment cut gets a "
                  "quarter, at most 1 s; the exact optimiser the rest)")
      ->check(positiveSeconds(1e6))->capture_default_str();
  cmd->add_option("--alternatives", o->alternatives, "How many alternatives to list")
      ->check(wholeNumber(0, 1000))->capture_default_str();
  addCyclicMarginOption(cmd, o->cyclicMargin);
  cmd->add_flag("--no-exact", o->noExact, "Only the PARADIGM passes: Li-Chen alignment, no Z3 (no exact "
                "cut, no exact optimiser)");
  addOutputOption(cmd, o->output);
  return {cmd, [o, &flags] {
            auto machine = readMachine(o->machine);
            if (!machine) return fail(machine.error());
            // The dependences' Z3 context, reused for the alignment cut.
            std::unique_ptr<z3::context> solver;
            auto P = loadProgram(*o, flags, &solver);
            if (!P) return fail(P.error());
            AdviseOptions opts;
            opts.solver = solver.get();
            opts.procs = o->procs;
            opts.timeLimitSeconds = o->timeLimit;
            opts.alternatives = o->alternatives;
            opts.cyclicMargin = o->cyclicMargin / 100;
            opts.exact = !o->noExact;
            o->reading.applyTo(opts);
            auto a = advise(*P, *machine, opts);
            if (!a) return fail(a.error());
            // An infinite or NaN time is no prediction: never print it as one.
            if (!std::isfinite(a->recommended.seconds) || !std::isfinite(a->computationSeconds) ||
                !std::isfinite(a->communicationSeconds))
              return fail(makeError("the predicted time is not a finite number: the program's "
                                    "sizes or the machine's costs are too large to estimate"));
            for (auto &w : a->warnings) warn(w);
            std::string out;
            if (o->format == "json") out = dump(toJson(*a));
            else if (o->format == "sarif") out = dump(renderAdviceSarif(*a, *P));
            else if (o->format == "hpf") out = renderAdviceHpf(*a, *P);
            else out = renderAdviceText(*a, *P);
            if (auto s = emit(out, o->output); !s) return fail(s.error());
            return 0;
          }};
}

} // namespace dlayout::cli
