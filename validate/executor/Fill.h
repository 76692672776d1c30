//===- validate/executor/Fill.h - Seeded initial data -----------*- C++ -*-===//
//
// The initial value of every array element and scalar before the program's
// own statements run: a pure function of (seed, name, linear id), so the
// distributed run and the sequential reference start from the same data
// without communicating it. Real values in [0, 1) (rounded to the element
// type); integer arrays used as indices -- of an indirect subscript, or in a
// loop bound whose index subscripts arrays -- get valid indices of the arrays
// they index (CArray::indexLow..indexHigh), other integers 1..100. Row
// pointers (CArray::segments, DO K = R(I), R(I+1) - 1) rise evenly from
// indexLow to indexHigh + 1 (indexHigh where they index a subscript too), so
// that the loop's runs are consecutive segments covering the range, rows of
// equal length to within one, as a compressed matrix's are; random values
// would make runs overlap or vanish.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "validate/executor/ExecProgram.h"
#include "validate/executor/Interpreter.h"

#include <cstdint>
#include <string>

namespace dlayout::exec {

inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

inline uint64_t nameHash(const std::string &s) {
  uint64_t h = 1469598103934665603ULL; // FNV-1a
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return h;
}

inline double fillValue(uint64_t seed, const CArray &a, int64_t linear) {
  uint64_t r = splitmix64(seed ^ nameHash(a.name) ^ splitmix64(static_cast<uint64_t>(linear)));
  bool integer = !a.type.empty() && (a.type[0] == 'i' || a.type[0] == 'u');
  if (a.segments && a.isIndex && a.indexHigh >= a.indexLow && a.extents.size() == 1 && a.extents[0] > 1) {
    const int64_t span = a.indexHigh - a.indexLow + (a.subscripts ? 0 : 1);
    return static_cast<double>(a.indexLow + linear * span / (a.extents[0] - 1));
  }
  if (a.isIndex && a.indexHigh >= a.indexLow)
    return static_cast<double>(a.indexLow +
                               static_cast<int64_t>(r % uint64_t(a.indexHigh - a.indexLow + 1)));
  if (integer) return static_cast<double>(1 + r % 100);
  return storeAs(a.type, static_cast<double>(r >> 11) * 0x1.0p-53);
}

inline double fillScalar(uint64_t seed, const std::string &name, const std::string &type) {
  uint64_t r = splitmix64(seed ^ nameHash("scalar:" + name));
  if (!type.empty() && (type[0] == 'i' || type[0] == 'u')) return static_cast<double>(1 + r % 100);
  return storeAs(type, static_cast<double>(r >> 11) * 0x1.0p-53);
}

} // namespace dlayout::exec
