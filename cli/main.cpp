//===- cli/main.cpp - The dlayout command ---------------------------------===//
//
// The only place that talks to the terminal: parses the command line, runs
// the library, and turns a library Error into one line
//   dlayout: error: [file:line:col: ]message
// on standard error with exit status 1 (2 for a malformed command line).
// Warnings of the analysis go to standard error as "dlayout: warning: ...".
//
//===----------------------------------------------------------------------===//
#include "analyzer/Extract.h"
#include "cli/ModelText.h"
#include "cli/Options.h"
#include "model/Json.h"
#include "model/ProgramJson.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>

using namespace dlayout;

namespace {

int fail(const Error &e) {
  std::cerr << "dlayout: error: " << e.str() << "\n";
  return 1;
}

void warn(const Warning &w) {
  std::cerr << "dlayout: warning: " << (w.loc.known() ? w.loc.str() + ": " : "")
            << w.message << "\n";
}

/// Writes to -o FILE, or standard output.
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

struct CommonOptions {
  std::string program;
  std::vector<std::string> params, functions, probabilities, tripCounts;
  std::string format = "json";
  std::string output;
};

void addProgramOptions(CLI::App *cmd, CommonOptions &o) {
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
                  "(default 1)")->type_name("LINE=P");
  cmd->add_option("--trip-count", o.tripCounts,
                  "Expected trip count of the loop on a source line whose bounds "
                  "are not affine (default 10, with a warning)")->type_name("LINE=N");
}

Result<Program> loadProgram(const CommonOptions &o, const std::vector<std::string> &flags) {
  ExtractOptions x;
  x.input = o.program;
  x.functions = o.functions;
  x.compilerFlags = flags;
  auto params = cli::parseParams(o.params);
  if (!params) return params.error();
  x.params = *params;
  auto probs = cli::parseLineValues("--probability", o.probabilities, 0, 1);
  if (!probs) return probs.error();
  x.probabilities = *probs;
  auto trips = cli::parseLineValues("--trip-count", o.tripCounts, 0, 1e15);
  if (!trips) return trips.error();
  x.tripCounts = *trips;
  return extract(x);
}

int runExtract(const CommonOptions &o, const std::vector<std::string> &flags) {
  auto P = loadProgram(o, flags);
  if (!P) return fail(P.error());
  for (auto &w : P->warnings) warn(w);
  std::string text = o.format == "text" ? cli::renderModel(*P) : dump(toJson(*P));
  if (auto s = emit(text, o.output); !s) return fail(s.error());
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  // Everything after `--` goes to the compiler, as with clang-tidy.
  std::vector<std::string> args(argv + 1, argv + argc), flags;
  if (auto it = std::find(args.begin(), args.end(), "--"); it != args.end()) {
    flags.assign(it + 1, args.end());
    args.erase(it, args.end());
  }

  CLI::App app{"dlayout: data-layout advisor for distributed-memory programs.\n"
               "Extracts the loop nests, arrays, subscripts and dependences of a "
               "Fortran or C program (compiled with flang-new-19 / clang-19), and "
               "recommends how to distribute its arrays.\n"
               "Flags after `--` are passed to the compiler."};
  app.name("dlayout");
  app.require_subcommand(1);
  app.set_version_flag("--version", "dlayout 0.1.0 (LLVM 19)");

  CommonOptions extractOpts;
  auto *extractCmd = app.add_subcommand(
      "extract", "Analyse a program and print its model (loops, arrays, references, "
                 "subscript classes, dependences)");
  addProgramOptions(extractCmd, extractOpts);
  extractCmd->add_option("--format", extractOpts.format, "json (dlayout-model/1) or text")
      ->check(CLI::IsMember({"json", "text"}));
  extractCmd->add_option("-o,--output", extractOpts.output, "Write to FILE instead of standard output")
      ->type_name("FILE");

  std::vector<const char *> cargs = {argv[0]};
  for (auto &a : args) cargs.push_back(a.c_str());
  try {
    app.parse((int)cargs.size(), cargs.data());
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    std::cerr << "dlayout: error: " << e.what() << "\n"
              << "Run 'dlayout --help' for usage.\n";
    return 2;
  }

  try {
    if (*extractCmd) return runExtract(extractOpts, flags);
  } catch (const std::exception &e) {
    // Library code returns errors; this is a bug, still reported in one line.
    std::cerr << "dlayout: error: internal error: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
