//===- cli/Command.h - What every dlayout subcommand shares -----*- C++ -*-===//
//
// Each subcommand lives in a file of its own (ExtractCommand.cpp, ...) and
// has one entry point, add<Name>Command(app, compilerFlags), which declares
// its options on the CLI11 app and returns the function that runs it once
// the command line is parsed. Options that read a program (PROGRAM, --param,
// --function, --probability, --trip-count) and the ways of reporting are
// shared here; only cli/ prints.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/Communication.h"
#include "costmodels/ProgramAnalysis.h"
#include "model/Program.h"

#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace z3 {
class context;
}

namespace dlayout::cli {

/// A parsed subcommand: its CLI11 app and what to run (exit status).
struct Command {
  CLI::App *app = nullptr;
  std::function<int()> run;
};

Command addExtractCommand(CLI::App &app, const std::vector<std::string> &compilerFlags);
Command addEstimateCommand(CLI::App &app, const std::vector<std::string> &compilerFlags);
Command addAdviseCommand(CLI::App &app, const std::vector<std::string> &compilerFlags);
Command addValidateCommand(CLI::App &app, const std::vector<std::string> &compilerFlags);
Command addCalibrateCommand(CLI::App &app);

/// The options that name and read a program.
struct ProgramOptions {
  std::string program;
  std::vector<std::string> params, functions, probabilities, tripCounts;
};
void addProgramOptions(CLI::App *cmd, ProgramOptions &o);
/// Extracts (or reads) the program; warnings are printed. `solver`: as
/// extract()'s.
Result<Program> loadProgram(const ProgramOptions &o, const std::vector<std::string> &flags,
                            std::unique_ptr<z3::context> *solver = nullptr);

/// The options several commands share, worded once.
void addProcsOption(CLI::App *cmd, int64_t &procs, const std::string &help);
void addMachineOption(CLI::App *cmd, std::string &machine);
/// How the estimator reads the program, as the user chose it with
/// --placement and --no-scalar-communication (EstimateOptions::placement,
/// ::scalarCommunication).
struct EstimatorReading {
  std::string placement = "dependences";
  bool noScalarCommunication = false;
  std::string irregular = "inspector-executor";
  /// Sets o.placement, o.scalarCommunication and o.irregular
  /// (EstimateOptions, AdviseOptions).
  template <class Options> void applyTo(Options &o) const {
    if (placement == "thesis") o.placement = cost::PlacementSource::SequentialLoops;
    o.scalarCommunication = !noScalarCommunication;
    o.irregular = irregular == "collective" ? IrregularStrategy::Collective
                  : irregular == "cheapest" ? IrregularStrategy::Cheapest
                                            : IrregularStrategy::InspectorExecutor;
  }
};
void addPlacementOptions(CLI::App *cmd, EstimatorReading &r);
/// --irregular (estimate and advise; validate's executor runs the
/// inspector/executor only).
void addIrregularOption(CLI::App *cmd, EstimatorReading &r);
void addOutputOption(CLI::App *cmd, std::string &output);
/// --cyclic-margin PERCENT (advise, and validate's advised layouts): `percent`
/// holds AdviseOptions::cyclicMargin's default, times 100, until it is given.
void addCyclicMarginOption(CLI::App *cmd, double &percent);

/// "dlayout: error: ..." on standard error; returns 1.
int fail(const Error &e);
void warn(const Warning &w);
/// Writes `text` to `output` (a file), or standard output when empty or "-".
Status emit(const std::string &text, const std::string &output);

/// Seconds in the unit that suits them: "1.234 s", "12.3 ms", "45.6 us", "80 ns", "0 s".
std::string formatSeconds(double s);

/// What validate and calibrate start: the directory of the executors and
/// probes, smpirun and mpirun (with the arguments mpirun needs here) -- the
/// build's, unless DLAYOUT_EXEC_DIR, DLAYOUT_SMPIRUN or DLAYOUT_MPIRUN name
/// others (a path, relative ones made absolute, or a name looked up on PATH).
struct JobPrograms {
  std::string executorDir, smpirun, mpirun;
  std::vector<std::string> mpirunArgs;
};
JobPrograms jobPrograms();

} // namespace dlayout::cli
