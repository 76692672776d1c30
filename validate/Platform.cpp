//===- validate/Platform.cpp - A SimGrid platform from a machine model ----===//
#include "validate/Platform.h"

#include <cmath>
#include <cstdio>

namespace dlayout::validate {

namespace {
constexpr double kEnvelope = 16;
std::string num(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

/// Half-duplex nodes (Machine::halfDuplex): a message occupies its sender's
/// and its receiver's network port for its whole Transfer(m), start-up
/// included. In SimGrid that is bandwidth, not latency: links without
/// latency, a limiter link per node (shared by what it sends and receives),
/// and SMPI bandwidth factors under which s = m + kEnvelope bytes on the
/// wire take Transfer(m) on their own:
///   g(s) = s / (bw * Transfer(s - kEnvelope)).
/// SMPI's factors are constant between sizes (an entry "k:f" applies to
/// sizes above k), so the sizes are cut where g changes by a ratio of
/// (1 + kTolerance)^2 and each interval takes the geometric mean of its ends:
/// every message is then within kTolerance of Transfer(m). g rises within a
/// piece of the machine's message cost (startup > per_byte * kEnvelope),
/// towards 1 / (bw * per_byte). Sizes from kLargest on (1 GiB) share the
/// last entry: SimGrid reads a size as an int, and where a piece has no
/// per-byte cost g rises without bound.
constexpr double kTolerance = 5e-4;
constexpr double kLargest = 1073741824.0;

std::string occupancyFactors(const Machine &m, double bw) {
  auto g = [&](double s) { return s / (bw * m.transfer(s - kEnvelope)); };
  const double ratio = (1 + kTolerance) * (1 + kTolerance);
  std::string out;
  double lo = kEnvelope; // sizes on the wire, whole bytes: an empty message first
  for (size_t k = 0; k < m.message.size(); ++k) {
    const MessageCostPiece &piece = m.message[k];
    bool last = piece.belowBytes == 0 || k + 1 == m.message.size();
    double end = last ? INFINITY : std::ceil(piece.belowBytes) + kEnvelope;
    // Transfer(s - kEnvelope) = a + b s within the piece.
    double a = piece.startup - piece.perByte * kEnvelope, b = piece.perByte;
    while (lo < end) {
      // The s where g reaches ratio * g(lo): R a / (1 - R b), R = ratio g(lo) bw.
      double R = ratio * g(lo) * bw;
      double reach = a > 0 && 1 - R * b > 0 ? R * a / (1 - R * b) : INFINITY;
      if (lo >= kLargest) reach = INFINITY; // the rest of the piece: one entry
      double hi = std::min(end, std::max(lo + 1, std::floor(reach))); // next interval's first size
      double gHi = std::isfinite(hi) ? g(hi - 1) : (b > 0 ? 1 / (bw * b) : g(lo));
      out += out.empty() ? "0:" : ";" + num(lo - 1) + ":";
      out += num(std::sqrt(g(lo) * gHi));
      lo = hi;
    }
  }
  return out;
}
} // namespace

Result<Platform> platformFor(const Machine &m, int procs) {
  if (procs < 1) return makeError("the number of processors must be at least 1");
  if (m.message.empty()) return makeError("machine " + m.name + " has no message cost");
  Platform p;
  p.hypercube = m.topology == Topology::Hypercube && procs > 1;
  int dim = 0;
  if (p.hypercube) {
    if (procs & (procs - 1))
      return makeError("machine " + m.name + " is a hypercube: the number of processors must "
                       "be a power of two, got " + std::to_string(procs));
    while ((1 << dim) < procs) ++dim;
  }
  p.speed = m.flops > 0 ? m.flops : 1e9;
  const MessageCostPiece &first = m.message.front();
  // Links a message between neighbours crosses: one torus link on a
  // hypercube; a node's up link and the other's down link on a plain
  // cluster (checked by the ping-pong test, tests/validate).
  const double links = p.hypercube ? 1.0 : 2.0;
  // SMPI puts kEnvelope bytes on the wire besides the payload (measured by
  // the ping-pong test): their bandwidth time comes off the latency, and the
  // factors' size boundaries move by as much.
  auto startupOf = [&](const MessageCostPiece &q) {
    return std::max(0.0, q.startup - kEnvelope * q.perByte);
  };
  const bool halfDuplex = m.halfDuplex() && procs > 1;
  const double lat = halfDuplex ? 0 : startupOf(first) / links;
  const double bw = first.perByte > 0 ? 1.0 / first.perByte : 1e15;
  std::string topo;
  if (p.hypercube) {
    topo = " topology=\"TORUS\" topo_parameters=\"";
    for (int k = 0; k < dim; ++k) topo += k ? ",2" : "2";
    topo += "\"";
  }
  for (int r = 0; r < procs; ++r) p.hosts.push_back("node-" + std::to_string(r));

  // Piecewise message cost: SMPI's factors, one entry per piece.
  std::string latf = "0:1", bwf = halfDuplex ? occupancyFactors(m, bw) : "0:1";
  for (size_t k = 1; k < m.message.size() && !halfDuplex; ++k) {
    const auto &prev = m.message[k - 1];
    const auto &piece = m.message[k];
    // SimGrid applies a factor to the sizes above its boundary (FactorSet),
    // on payload + envelope: the piece from belowBytes on starts above
    // belowBytes - 1 + kEnvelope.
    std::string at = num(std::ceil(prev.belowBytes) - 1 + kEnvelope);
    double s0 = startupOf(first);
    latf += ";" + at + ":" + num(s0 > 0 ? startupOf(piece) / s0 : 1);
    bwf += ";" + at + ":" + num(piece.perByte > 0 ? first.perByte / piece.perByte : 1);
  }
  p.config = {"smpi/simulate-computation:no",
              "network/model:SMPI",
              "smpi/lat-factor:" + latf,
              "smpi/bw-factor:" + bwf,
              "smpi/os:0:0:0:0:0",
              "smpi/or:0:0:0:0:0",
              "smpi/ois:0:0:0:0:0",
              "network/TCP-gamma:1e30",
              "network/crosstraffic:0",
              "network/weight-S:0",
              "smpi/host-speed:" + num(p.speed) + "f",
              "smpi/alltoallv:ring",
              // MPI_Wtime takes no simulated time: SimGrid injects 10 ns a
              // call by default, and the executor times its communication
              // with it (twice per exchange and per reduction region): 8,200
              // calls a rank added 82 us to matmul's 12 us at N = 16 on the
              // cluster machine.
              "smpi/wtime:0",
              // Recursive doubling, MPICH's allreduce for short vectors:
              // ceil(log2 p) exchanges, 2 ceil(log2 p) Transfer(m) on a
              // half-duplex hypercube (SimGrid's default is near p - 1).
              "smpi/allreduce:rdb"};
  // The options go in the platform's <config> (a factor table can be longer
  // than a command-line argument may be).
  std::string options;
  for (const std::string &c : p.config) {
    size_t colon = c.find(':');
    options += "    <prop id=\"" + c.substr(0, colon) + "\" value=\"" + c.substr(colon + 1) + "\"/>\n";
  }
  p.xml = "<?xml version='1.0'?>\n"
          "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<platform version=\"4.1\">\n"
          "  <!-- machine " + m.name + ", " + std::to_string(procs) +
          " nodes, generated by dlayout validate (validate/Platform.h) -->\n"
          "  <config>\n" + options + "  </config>\n"
          "  <zone id=\"world\" routing=\"Full\">\n"
          "    <cluster id=\"machine\" prefix=\"node-\" suffix=\"\" radical=\"0-" +
          std::to_string(procs - 1) + "\" speed=\"" + num(p.speed) + "f\" bw=\"" + num(bw) +
          "Bps\" lat=\"" + num(lat) + "s\"" + topo +
          (halfDuplex ? " limiter_link=\"" + num(bw) + "Bps\"" : std::string()) +
          " loopback_bw=\"1e15Bps\" loopback_lat=\"0s\"/>\n"
          "  </zone>\n"
          "</platform>\n";
  return p;
}

} // namespace dlayout::validate
