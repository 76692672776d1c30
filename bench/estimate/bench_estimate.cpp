//===- bench/estimate/bench_estimate.cpp - Estimator speed ----------------===//
//
//   bench_estimate MODEL.json [--machine NAME|FILE] [--procs P]
//                  [--evaluations K] [--placement dependences|sequential-loops]
//                  [--out FILE]
//
// Builds the estimate of a program model ("dlayout-model/1", e.g. from
// `dlayout extract`) once, evaluates one layout, then K layouts (default
// 10,000) drawn round-robin from every 1-D/2-D mesh of P processors (default
// 16) x block/cyclic for each mesh dimension, aligning array dimension d with
// mesh dimension d. Prints the timings and the predicted time of each
// distinct layout, and writes them as JSON to FILE.
//
//===----------------------------------------------------------------------===//

#include "costmodels/Estimate.h"
#include "costmodels/MachinePresets.h"
#include "model/ProgramJson.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

using namespace dlayout;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// mesh [N1, N2] with every array's dimension d on mesh dimension d, of
/// kind k[d]; dimensions beyond the mesh collapsed.
Layout candidate(const Program &p, std::vector<int64_t> mesh,
                 std::vector<DistKind> kinds) {
  Layout l;
  l.mesh = mesh;
  for (const auto &a : p.arrays) {
    ArrayLayout al;
    for (size_t d = 0; d < a.dims.size(); ++d) {
      DimLayout dl;
      if (d < mesh.size()) {
        dl.kind = kinds[d];
        dl.meshDim = int(d);
      }
      al.dims.push_back(dl);
    }
    l.arrays[a.name] = al;
  }
  return l;
}

std::string describe(const Layout &l) {
  std::ostringstream s;
  for (size_t i = 0; i < l.mesh.size(); ++i)
    s << (i ? "x" : "") << l.mesh[i];
  s << " ";
  const auto &first = l.arrays.begin()->second;
  for (size_t d = 0; d < first.dims.size() && d < l.mesh.size(); ++d)
    s << (d ? "," : "") << toString(first.dims[d].kind);
  return s.str();
}

int fail(const std::string &m) {
  std::cerr << "bench_estimate: error: " << m << "\n";
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  std::string modelPath, machineName = "ipsc2", outPath;
  int64_t procs = 16, evaluations = 10000;
  PlacementSource placement = PlacementSource::Dependences;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--machine")
      machineName = next();
    else if (a == "--procs")
      procs = std::stoll(next());
    else if (a == "--evaluations")
      evaluations = std::stoll(next());
    else if (a == "--placement")
      placement = next() == "sequential-loops"
                      ? PlacementSource::SequentialLoops
                      : PlacementSource::Dependences;
    else if (a == "--out")
      outPath = next();
    else
      modelPath = a;
  }
  if (modelPath.empty())
    return fail("usage: bench_estimate MODEL.json [--machine M] [--procs P] "
                "[--evaluations K] [--out FILE]");
  std::ifstream in(modelPath);
  if (!in)
    return fail("cannot read " + modelPath);
  std::stringstream text;
  text << in.rdbuf();
  auto program = parseProgram(text.str());
  if (!program)
    return fail(modelPath + ": " + program.error().message);
  auto machine = loadMachine(machineName);
  if (!machine)
    return fail(machine.error().message);

  // Candidates: every 1-D and 2-D factorisation of P, block or cyclic.
  std::vector<Layout> layouts;
  for (DistKind k : {DistKind::Block, DistKind::Cyclic})
    layouts.push_back(candidate(*program, {procs}, {k}));
  for (int64_t n1 = 1; n1 <= procs; ++n1) {
    if (procs % n1)
      continue;
    for (DistKind k1 : {DistKind::Block, DistKind::Cyclic})
      for (DistKind k2 : {DistKind::Block, DistKind::Cyclic})
        layouts.push_back(candidate(*program, {n1, procs / n1}, {k1, k2}));
  }

  EstimateOptions opts;
  opts.procs = procs;
  opts.placement = placement;
  auto t0 = Clock::now();
  auto est = Estimator::build(*program, opts);
  double buildSeconds = since(t0);
  if (!est)
    return fail(est.error().message);

  t0 = Clock::now();
  auto one = est->evaluate(layouts.front(), *machine);
  double oneSeconds = since(t0);
  if (!one)
    return fail(one.error().message);

  t0 = Clock::now();
  double checksum = 0;
  for (int64_t i = 0; i < evaluations; ++i) {
    auto s = est->seconds(layouts[size_t(i) % layouts.size()], *machine);
    if (!s)
      return fail(s.error().message);
    checksum += *s;
  }
  double manySeconds = since(t0);

  nlohmann::json results = nlohmann::json::array();
  std::printf("%-24s %14s %14s %14s\n", "layout", "predicted s", "computation",
              "communication");
  for (const Layout &l : layouts) {
    auto e = est->evaluate(l, *machine);
    if (!e)
      return fail(e.error().message);
    std::printf("%-24s %14.4f %14.4f %14.4f\n", describe(l).c_str(),
                e->predictedSeconds, e->computationSeconds,
                e->communicationSeconds);
    results.push_back({{"layout", describe(l)},
                       {"mesh", l.mesh},
                       {"predicted_seconds", e->predictedSeconds},
                       {"computation_seconds", e->computationSeconds},
                       {"communication_seconds", e->communicationSeconds}});
  }
  double perEval = manySeconds / double(std::max<int64_t>(evaluations, 1));
  std::printf("\nmodel %s: %zu statements, machine %s, %lld processors\n",
              modelPath.c_str(), program->statements.size(),
              machine->name.c_str(), (long long)procs);
  std::printf("build the estimate:     %10.3f ms\n", buildSeconds * 1e3);
  std::printf("evaluate one layout:    %10.3f us (with every term)\n",
              oneSeconds * 1e6);
  std::printf("evaluate %lld layouts: %10.3f ms (%.3f us each)\n",
              (long long)evaluations, manySeconds * 1e3, perEval * 1e6);

  if (!outPath.empty()) {
    nlohmann::json doc = {
        {"benchmark", "estimate"},
        {"model", modelPath},
        {"statements", program->statements.size()},
        {"machine", machine->name},
        {"placement", placement == PlacementSource::SequentialLoops
                          ? "sequential-loops"
                          : "dependences"},
        {"procs", procs},
        {"build_ms", buildSeconds * 1e3},
        {"evaluate_one_us", oneSeconds * 1e6},
        {"evaluations", evaluations},
        {"evaluate_many_ms", manySeconds * 1e3},
        {"evaluate_each_us", perEval * 1e6},
        {"checksum", checksum},
        {"layouts", results}};
    std::ofstream(outPath) << doc.dump(2) << "\n";
  }
  return 0;
}
