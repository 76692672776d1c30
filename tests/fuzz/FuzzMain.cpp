//===- tests/fuzz/FuzzMain.cpp - libFuzzer's entry for one target ---------===//
// Compiled once a target with -DDLAYOUT_FUZZ_TARGET=model|layout|machine|ir.
#include "tests/fuzz/FuzzTargets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return dlayout::fuzz::DLAYOUT_FUZZ_TARGET(data, size);
}
