//===- cli/Command.cpp ----------------------------------------------------===//
#include "cli/Command.h"

#include "analyzer/Extract.h"
#include "cli/Options.h"
#include "costmodels/MachinePresets.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <unistd.h>

#ifndef DLAYOUT_EXEC_DIR
#define DLAYOUT_EXEC_DIR ""
#endif
#ifndef DLAYOUT_SMPIRUN
#define DLAYOUT_SMPIRUN "smpirun"
#endif
#ifndef DLAYOUT_MPIRUN
#define DLAYOUT_MPIRUN "mpirun"
#endif

namespace dlayout::cli {

void addProcsOption(CLI::App *cmd, int64_t &procs, const std::string &help) {
  cmd->add_option("--procs", procs, help)->required()->check(wholeNumber(1, kMaxProcs));
}

void addMachineOption(CLI::App *cmd, std::string &machine) {
  cmd->add_option("--machine", machine,
                  "Machine model: a preset (" +
                      fmt::format("{}", fmt::join(machinePresetNames(), ", ")) +
                      ") or a dlayout-machine/1 file")
      ->capture_default_str()
      ->type_name("NAME|FILE");
}

void addPlacementOptions(CLI::App *cmd, EstimatorReading &r) {
  cmd->add_option("--placement", r.placement,
                  "Where communication is placed: 'dependences' (the program's "
                  "dependences) or 'thesis' (every sequential loop a recurrence, "
                  "as PARADIGM saw programs through Parafrase-2, costed with the "
                  "thesis's own formulas: no message coalescing, owners by "
                  "probability, Eq. 3.2's iteration counts)")
      ->check(CLI::IsMember({"dependences", "thesis"}))
      ->capture_default_str();
  cmd->add_flag("--no-scalar-communication", r.noScalarCommunication,
                "Do not cost the operands of scalar assignments that are not reductions, as "
                "the thesis (section 5.4.1); by default they are costed, since every processor "
                "runs such an assignment (always off with --placement thesis)");
}

void addIrregularOption(CLI::App *cmd, EstimatorReading &r) {
  cmd->add_option("--irregular", r.irregular,
                  "How references known only at run time (X(COL(K))) are priced: "
                  "'inspector-executor' (Kali/PARTI's run-time resolution, which "
                  "`dlayout validate` runs), 'collective' (the thesis's Table 4.4; "
                  "always so with --placement thesis) or 'cheapest' (the cheaper of the two)")
      ->check(CLI::IsMember({"inspector-executor", "collective", "cheapest"}))
      ->capture_default_str();
}

void addOutputOption(CLI::App *cmd, std::string &output) {
  cmd->add_option("-o,--output", output, "Write to FILE instead of standard output")
      ->type_name("FILE");
}

void addCyclicMarginOption(CLI::App *cmd, double &percent) {
  cmd->add_option("--cyclic-margin", percent,
                  "Percent by which a layout with CYCLIC or CYCLIC(k) distributions must be "
                  "estimated faster than the fastest without them to be recommended (ties go to "
                  "BLOCK; 0: the fastest estimated)")
      ->check(percentage())
      ->capture_default_str();
}

int fail(const Error &e) {
  std::cerr << "dlayout: error: " << e.str() << "\n";
  return 1;
}

void warn(const Warning &w) {
  std::cerr << "dlayout: warning: " << (w.loc.known() ? w.loc.str() + ": " : "")
            << w.message << "\n";
}

Status emit(const std::string &text, const std::string &output) {
  if (output.empty() || output == "-") {
    std::cout << text;
    std::cout.flush();
    return success();
  }
  std::ofstream f(output, std::ios::binary);
  if (!f) return makeError("cannot write " + output);
  f << text;
  f.close();
  if (!f) return makeError("cannot write " + output);
  return success();
}

void addProgramOptions(CLI::App *cmd, ProgramOptions &o) {
  cmd->add_option("PROGRAM", o.program,
                  "Fortran (.f .f90 .F .F90) or C/C++ source, LLVM IR (.ll .bc), "
                  "or a model (.json)")->required();
  cmd->add_option("--param", o.params,
                  "Bind a size: NAME=VALUE (a symbolic size in the program, or a "
                  "preprocessor macro the source is sized with); repeatable")
      ->type_name("NAME=VALUE");
  cmd->add_option("--function", o.functions,
                  "Analyse only this function (repeatable; default: all)")
      ->type_name("NAME");
  cmd->add_option("--probability", o.probabilities,
                  "Reaching probability of the statements on a source line "
                  "(default 1; where it is 1, the estimator counts how often "
                  "guards on loop indices hold)")->type_name("LINE=P");
  cmd->add_option("--trip-count", o.tripCounts,
                  "Expected trip count of the loop on a source line whose bounds "
                  "are not affine (default 10, or fewer where the loop's index "
                  "subscripts an array dimension that holds fewer, or that dimension's "
                  "extent over the enclosing loop's trips where the loop runs over "
                  "row-pointer segments, DO K = R(I), R(I+1)-1; with a warning)")
      ->type_name("LINE=N");
}

Result<Program> loadProgram(const ProgramOptions &o, const std::vector<std::string> &flags,
                            std::unique_ptr<z3::context> *solver) {
  ExtractOptions x;
  x.input = o.program;
  x.functions = o.functions;
  x.compilerFlags = flags;
  auto params = parseParams(o.params);
  if (!params) return params.error();
  x.params = *params;
  auto probs = parseLineValues("--probability", o.probabilities, 0, 1);
  if (!probs) return probs.error();
  x.probabilities = *probs;
  auto trips = parseLineValues("--trip-count", o.tripCounts, 0, 1e15);
  if (!trips) return trips.error();
  x.tripCounts = *trips;
  auto P = extract(x, solver);
  if (P)
    for (auto &w : P->warnings) warn(w);
  return P;
}

std::string formatSeconds(double s) {
  if (s == 0) return "0 s";
  if (s >= 1) return fmt::format("{:.4g} s", s);
  if (s >= 1e-3) return fmt::format("{:.4g} ms", s * 1e3);
  if (s >= 1e-6) return fmt::format("{:.4g} us", s * 1e6);
  return fmt::format("{:.4g} ns", s * 1e9);
}

JobPrograms jobPrograms() {
  // The jobs start in run directories of their own (validate/Launch.cpp): a
  // relative path is the caller's, made absolute here. A name without a
  // slash is looked up on PATH.
  auto env = [](const char *name, const char *fallback, bool directory) {
    const char *v = std::getenv(name);
    llvm::SmallString<256> path(v && *v ? v : fallback);
    if (!path.empty() && (directory || path.find('/') != llvm::StringRef::npos))
      llvm::sys::fs::make_absolute(path);
    return path.str().str();
  };
  JobPrograms j;
  j.executorDir = env("DLAYOUT_EXEC_DIR", DLAYOUT_EXEC_DIR, true);
  j.smpirun = env("DLAYOUT_SMPIRUN", DLAYOUT_SMPIRUN, false);
  j.mpirun = env("DLAYOUT_MPIRUN", DLAYOUT_MPIRUN, false);
  j.mpirunArgs = {"--oversubscribe"};
  if (geteuid() == 0) j.mpirunArgs.push_back("--allow-run-as-root");
  return j;
}

} // namespace dlayout::cli
