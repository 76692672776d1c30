//===- costmodels/MachinePresets.h - Named machine models -------*- C++ -*-===//
//
// The machine models dlayout ships, compiled into the library from
// costmodels/machines/NAME.json ("dlayout-machine/1"), so `--machine ipsc2`
// works from any directory:
//   ipsc2   Gupta's iPSC/2 exactly (thesis section 6.1.2, Table 6.1)
//   ncube7  the 128-node NCUBE/7 of the Kali experiments
//   cluster a present-day InfiniBand cluster node
// Each file lists where its numbers come from in "sources".
//
// loadMachine(x) takes a preset name, or else the path of a machine file.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Machine.h"

#include <string>
#include <string_view>
#include <vector>

namespace dlayout {

/// The names of the presets, in a fixed order.
std::vector<std::string> machinePresetNames();
/// The preset called `name` (case-insensitive).
Result<Machine> machinePreset(std::string_view name);
/// A preset by name, or else a "dlayout-machine/1" file at that path.
Result<Machine> loadMachine(std::string_view nameOrPath);

namespace cost {
/// One embedded preset: its name and JSON text (generated at build time).
struct PresetText {
  const char *name;
  const char *json;
};
const std::vector<PresetText> &presetTexts();
} // namespace cost

} // namespace dlayout
