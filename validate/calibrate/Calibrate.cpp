//===- validate/calibrate/Calibrate.cpp - A machine model from measurements ===//
#include "validate/calibrate/Calibrate.h"

#include "model/Json.h"
#include "model/MachineJson.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <set>
#include <tuple>

namespace dlayout::calibrate {

namespace {

std::string g(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

std::string today() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%d", &tm);
  return b;
}

std::string hostList(const std::vector<std::string> &hosts) {
  std::set<std::string> distinct(hosts.begin(), hosts.end());
  std::string s;
  for (auto &h : distinct) s += (s.empty() ? "" : ", ") + h;
  return std::to_string(distinct.size()) + (distinct.size() == 1 ? " host: " : " hosts: ") + s;
}

std::string transferSource(const Calibration &c) {
  const auto &pts = c.probe.pingpong;
  std::string s = "message: Transfer(m) fitted to one-way ping-pong times between ranks 0 and 1 "
                  "(half the round trip of the fastest of up to 15 timed batches) at " +
                  std::to_string(pts.size()) + " sizes from " + g(pts.front().bytes) + " to " +
                  g(pts.back().bytes) + " bytes";
  if (c.refinementPoints)
    s += " (" + std::to_string(c.refinementPoints) + " of them measured between the pieces)";
  s += ", by least squares on the relative error (weights 1/t^2) with segmented least squares "
       "for the pieces (R. Bellman, CACM 4(6), 1961; Kleinberg and Tardos, Algorithm Design, "
       "section 6.3): " +
       std::to_string(c.transfer.pieces.size()) +
       (c.transfer.pieces.size() == 1 ? " piece" : " pieces") + ", RMS relative error " +
       g(100 * c.transfer.rmsRelativeError) + " %";
  for (size_t p = 0; p < c.transfer.lines.size(); ++p)
    s += "; piece " + std::to_string(p + 1) + ": " + std::to_string(c.transfer.lines[p].points) +
         " sizes";
  return s;
}

std::string collectiveSource(const CollectiveChoice &c, int procs) {
  std::string s = "collectives." + c.primitive + ": " + toString(c.algorithm) + ", the Table 6.1 "
                  "algorithm closest to " + c.call + " on " + std::to_string(procs) +
                  " ranks (measured";
  for (size_t i = 0; i < c.bytes.size(); ++i)
    s += (i ? ", " : " ") + g(c.measured[i]) + " s at " + g(c.bytes[i]) + " B";
  s += "; each timed as a loop of (" + c.call + "; MPI_Barrier) less a loop of barriers); RMS " +
       "log error " + g(c.rmsLogError) + ", others:";
  for (auto &[a, e] : c.candidates)
    if (a != c.algorithm) s += std::string(" ") + toString(a) + " " + g(e);
  return s;
}

/// Ping-pong points in increasing size, one per size.
void sortBySize(ProbeResult &r) {
  std::vector<size_t> idx(r.pingpong.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
    return r.pingpong[a].bytes < r.pingpong[b].bytes;
  });
  std::vector<SizeTime> pts;
  std::vector<double> med;
  for (size_t i : idx) {
    if (!pts.empty() && pts.back().bytes == r.pingpong[i].bytes) continue;
    pts.push_back(r.pingpong[i]);
    med.push_back(r.pingpongMedian[i]);
  }
  r.pingpong = std::move(pts);
  r.pingpongMedian = std::move(med);
}

} // namespace

Result<Calibration> calibrate(const Machine &base, const CalibrateOptions &o) {
  Calibration c;
  c.base = base.name;
  const bool simgrid = o.probe.backend == validate::Backend::SimGrid;
  const int procs = o.probe.procs;
  if (o.platform && !simgrid)
    return makeError("a platform other than the base machine is measured by the simgrid backend "
                     "only (mpi measures the machine it runs on)");
  // The machine measured: under SimGrid the one the platform is generated
  // from; on real ranks the base stands for it (its topology).
  const Machine &measured = o.platform ? *o.platform : base;
  if (simgrid) c.platform = measured.name;

  // Mesh neighbours sit on cube neighbours when the machine embeds meshes by
  // Gray code (as the executor's ProcessorMesh does): the shift follows them.
  ProbeOptions probe = o.probe;
  probe.grayRing = measured.topology == Topology::Hypercube && measured.grayCodeEmbedding;
  auto first = runProbe(measured, probe);
  if (!first) return first.error();
  c.probe = std::move(*first);
  c.wallSeconds = c.probe.wallSeconds;
  sortBySize(c.probe);
  c.transfer = fitPiecewise(c.probe.pingpong);
  if (c.transfer.pieces.empty()) return makeError("too few ping-pong sizes to fit Transfer(m)");

  if (o.refine && c.transfer.pieces.size() > 1) {
    auto sizes = refinementSizes(c.probe.pingpong, c.transfer);
    if (!sizes.empty()) {
      ProbeOptions po = probe;
      po.sizes = sizes;
      po.collectives = po.compute = false;
      auto more = runProbe(measured, po);
      if (!more) return more.error();
      c.wallSeconds += more->wallSeconds;
      c.refinementPoints = more->pingpong.size();
      for (size_t i = 0; i < more->pingpong.size(); ++i) {
        c.probe.pingpong.push_back(more->pingpong[i]);
        c.probe.pingpongMedian.push_back(more->pingpongMedian[i]);
      }
      sortBySize(c.probe);
      c.transfer = fitPiecewise(c.probe.pingpong, c.transfer.pieces.size());
      if (c.transfer.pieces.empty()) return makeError("the refined Transfer(m) fit failed");
    }
  }

  Machine m = base;
  m.message = c.transfer.pieces;
  const std::string date = o.date.empty() ? today() : o.date;
  const std::string how = "dlayout calibrate --backend " +
                          std::string(simgrid ? "simgrid" : "mpi") + " -np " +
                          std::to_string(procs);
  if (simgrid) {
    m.name = measured.name + "-simgrid-calibrated";
    m.description = "The SimGrid platform `dlayout validate` generates from machine " +
                    measured.name + ", measured by `" + how + "` on " + date +
                    (measured.name == base.name
                         ? std::string()
                         : "; what is not measured comes from machine " + base.name) +
                    ". Times in seconds.";
  } else {
    m.name = "calibrated-" + (c.probe.hosts.empty() ? std::string("mpi") : c.probe.hosts.front());
    m.description = "Measured by `" + how + "` on " + date + " (" + hostList(c.probe.hosts) +
                    "); what is not measured comes from machine " + base.name +
                    ". Times in seconds.";
  }
  m.sources.clear();
  m.sources.push_back("Measured with MPI_Wtime (tick " + g(c.probe.wtick) + " s) by `" + how +
                      "` on " + date + ", " + hostList(c.probe.hosts) +
                      "; method in docs/calibrate.md");
  m.sources.push_back(transferSource(c));

  if (simgrid) {
    if (!(c.probe.flopsPerSecond > 0))
      return makeError("the calibration job measured no flop rate on the simulated platform");
    m.flops = c.probe.flopsPerSecond;
    std::tie(m.load, m.store, m.add, m.mul, m.div, m.intrinsic, m.compare) =
        std::tie(measured.load, measured.store, measured.add, measured.mul, measured.div,
                 measured.intrinsic, measured.compare);
    m.sources.push_back("ops: machine " + measured.name + "'s, the simulated machine's: under "
                        "SimGrid the executor charges exactly these operation times "
                        "(smpi_execute_flops at the platform's rate, smpi/simulate-computation "
                        "off), so they are the simulated machine's by construction, not "
                        "measured; the platform itself has only a flop rate, measured by "
                        "charging 1e6 flops: flops " + g(m.flops) + " flop/s (" + measured.name +
                        " says " + g(measured.flops) + ")");
  } else {
    auto op = [&](const char *name, bool positive) -> Result<double> {
      auto it = c.probe.ops.find(name);
      if (it == c.probe.ops.end())
        return makeError(std::string("the calibration job did not time ") + name);
      double v = it->second;
      if (!std::isfinite(v) || v < 0 || (positive && v <= 0))
        return makeError(std::string("the ") + name + " kernel measured no time (" + g(v) +
                         " s per operation): is the clock too coarse?");
      return v;
    };
    double *fields[] = {&m.load, &m.store, &m.add, &m.mul, &m.div, &m.intrinsic, &m.compare};
    const char *names[] = {"load", "store", "add", "mul", "div", "intrinsic", "compare"};
    for (size_t i = 0; i < 7; ++i) {
      auto v = op(names[i], i < 5);
      if (!v) return v.error();
      *fields[i] = *v;
    }
    m.flops = 2 / (m.add + m.mul);
    m.sources.push_back(
        "ops: timed kernels on every rank, the fastest rank's figure, each the fastest of 15 "
        "runs of about 2 ms (scalar code: -fno-tree-vectorize, -ffp-contract=off): add, mul, div, "
        "intrinsic (sqrt) as dependent chains x = x op b, the latency of one operation after "
        "another as t(S) sums a statement's operations (thesis Eq. 3.1); compare as the chain "
        "x = max(x, b) + d less the add chain; load and store as independent accesses to a 4 KiB "
        "(L1-resident) array; flops = 2 / (add + mul). Compiled code overlapping independent "
        "operations runs faster; the validate executor, an interpreter, slower");
  }
  m.sources.push_back("topology, gray_code, per_hop: machine " + base.name +
                      "'s (not measured)");

  c.collectives = chooseCollectives(m, procs, c.probe.collectives);
  for (const auto &ch : c.collectives) m.sources.push_back(collectiveSource(ch, procs));
  if (c.collectives.size() < collectivePrimitives().size())
    m.sources.push_back("collectives not measured keep machine " + base.name + "'s algorithms");

  // Written and read back by the project's own writer and reader (verify()).
  std::string text = dlayout::dump(dlayout::toJson(m));
  auto back = parseMachine(text);
  if (!back)
    return makeError("the calibrated machine does not verify: " + back.error().message);
  c.machine = std::move(*back);
  c.machineText = std::move(text);
  return c;
}

} // namespace dlayout::calibrate
