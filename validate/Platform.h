//===- validate/Platform.h - A SimGrid platform from a machine model -*- C++ -*-===//
//
// platformFor(machine, procs) writes what smpirun needs so that simulated
// messages cost what the machine model's Transfer(m) says (thesis §6.1.2:
// startup + per_byte * m, piecewise in m):
//   - a hypercube machine of 2^d nodes is a SimGrid cluster with
//     topology="TORUS" topo_parameters="2,...,2" (d twos; node r's torus
//     coordinates are the bits of r, neighbours differ in one bit); any other
//     machine a plain cluster (every pair of nodes two private links apart);
//   - a full-duplex machine (Machine::halfDuplex false): link latency and
//     bandwidth from the first message piece, divided over the links a
//     neighbour message crosses, so one message costs startup_0 +
//     per_byte_0 * m; SMPI's piecewise factors (smpi/lat-factor,
//     smpi/bw-factor: "size:factor" pairs, the factor of the largest size
//     below m applies) scale the later pieces: lat-factor_i = startup_i /
//     startup_0, bw-factor_i = per_byte_0 / per_byte_i;
//   - a half-duplex machine (the thesis's iPSC/2: Shift = 2 Transfer(m),
//     Table 6.1): a message occupies its sender's and its receiver's port
//     for its whole Transfer(m), so what a node sends and receives at once
//     takes the sum of their Transfers. Links have no latency, each node a
//     limiter link of bandwidth 1 / per_byte_0 shared by all its traffic,
//     and smpi/bw-factor is a table over message sizes under which one
//     message alone takes Transfer(m) to within 0.05 % (the start-up becomes
//     link time; see occupancyFactors in Platform.cpp);
//   - no send/receive overheads (smpi/os, smpi/or, smpi/ois 0), no time
//     in MPI_Wtime (smpi/wtime 0: the executor's timers), TCP-gamma
//     large enough not to cap the bandwidth, no cross-traffic, and
//     smpi/simulate-computation off: computation is only what the executor
//     charges with smpi_execute_flops, so simulated time is deterministic on
//     every host; the options are written in the platform's <config>;
//   - MPI_Allreduce by recursive doubling (smpi/allreduce:rdb): ceil(log2 p)
//     exchanges, as MPI libraries do for short vectors, instead of SimGrid's
//     default, which takes about p - 1 Transfers (docs/calibrate.md);
//   - node speed = the machine's flops (1 Gflop/s when the model has none).
// Library code: errors returned, nothing printed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Machine.h"
#include "model/Result.h"

#include <string>
#include <vector>

namespace dlayout::validate {

struct Platform {
  std::string xml;                  // the platform document
  std::vector<std::string> hosts;   // hostfile lines: rank r on hosts[r]
  std::vector<std::string> config;  // SimGrid options "name:value", in xml's <config>
  double speed = 1e9;               // flop/s of a node
  bool hypercube = false;
};

/// procs must be >= 1; a hypercube machine needs a power of two.
Result<Platform> platformFor(const Machine &m, int procs);

} // namespace dlayout::validate
