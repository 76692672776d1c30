//===- cli/Options.h - Parsing the values of command-line options -*- C++ -*-===//
//
// The option values dlayout's subcommands share: NAME=VALUE parameters,
// LINE=VALUE annotations. Malformed values are errors naming the option.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Result.h"

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

} // namespace dlayout::cli
