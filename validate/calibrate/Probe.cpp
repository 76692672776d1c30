//===- validate/calibrate/Probe.cpp - Running the calibration probe -------===//
#include "validate/calibrate/Probe.h"

#include "model/Json.h"
#include "validate/Launch.h"
#include "validate/Platform.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <unistd.h>

namespace dlayout::calibrate {

namespace fs = std::filesystem;
using jsonio::Node;

namespace {

/// The line of a job's standard error that says what went wrong: the last
/// one naming an error, else the first line of mpirun's last framed message
/// (between lines of dashes), else the last line.
std::string lastErrorLine(const std::string &path) {
  std::ifstream f(path);
  std::string line, best, framed, last;
  bool afterDashes = false;
  while (std::getline(f, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (line.find_first_not_of('-') == std::string::npos) {
      afterDashes = true;
      continue;
    }
    if (afterDashes) framed = line;
    afterDashes = false;
    last = line;
    if (line.find("error") != std::string::npos) best = line;
  }
  return !best.empty() ? best : !framed.empty() ? framed : last;
}

std::string joinSizes(const std::vector<long> &v) {
  std::string s;
  for (long x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}

ProbeResult readResult(const Node &doc) {
  jsonio::expectSchema(doc, "dlayout-calibration-probe/1");
  ProbeResult r;
  r.procs = int(doc.get("procs").integer());
  r.simgrid = doc.get("simgrid").boolean();
  r.wtick = doc.number("wtick", 0);
  for (const Node &h : doc.get("hosts").elements()) r.hosts.push_back(h.str());
  for (const Node &p : doc.get("pingpong").elements()) {
    double seconds = p.get("seconds").number();
    if (!(seconds > 0)) p.fail("a ping-pong measured no time (is the clock too coarse?)");
    r.pingpong.push_back({p.get("bytes").number(), seconds});
    r.pingpongMedian.push_back(p.number("median_seconds", seconds));
  }
  for (const Node &c : doc.get("collectives").elements())
    r.collectives.push_back({c.get("primitive").str(), c.get("call").str(),
                             c.get("bytes").number(), c.get("seconds").number()});
  Node compute = doc.get("compute");
  for (const auto &[op, v] : compute.members()) {
    if (op == "flops_per_second") r.flopsPerSecond = v.number();
    else r.ops[op] = v.get("seconds").number();
  }
  if (auto s = doc.find("section_seconds"))
    for (const auto &[part, v] : s->members()) r.sectionSeconds[part] = v.number();
  return r;
}

} // namespace

Result<ProbeResult> runProbe(const Machine &m, const ProbeOptions &o) {
  if (o.procs < 2)
    return makeError("calibration needs at least 2 processes (a ping-pong has two ends), got " +
                     std::to_string(o.procs));
  const bool simgrid = o.backend == validate::Backend::SimGrid;
  std::optional<validate::Platform> platform;
  if (simgrid) {
    auto pf = validate::platformFor(m, o.procs);
    if (!pf) return pf.error();
    platform = std::move(*pf);
  }
  // Absolute: the job runs in its own directory.
  std::error_code ec;
  const std::string exe =
      (fs::absolute(o.probeDir.empty() ? "." : o.probeDir, ec) /
       (simgrid ? "dlayout-calibrate-simgrid" : "dlayout-calibrate-mpi"))
          .string();
  if (access(exe.c_str(), X_OK) != 0)
    return makeError("the calibration program " + exe +
                     " is missing (build the dlayout_calibrate_probes target)");
  auto dir = validate::makeRunDirectory("calibrate");
  if (!dir) return dir.error();
  const std::string d = *dir;
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup{d};

  std::vector<std::string> argv;
  validate::LaunchOptions lo;
  lo.stdoutPath = d + "/stdout.txt";
  lo.stderrPath = d + "/stderr.txt";
  lo.workingDirectory = d;
  lo.timeoutSeconds = o.timeoutSeconds;
  if (platform) {
    std::string hosts;
    for (auto &h : platform->hosts) hosts += h + "\n";
    if (auto s = validate::writeText(d + "/platform.xml", platform->xml); !s) return s.error();
    if (auto s = validate::writeText(d + "/hosts.txt", hosts); !s) return s.error();
    argv = {o.smpirun, "-platform", d + "/platform.xml", "-hostfile", d + "/hosts.txt",
            "-np", std::to_string(o.procs)};
    // The platform exactly as validate runs it; only the clock differs:
    // SMPI charges 10 ns of simulated time to every MPI_Wtime by default,
    // which is 1 % of a microsecond message timed once.
    argv.push_back("--cfg=smpi/wtime:0");
    argv.push_back("--log=root.thres:error");
  } else {
    argv = {o.mpirun, "-np", std::to_string(o.procs)};
    for (auto &a : o.mpirunArgs) argv.push_back(a);
    lo.environment["OMPI_MCA_orte_tmpdir_base"] = d;
  }
  argv.insert(argv.end(), {exe, "--out", d + "/result.json"});
  if (!o.sizes.empty()) argv.insert(argv.end(), {"--sizes", joinSizes(o.sizes)});
  if (!o.collectiveSizes.empty())
    argv.insert(argv.end(), {"--collective-sizes", joinSizes(o.collectiveSizes)});
  if (!o.collectives) argv.push_back("--no-collectives");
  if (!o.compute) argv.push_back("--no-compute");
  if (o.grayRing) argv.push_back("--gray");

  auto out = validate::launch(argv, lo);
  if (!out) return out.error();
  if (!out->ok()) {
    std::string why =
        out->timedOut ? "did not finish within the time limit of " +
                            std::to_string(int(lo.timeoutSeconds)) + " s; the job was killed"
        : out->signal ? "was killed by signal " + std::to_string(out->signal)
                      : "failed with exit status " + std::to_string(out->exitCode);
    std::string tail = lastErrorLine(lo.stderrPath);
    return makeError("the calibration job (" + std::string(simgrid ? "smpirun" : "mpirun") + ", " +
                     std::to_string(o.procs) + " ranks) " + why +
                     (tail.empty() ? "" : ": " + tail) + "; nothing was measured");
  }
  auto text = dlayout::readFile(d + "/result.json");
  if (!text) return makeError("the calibration job wrote no result");
  auto doc = jsonio::parse(*text);
  if (!doc) return makeError("the calibration job's result is unreadable: " + doc.error().message);
  auto r = jsonio::read([&] { return readResult(Node(*doc)); });
  if (!r) return makeError("the calibration job's result is unreadable: " + r.error().message);
  if (r->procs != o.procs || r->pingpong.empty())
    return makeError("the calibration job's result is incomplete");
  r->wallSeconds = out->seconds;
  return r;
}

} // namespace dlayout::calibrate
