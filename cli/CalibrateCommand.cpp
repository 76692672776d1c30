//===- cli/CalibrateCommand.cpp - dlayout calibrate -----------------------===//
//
// Measures a machine over MPI (real ranks with mpirun, or the SimGrid
// platform generated from a machine model) and writes the machine model it
// fits, "dlayout-machine/1" (validate/calibrate/Calibrate.h,
// docs/calibrate.md):
//   dlayout calibrate --backend mpi|simgrid -np P [--machine NAME|FILE]
//                     [--platform NAME|FILE] [--hostfile F] [--timeout S]
//                     [-o FILE] [--format json|text]
// json (the default): the machine document, to -o FILE or standard output.
// text: a report of what was measured and fitted on standard output; the
// machine document still goes to -o FILE when one is given.
//
//===----------------------------------------------------------------------===//
#include "cli/Command.h"
#include "cli/Options.h"
#include "costmodels/MachinePresets.h"
#include "validate/calibrate/Calibrate.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <memory>
#include <set>
#include <unistd.h>


namespace dlayout::cli {

namespace {

/// Fails early, before minutes of measuring, when -o cannot be written.
Status checkWritable(const std::string &output) {
  namespace fs = std::filesystem;
  if (output.empty() || output == "-") return success();
  std::error_code ec;
  fs::path p(output);
  if (fs::is_directory(p, ec)) return makeError("cannot write " + output + ": it is a directory");
  if (fs::exists(p, ec))
    return access(output.c_str(), W_OK) == 0
               ? success()
               : makeError("cannot write " + output + ": permission denied");
  fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec))
    return makeError("cannot write " + output + ": no directory " + dir.string());
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    return makeError("cannot write " + output + ": directory " + dir.string() +
                     " is not writable");
  return success();
}

std::string renderText(const calibrate::Calibration &c, bool simgrid, const std::string &output) {
  const auto &m = c.machine;
  std::set<std::string> hosts(c.probe.hosts.begin(), c.probe.hosts.end());
  std::string out = fmt::format(
      "calibration of {} on {} ranks ({}, {} host{}), base machine {}; the jobs took {:.1f} s\n\n",
      simgrid ? "the SimGrid platform of " + c.platform : std::string("real MPI ranks"),
      c.probe.procs, simgrid ? "smpirun" : "mpirun", hosts.size(), hosts.size() == 1 ? "" : "s",
      c.base, c.wallSeconds);

  out += fmt::format("Transfer(m) = startup + per_byte * m: {} piece{}, "
                     "RMS relative error {:.2f} %\n",
                     m.message.size(), m.message.size() == 1 ? "" : "s",
                     100 * c.transfer.rmsRelativeError);
  double from = 0;
  for (const auto &p : m.message) {
    std::string range = p.belowBytes > 0 ? fmt::format("{:g} <= m < {:g} B", from, p.belowBytes)
                                         : fmt::format("m >= {:g} B", from);
    out += fmt::format("  {:<24} startup {:>10}   per byte {:>10}   ({:.3g} MB/s)\n", range,
                       formatSeconds(p.startup), formatSeconds(p.perByte),
                       p.perByte > 0 ? 1e-6 / p.perByte : 0.0);
    from = p.belowBytes;
  }
  out += fmt::format("\n{:>10} {:>12} {:>12} {:>12} {:>8}\n", "bytes", "measured", "(median)",
                     "fitted", "error");
  for (size_t i = 0; i < c.probe.pingpong.size(); ++i) {
    const auto &p = c.probe.pingpong[i];
    double fitted = m.transfer(p.bytes);
    out += fmt::format("{:>10.0f} {:>12} {:>12} {:>12} {:>7.1f}%\n", p.bytes, formatSeconds(p.seconds),
                       formatSeconds(c.probe.pingpongMedian[i]), formatSeconds(fitted),
                       100 * (fitted - p.seconds) / p.seconds);
  }

  out += fmt::format("\ncollectives on {} ranks: the Table 6.1 algorithm closest to each "
                     "MPI call\n",
                     c.probe.procs);
  for (const auto &ch : c.collectives) {
    out += fmt::format("  {:<24} {:<14} {:<9} (RMS log error {:.3f})\n", ch.primitive, ch.call,
                       toString(ch.algorithm), ch.rmsLogError);
    for (size_t i = 0; i < ch.bytes.size(); ++i)
      out += fmt::format("      {:>8.0f} B: measured {:>10}, model {:>10}\n", ch.bytes[i],
                         formatSeconds(ch.measured[i]), formatSeconds(ch.predicted[i]));
  }

  out += "\noperations (seconds each):";
  out += fmt::format(" load {}, store {}, add {}, mul {}, div {}, intrinsic {}, compare {}\n",
                     formatSeconds(m.load), formatSeconds(m.store), formatSeconds(m.add), formatSeconds(m.mul), formatSeconds(m.div),
                     formatSeconds(m.intrinsic), formatSeconds(m.compare));
  out += simgrid ? fmt::format("  copied from {}: the executor charges these very times under "
                               "SimGrid; the platform's measured flop rate: {:.4g} flop/s\n",
                               c.platform, m.flops)
                 : std::string("  timed kernels (docs/calibrate.md)\n");
  out += output.empty() || output == "-"
             ? "\n(the machine document: --format json, or -o FILE)\n"
             : "\nmachine " + m.name + " written to " + output + "\n";
  return out;
}

} // namespace

Command addCalibrateCommand(CLI::App &app) {
  struct Options {
    std::string backend, machine, platform, hostfile, output, format = "json";
    int64_t procs = 0;
    double timeout = 300;
  };
  auto o = std::make_shared<Options>();
  auto *cmd = app.add_subcommand(
      "calibrate", "Measure a machine over MPI - ping-pong latency and bandwidth, the "
                   "collectives, the time of each operation - and write the machine model "
                   "(dlayout-machine/1) fitted to it");
  cmd->add_option("--backend", o->backend,
                  "mpi (real ranks started by mpirun) or simgrid (smpirun on the platform "
                  "`dlayout validate` generates from --machine)")
      ->required()->check(CLI::IsMember({"simgrid", "mpi"}));
  cmd->add_option("--np,--procs", o->procs,
                  "Number of ranks P, at least 2 (also written -np P, as mpirun spells it)")
      ->required()
      ->type_name("P")
      ->check(CLI::Validator(
          [](std::string &text) -> std::string {
            int64_t v = 0;
            try {
              size_t used = 0;
              v = std::stoll(text, &used);
              if (used != text.size()) return "must be a whole number of ranks, got '" + text + "'";
            } catch (...) {
              return "must be a whole number of ranks, got '" + text + "'";
            }
            if (v < 2)
              return "calibration needs at least 2 ranks (a ping-pong has two ends), got " + text;
            if (v > kMaxProcs) return fmt::format("must be at most {}, got {}", kMaxProcs, text);
            return "";
          },
          "INT >= 2"));
  cmd->add_option("--machine", o->machine,
                  "Machine model: a preset (" +
                      fmt::format("{}", fmt::join(machinePresetNames(), ", ")) +
                      ") or a dlayout-machine/1 file. simgrid: the platform is generated from "
                      "it unless --platform names another (default ipsc2, cluster beside "
                      "--platform); mpi: its topology, gray_code and per_hop are kept "
                      "(default cluster)")
      ->type_name("NAME|FILE");
  CLI::Option *platformOption = cmd->add_option("--platform", o->platform,
                  "simgrid backend: measure the platform generated from this machine instead; "
                  "--machine (default cluster then) gives what is not measured: topology, "
                  "gray_code, per_hop")
      ->type_name("NAME|FILE");
  cmd->add_option("--hostfile", o->hostfile, "mpi backend: mpirun's hostfile")->type_name("FILE");
  cmd->add_option("--timeout", o->timeout, "Seconds each measuring job may run")
      ->capture_default_str()->check(positiveSeconds(86400));
  cmd->add_option("--format", o->format,
                  "json: the machine document (to -o FILE or standard output); text: a report "
                  "of what was measured and fitted (the machine still goes to -o FILE)")
      ->check(CLI::IsMember({"json", "text"}))->capture_default_str();
  cmd->add_option("-o,--output", o->output,
                  "Write the machine document to FILE (checked before anything runs)")
      ->type_name("FILE");
  return {cmd, [o, platformOption] {
            const bool simgrid = o->backend == "simgrid";
            if (!simgrid && o->backend != "mpi")
              return fail(makeError("unknown backend '" + o->backend + "' (mpi, simgrid)"));
            if (simgrid && !o->hostfile.empty())
              return fail(makeError("--hostfile is for --backend mpi (simgrid generates its "
                                    "platform from a machine model)"));
            const bool platformGiven = platformOption->count() > 0; // even as ""
            if (!simgrid && platformGiven)
              return fail(makeError("--platform is for --backend simgrid (mpi measures the "
                                    "machine it runs on)"));
            std::string name = !o->machine.empty()                        ? o->machine
                               : simgrid && !platformGiven               ? "ipsc2"
                                                                          : "cluster";
            auto base = readMachine(name);
            if (!base) return fail(base.error());
            calibrate::CalibrateOptions co;
            if (platformGiven) {
              auto platform = readMachine(o->platform);
              if (!platform) return fail(platform.error());
              co.platform = std::move(*platform);
            }
            if (auto s = checkWritable(o->output); !s) return fail(s.error());

            auto &po = co.probe;
            po.backend = simgrid ? validate::Backend::SimGrid : validate::Backend::Mpi;
            po.procs = static_cast<int>(o->procs);
            JobPrograms jp = jobPrograms();
            po.probeDir = jp.executorDir;
            po.smpirun = jp.smpirun;
            po.mpirun = jp.mpirun;
            po.mpirunArgs = jp.mpirunArgs;
            if (!o->hostfile.empty())
              po.mpirunArgs.insert(po.mpirunArgs.end(), {"--hostfile", o->hostfile});
            po.timeoutSeconds = o->timeout;

            auto c = calibrate::calibrate(*base, co);
            if (!c) return fail(c.error());
            const bool toFile = !o->output.empty() && o->output != "-";
            if (toFile)
              if (auto s = emit(c->machineText, o->output); !s) return fail(s.error());
            if (o->format == "text") {
              if (auto s = emit(renderText(*c, simgrid, o->output), ""); !s) return fail(s.error());
            } else if (!toFile) {
              if (auto s = emit(c->machineText, ""); !s) return fail(s.error());
            }
            return 0;
          }};
}

} // namespace dlayout::cli
