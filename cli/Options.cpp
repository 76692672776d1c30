//===- cli/Options.cpp ----------------------------------------------------===//
#include "cli/Options.h"

#include "costmodels/MachinePresets.h"
#include "model/Json.h"
#include "model/MachineJson.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>

namespace dlayout::cli {

static bool splitPair(const std::string &item, std::string &key, std::string &value) {
  auto eq = item.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == item.size()) return false;
  key = item.substr(0, eq);
  value = item.substr(eq + 1);
  return true;
}

static bool isIdentifier(const std::string &s) {
  if (s.empty() || !(std::isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum((unsigned char)c) || c == '_')) return false;
  return true;
}

template <class T> static bool parseNumber(const std::string &s, T &out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

Result<std::map<std::string, int64_t>> parseParams(const std::vector<std::string> &items) {
  std::map<std::string, int64_t> out;
  for (auto &item : items) {
    std::string key, value;
    int64_t v;
    if (!splitPair(item, key, value) || !isIdentifier(key))
      return makeError("--param '" + item + "': expected NAME=VALUE");
    if (!parseNumber(value, v))
      return makeError("--param '" + item + "': " + value + " is not an integer");
    if (out.count(key)) return makeError("--param " + key + " is given twice");
    out[key] = v;
  }
  return out;
}

Result<std::map<unsigned, double>> parseLineValues(const std::string &option,
                                                   const std::vector<std::string> &items,
                                                   double min, double max) {
  std::map<unsigned, double> out;
  for (auto &item : items) {
    std::string key, value;
    unsigned line;
    double v;
    if (!splitPair(item, key, value) || !parseNumber(key, line) || line == 0)
      return makeError(option + " '" + item + "': expected LINE=VALUE");
    if (!parseNumber(value, v) || !std::isfinite(v) || v < min || v > max)
      return makeError(fmt::format("{} '{}': {} is not a number in [{}, {}]", option, item,
                                   value, min, max));
    out[line] = v;
  }
  return out;
}

Result<Machine> readMachine(const std::string &nameOrPath) {
  std::string lower = nameOrPath;
  for (auto &c : lower) c = char(std::tolower((unsigned char)c));
  for (auto &name : machinePresetNames())
    if (name == lower) return loadMachine(nameOrPath);
  std::error_code ec;
  // Neither a preset nor anything at that path: the "unknown machine" error.
  if (!std::filesystem::exists(std::filesystem::symlink_status(nameOrPath, ec)))
    return loadMachine(nameOrPath);
  auto text = readFile(nameOrPath);
  if (!text) return text.error();
  auto m = parseMachine(*text);
  if (!m) return makeError(m.error().message, SourceLoc{nameOrPath});
  return m;
}

CLI::Validator wholeNumber(int64_t min, int64_t max) {
  return CLI::Validator(
      [min, max](std::string &text) -> std::string {
        int64_t v;
        if (parseNumber(text, v) && v >= min && v <= max) return "";
        return fmt::format("must be a whole number from {} to {}, got '{}'", min, max, text);
      },
      fmt::format("INT in [{} - {}]", min, max));
}

CLI::Validator positiveSeconds(double max) {
  return CLI::Validator(
      [max](std::string &text) -> std::string {
        double v;
        if (parseNumber(text, v) && std::isfinite(v) && v > 0 && v <= max) return "";
        return fmt::format("must be a number of seconds above 0 and at most {}, got '{}'", max,
                           text);
      },
      fmt::format("SECONDS in (0 - {}]", max));
}

CLI::Validator percentage() {
  return CLI::Validator(
      [](std::string &text) -> std::string {
        double v;
        if (parseNumber(text, v) && std::isfinite(v) && v >= 0 && v <= 100) return "";
        return fmt::format("must be a percentage from 0 to 100, got '{}'", text);
      },
      "PERCENT in [0 - 100]");
}

} // namespace dlayout::cli
