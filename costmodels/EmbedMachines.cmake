# Writes OUT, a C++ source that holds each machines/NAME.json (NAMES is a
# comma-separated list) as a string, so that the presets work from any directory.
# Invoked at build time by costmodels/CMakeLists.txt; NAMES is comma-separated.
string(REPLACE "," ";" NAMES "${NAMES}")
set(body "// Generated from costmodels/machines/*.json by EmbedMachines.cmake.\n")
string(APPEND body "#include \"costmodels/MachinePresets.h\"\n\nnamespace dlayout::cost {\n\n")
string(APPEND body "const std::vector<PresetText> &presetTexts() {\n")
string(APPEND body "  static const std::vector<PresetText> texts = {\n")
foreach(name IN LISTS NAMES)
  file(READ "${DIR}/${name}.json" text)
  string(APPEND body "    {\"${name}\", R\"dlayout_json(${text})dlayout_json\"},\n")
endforeach()
string(APPEND body "  };\n  return texts;\n}\n\n} // namespace dlayout::cost\n")
file(WRITE "${OUT}.tmp" "${body}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
