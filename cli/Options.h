//===- cli/Options.h - Parsing the values of command-line options -*- C++ -*-===//
//
// The option values dlayout's subcommands share: NAME=VALUE parameters,
// LINE=VALUE annotations. Malformed values are errors naming the option.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Machine.h"
#include "model/Result.h"

#include <CLI/CLI.hpp>

#include <map>
#include <string>
#include <vector>

namespace dlayout::cli {

/// "N=512" pairs: NAME an identifier, VALUE an integer.
Result<std::map<std::string, int64_t>> parseParams(const std::vector<std::string> &items);

/// "LINE=VALUE" pairs: LINE a positive integer, VALUE a number in
/// [min, max].
Result<std::map<unsigned, double>> parseLineValues(const std::string &option,
                                                   const std::vector<std::string> &items,
                                                   double min, double max);

/// --machine: a preset by name, or else a dlayout-machine/1 file read with
/// readFile (so a FIFO, a device or a directory is refused, not waited on
/// or read as empty); its errors name the file.
Result<Machine> readMachine(const std::string &nameOrPath);

/// The largest processor count --procs takes (the solver enumerates the
/// meshes of P; far beyond any machine, far below where counts overflow).
inline constexpr int64_t kMaxProcs = int64_t(1) << 24;

/// A CLI11 check: a whole number in [min, max] ("must be a whole number
/// from MIN to MAX, got 'TEXT'"), before CLI11 converts it.
CLI::Validator wholeNumber(int64_t min, int64_t max);
/// A CLI11 check: a finite number in (0, max].
CLI::Validator positiveSeconds(double max);
/// A CLI11 check: a finite number in [0, 100].
CLI::Validator percentage();

} // namespace dlayout::cli
