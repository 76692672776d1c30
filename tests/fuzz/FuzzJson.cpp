//===- tests/fuzz/FuzzJson.cpp - The JSON readers under fuzzing -----------===//
#include "tests/fuzz/FuzzTargets.h"

#include "model/Json.h"
#include "model/LayoutJson.h"
#include "model/MachineJson.h"
#include "model/ProgramJson.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace dlayout::fuzz {

namespace {

[[noreturn]] void broken(const char *what, const std::string &detail) {
  std::fprintf(stderr, "fuzz: property violated: %s: %s\n", what, detail.c_str());
  std::abort();
}

/// A document that reads must verify, be written, and read back to the
/// same document.
template <class T, class Parse>
void roundTrip(const T &value, Parse parse, const char *what) {
  std::string text = dump(toJson(value));
  auto again = parse(text);
  if (!again) broken(what, "its own output does not read back: " + again.error().message);
  if (toJson(*again) != toJson(value)) broken(what, "reading back changes it");
}

std::string_view view(const uint8_t *data, size_t size) {
  return {reinterpret_cast<const char *>(data), size};
}

} // namespace

int model(const uint8_t *data, size_t size) {
  auto p = parseProgram(view(data, size));
  if (!p) {
    if (p.error().message.empty()) broken("model", "an error without a message");
    return 0;
  }
  if (auto ok = verify(*p); !ok) broken("model", "read but does not verify: " + ok.error().message);
  roundTrip(*p, [](std::string_view t) { return parseProgram(t); }, "model");
  return 0;
}

int layout(const uint8_t *data, size_t size) {
  auto l = parseLayout(view(data, size));
  if (!l) {
    if (l.error().message.empty()) broken("layout", "an error without a message");
    return 0;
  }
  if (auto ok = verify(*l); !ok) broken("layout", "read but does not verify: " + ok.error().message);
  if (l->procs() < 1) broken("layout", "a verified mesh with fewer than one processor");
  roundTrip(*l, [](std::string_view t) { return parseLayout(t); }, "layout");
  return 0;
}

int machine(const uint8_t *data, size_t size) {
  auto m = parseMachine(view(data, size));
  if (!m) {
    if (m.error().message.empty()) broken("machine", "an error without a message");
    return 0;
  }
  if (auto ok = verify(*m); !ok) broken("machine", "read but does not verify: " + ok.error().message);
  for (double bytes : {0.0, 1.0, 100.0, 1e6, 1e12}) {
    double t = m->transfer(bytes);
    if (std::isnan(t) || t < 0) broken("machine", "a negative or NaN message time");
  }
  roundTrip(*m, [](std::string_view t) { return parseMachine(t); }, "machine");
  return 0;
}

} // namespace dlayout::fuzz
