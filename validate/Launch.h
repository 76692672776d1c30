//===- validate/Launch.h - Run a job with a time limit ----------*- C++ -*-===//
//
// launch(argv, options) runs a program (smpirun, mpirun) directly from an
// argument vector - never through a shell - in a process group of its own,
// with standard output and error in files, and waits at most `timeoutSeconds`;
// past it the whole group (the launcher and every rank it started) gets
// SIGTERM, then SIGKILL after a grace period. The outcome says how it ended;
// a program that cannot be started is an Error.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Result.h"

#include <map>
#include <string>
#include <vector>

namespace dlayout::validate {

struct LaunchOptions {
  double timeoutSeconds = 60;
  std::string stdoutPath, stderrPath; // "" = /dev/null
  std::string workingDirectory;       // "" = inherit
  std::map<std::string, std::string> environment; // added to ours
};

struct LaunchOutcome {
  bool timedOut = false;
  int exitCode = -1;  // when it exited
  int signal = 0;     // when a signal ended it
  double seconds = 0; // wall time
  bool ok() const { return !timedOut && signal == 0 && exitCode == 0; }
};

Result<LaunchOutcome> launch(const std::vector<std::string> &argv, const LaunchOptions &o);

/// A new private directory for a job's files (mode 0700, a name nobody else
/// has): $TMPDIR (or /tmp)/dlayout-PURPOSE-XXXXXX.
Result<std::string> makeRunDirectory(const std::string &purpose);

/// Writes text to path (created or truncated).
Status writeText(const std::string &path, const std::string &text);

} // namespace dlayout::validate
