//===- tests/fuzz/FuzzTargets.h - What each fuzz target runs ----*- C++ -*-===//
//
// One function a target: it feeds the bytes to a reader (and the analyzer,
// for IR), checks the properties every input must keep, and aborts with a
// message when one does not hold. libFuzzer calls them through
// FuzzMain.cpp (one executable a target, built by tests/fuzz/CMakeLists.txt
// with clang-19 -fsanitize=fuzzer,address,undefined); the normal build
// replays the corpus and the regression inputs through Replay.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>

namespace dlayout::fuzz {

/// dlayout-model/1: parse, verify; what reads must write and read back the same.
int model(const uint8_t *data, size_t size);
/// dlayout-layout/1, likewise.
int layout(const uint8_t *data, size_t size);
/// dlayout-machine/1, likewise, and the message cost at a few sizes.
int machine(const uint8_t *data, size_t size);
/// LLVM IR text or bitcode: parse, verify, run the extract pass; a model it
/// returns must verify.
int ir(const uint8_t *data, size_t size);

} // namespace dlayout::fuzz
