//===- costmodels/MachinePresets.cpp - Named machine models ---------------===//

#include "costmodels/MachinePresets.h"

#include "model/MachineJson.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace dlayout {

namespace {
std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return out;
}
} // namespace

std::vector<std::string> machinePresetNames() {
  std::vector<std::string> names;
  for (const auto &p : cost::presetTexts())
    names.emplace_back(p.name);
  return names;
}

Result<Machine> machinePreset(std::string_view name) {
  std::string wanted = lower(name);
  for (const auto &p : cost::presetTexts()) {
    if (wanted != p.name)
      continue;
    auto m = parseMachine(p.json);
    if (!m)
      return makeError("machine preset " + std::string(p.name) +
                       " is malformed: " + m.error().message);
    return m;
  }
  std::string known;
  for (const auto &n : machinePresetNames())
    known += (known.empty() ? "" : ", ") + n;
  return makeError("unknown machine '" + std::string(name) +
                   "' (presets: " + known + ")");
}

Result<Machine> loadMachine(std::string_view nameOrPath) {
  for (const auto &p : cost::presetTexts())
    if (lower(nameOrPath) == p.name)
      return machinePreset(nameOrPath);
  std::ifstream in{std::string(nameOrPath)};
  if (!in)
    return machinePreset(nameOrPath); // the "unknown machine" error
  std::stringstream text;
  text << in.rdbuf();
  auto m = parseMachine(text.str());
  if (!m)
    return makeError(m.error().message, SourceLoc{std::string(nameOrPath)});
  return m;
}

} // namespace dlayout
