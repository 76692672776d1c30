//===- tests/fuzz/Replay.cpp - Run fuzz inputs without libFuzzer ----------===//
//
//   fuzz_replay TARGET PATH...
//
// Feeds every file (directories are walked) to the target's function, as
// the fuzzer would; a violated property aborts. The normal and the
// sanitised builds run it on tests/fuzz/corpus/ and tests/fuzz/regressions/
// (ctest), so each crash the fuzzer found stays fixed.
//
//===----------------------------------------------------------------------===//
#include "tests/fuzz/FuzzTargets.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: fuzz_replay model|layout|machine|ir PATH...\n");
    return 2;
  }
  int (*target)(const uint8_t *, size_t) = nullptr;
  std::string name = argv[1];
  if (name == "model") target = dlayout::fuzz::model;
  else if (name == "layout") target = dlayout::fuzz::layout;
  else if (name == "machine") target = dlayout::fuzz::machine;
#ifndef DLAYOUT_REPLAY_NO_IR
  else if (name == "ir") target = dlayout::fuzz::ir;
#endif
  if (!target) {
    std::fprintf(stderr, "fuzz_replay: unknown target %s\n", argv[1]);
    return 2;
  }
  std::vector<std::filesystem::path> files;
  for (int i = 2; i < argc; ++i) {
    std::filesystem::path p = argv[i];
    if (std::filesystem::is_directory(p)) {
      for (auto &e : std::filesystem::recursive_directory_iterator(p))
        if (e.is_regular_file() && e.path().filename().string()[0] != '.')
          files.push_back(e.path());
    } else {
      files.push_back(p);
    }
  }
  std::sort(files.begin(), files.end());
  for (auto &f : files) {
    std::ifstream in(f, std::ios::binary);
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::fprintf(stderr, "fuzz_replay %s: %s (%zu bytes)\n", name.c_str(), f.c_str(), data.size());
    target(reinterpret_cast<const uint8_t *>(data.data()), data.size());
  }
  std::printf("fuzz_replay %s: %zu inputs, no property violated\n", name.c_str(), files.size());
  return 0;
}
