//===- validate/executor/Sequential.h - The sequential reference -*- C++ -*-===//
//
// Every array whole in one process, every statement instance run in program
// order: what the distributed run is compared with. Same interpreter, same
// fill, no MPI.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "validate/executor/Fill.h"
#include "validate/executor/Interpreter.h"

#include <vector>

namespace dlayout::exec {

class SequentialMemory : public Memory {
public:
  SequentialMemory(const ExecProgram &x, uint64_t seed) : x_(x) {
    for (const auto &a : x.arrays) {
      std::vector<double> v(elementCount(a));
      for (int64_t g = 0; g < static_cast<int64_t>(v.size()); ++g) v[g] = fillValue(seed, a, g);
      data.push_back(std::move(v));
    }
  }
  double read(int a, const int64_t *idx) override {
    int64_t g = linearId(x_.arrays[a], idx);
    if (!inRange(a, idx)) { ++outOfRange; return 0; }
    return data[a][g];
  }
  void write(int a, const int64_t *idx, double v) override {
    if (!inRange(a, idx)) { ++outOfRange; return; }
    data[a][linearId(x_.arrays[a], idx)] = v;
  }
  bool inRange(int a, const int64_t *idx) const {
    const CArray &ar = x_.arrays[a];
    for (size_t k = 0; k < ar.extents.size(); ++k)
      if (idx[k] < ar.lowers[k] || idx[k] >= ar.lowers[k] + ar.extents[k]) return false;
    return true;
  }

  std::vector<std::vector<double>> data; // per array, by linearId
  int64_t outOfRange = 0;

private:
  const ExecProgram &x_;
};

} // namespace dlayout::exec
