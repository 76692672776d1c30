//===- cli/main.cpp - The dlayout command ---------------------------------===//
//
// The only place that talks to the terminal: parses the command line, runs
// the library, and turns a library Error into one line
//   dlayout: error: [file:line:col: ]message
// on standard error with exit status 1 (2 for a malformed command line).
// Warnings of the analysis go to standard error as "dlayout: warning: ...".
//
//===----------------------------------------------------------------------===//
#include "cli/Command.h"
#include "cli/HugePages.h"

#include <algorithm>
#include <iostream>
#include <malloc.h>

using namespace dlayout::cli;

int main(int argc, char **argv) {
  // glibc gives an allocation over 128 KiB its own pages and unmaps them
  // when it is freed, and returns the heap's free top to the system: each
  // Z3 context (two 8 MB tables), the optimiser's threads and the
  // estimator's tables then fault in fresh pages, some 3,000 per advise
  // (page faults are dear on virtual machines). A run of dlayout is short:
  // keep what it freed for the next allocation (bench/advice/speed.py).
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  // Under tcmalloc, its heap in huge pages (HugePages.h).
  useHugePages();
  // Everything after `--` goes to the compiler, as with clang-tidy.
  std::vector<std::string> args(argv + 1, argv + argc), flags;
  if (auto it = std::find(args.begin(), args.end(), "--"); it != args.end()) {
    flags.assign(it + 1, args.end());
    args.erase(it, args.end());
  }
  // `-np P`, as mpirun spells it (calibrate): CLI11 takes one-letter short
  // options only, so it becomes --np.
  for (auto &a : args)
    if (a == "-np") a = "--np";

  CLI::App app{"dlayout: data-layout advisor for distributed-memory programs.\n"
               "Extracts the loop nests, arrays, subscripts and dependences of a "
               "Fortran or C program (compiled with flang-new-19 / clang-19), "
               "estimates the run time of array layouts on a machine model, and "
               "recommends how to distribute the arrays.\n"
               "Flags after `--` are passed to the compiler."};
  app.name("dlayout");
  app.require_subcommand(1);
  app.set_version_flag("--version", "dlayout 0.1.0 (LLVM 19)");
  std::vector<Command> commands = {addExtractCommand(app, flags),
                                   addEstimateCommand(app, flags),
                                   addAdviseCommand(app, flags),
                                   addValidateCommand(app, flags),
                                   addCalibrateCommand(app)};

  std::vector<const char *> cargs = {argv[0]};
  for (auto &a : args) cargs.push_back(a.c_str());
  try {
    app.parse((int)cargs.size(), cargs.data());
  } catch (const CLI::Success &e) {
    return app.exit(e); // --help, --version
  } catch (const CLI::ParseError &e) {
    std::cerr << "dlayout: error: " << e.what() << "\n"
              << "Run 'dlayout --help' for usage.\n";
    return 2;
  }

  try {
    for (auto &c : commands)
      if (*c.app) return c.run();
  } catch (const std::exception &e) {
    // Library code returns errors; this is a bug, still reported in one line.
    std::cerr << "dlayout: error: internal error: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
