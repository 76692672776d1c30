// Shared by the solver tests: extract a sample, advise on the iPSC/2.
#pragma once

#include "analyzer/Extract.h"
#include "costmodels/MachinePresets.h"
#include "solver/Advice.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace dlayout::test {

inline Program sample(const std::string &name, std::map<std::string, int64_t> params) {
  ExtractOptions o;
  // "jacobi" is samples/paradigm/jacobi.F; "kali/relax" samples/kali/relax.F.
  std::string rel = name.find('/') == std::string::npos ? "paradigm/" + name : name;
  o.input = std::string(DLAYOUT_SOURCE_DIR) + "/samples/" + rel + ".F";
  o.params = std::move(params);
  auto p = extract(o);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().str());
  return p.ok() ? std::move(*p) : Program{};
}

/// The advice on `procs` iPSC/2 nodes with the default options (the
/// program's dependences).
inline Advice adviseIpsc2(const Program &p, int64_t procs) {
  auto m = loadMachine("ipsc2");
  EXPECT_TRUE(m.ok());
  AdviseOptions o;
  o.procs = procs;
  auto a = advise(p, *m, o);
  EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().str());
  return a.ok() ? std::move(*a) : Advice{};
}

/// `timeLimit`: the exact optimiser's, for tests that assert what it proves
/// (a loaded or sanitised build must not turn a proof into a time-out).
inline Advice adviseThesis(const Program &p, int64_t procs = 16, bool exact = true,
                           double timeLimit = AdviseOptions{}.timeLimitSeconds) {
  auto m = loadMachine("ipsc2");
  EXPECT_TRUE(m.ok());
  AdviseOptions o;
  o.procs = procs;
  o.timeLimitSeconds = timeLimit;
  o.placement = PlacementSource::SequentialLoops;
  o.exact = exact;
  auto a = advise(p, *m, o);
  EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().str());
  return a.ok() ? std::move(*a) : Advice{};
}

/// The dimension of `array` that lies on mesh dimension `md` with more than
/// one processor, or -1.
inline int dimOn(const Layout &l, const std::string &array, int md) {
  auto it = l.arrays.find(array);
  if (it == l.arrays.end()) return -1;
  for (size_t d = 0; d < it->second.dims.size(); ++d)
    if (it->second.dims[d].distributed() && it->second.dims[d].meshDim == md &&
        l.mesh[md] > 1)
      return int(d);
  return -1;
}

inline DistKind kindOf(const Layout &l, const std::string &array, int dim) {
  return l.arrays.at(array).dims.at(dim).kind;
}

} // namespace dlayout::test
