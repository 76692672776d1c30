#!/usr/bin/env python3
"""Does a calibrated machine predict a platform better than the preset a user
would have picked? The simulated half of bench/calibrate (issue 7).

The platform is SimGrid's, generated from bench/calibrate/ethernet.json: the
cluster preset's nodes on Gigabit Ethernet (30 us + 8.5 ns/B a message
instead of InfiniBand's 1.1 us + 0.08 ns/B). dlayout is told `cluster`.

1. `dlayout calibrate --backend simgrid --platform ethernet.json --machine
   cluster` measures the platform: Transfer(m), the collectives and the flop
   rate (the rest is the base's, cluster's; under SimGrid the operation
   times are the simulated machine's, docs/calibrate.md).
2. For every sample (bench/common.py, its small parameters) at P processors
   the candidates are what `dlayout validate --layouts all` runs with either
   machine (each machine's advice and alternatives, and the baselines),
   simulated on the platform with `--platform`; a layout both runs is
   simulated twice, and must measure the same (the platform alone decides
   the measurement). Each candidate is predicted by `dlayout estimate` with
   either machine.
3. Per sample and machine: Spearman's rank correlation of predicted and
   simulated seconds over the candidates, and the median predicted /
   simulated. The aim: with the calibrated machine the median Spearman over
   the samples is higher and the median ratio nearer 1.
4. What calibrating buys: the layout each machine recommends, simulated on
   the platform.

  simulated.py --out DIR [--procs 16] [--jobs 2] [--only a,b] [--check]

--check: exit 1 where the aim is missed (the CI subset, bench/calibrate/run.sh
QUICK=1), as where a sample fails.
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import DLAYOUT, SAMPLES, SRC, fmt, host_info, run, transfer_rows, write  # noqa: E402
from spearman import spearman  # noqa: E402

PLATFORM = os.path.join(SRC, "bench", "calibrate", "ethernet.json")
PRESET = "cluster"


def calibrate(procs, work):
    path = os.path.join(work, "calibrated.json")
    t0 = time.monotonic()
    p = subprocess.run([DLAYOUT, "calibrate", "--backend", "simgrid", "-np", str(procs), "--platform",
                        PLATFORM, "--machine", PRESET, "-o", path, "--format", "text"],
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        sys.exit("simulated.py: calibrate: exit %d: %s" % (p.returncode, p.stderr[-2000:]))
    return path, p.stdout, time.monotonic() - t0


def one(sample, params, procs, machines, work):
    """Candidates, simulated seconds and each machine's predictions for one
    sample; an error string where a run failed."""
    stem = sample.replace("/", "_")
    model = os.path.join(work, stem + ".model.json")
    pargs = sum((["--param", p] for p in params), [])
    p = subprocess.run([DLAYOUT, "extract", os.path.join(SRC, "samples", sample), "-o", model] + pargs,
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        return {"sample": sample, "error": "extract: " + p.stderr.strip()[-300:]}
    common = [model, "--procs", str(procs)] + pargs
    layouts, measured, advice = [], [], {}
    try:
        for name, machine in machines:
            doc, _, _ = run(["validate"] + common + ["--machine", machine, "--platform", PLATFORM,
                                                    "--backend", "simgrid", "--layouts", "all",
                                                    "--format", "json"], 1800)
            for r in doc["runs"]:
                lay = r["layout_document"]
                if r["recommended"]:
                    advice[name] = lay
                if lay in layouts:
                    k = layouts.index(lay)
                    if abs(measured[k] - r["measured_seconds"]) > 1e-9 * max(measured[k], 1e-12):
                        return {"sample": sample, "error": "layout %s simulated %.9g and %.9g s" % (
                            r["layout"], measured[k], r["measured_seconds"])}
                    continue
                if not r["correct"]:
                    return {"sample": sample, "error": "layout %s not correct" % r["layout"]}
                layouts.append(lay)
                measured.append(r["measured_seconds"])
        predicted = {}
        for name, machine in machines:
            predicted[name] = []
            for lay in layouts:
                fd, lf = tempfile.mkstemp(suffix=".json", dir=work)
                with os.fdopen(fd, "w") as f:
                    json.dump(lay, f)
                est, _, _ = run(["estimate"] + common + ["--machine", machine, "--layout", lf,
                                                         "--format", "json"], 300)
                os.unlink(lf)
                predicted[name].append(est["predicted_seconds"])
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        return {"sample": sample, "error": str(e).splitlines()[-1][-300:]}
    row = {"sample": sample, "params": params, "procs": procs, "layouts": layouts,
           "measured_seconds": measured, "machines": {}}
    for name, _ in machines:
        pred = predicted[name]
        row["machines"][name] = {
            "advice": layouts.index(advice[name]),  # the layout it recommends
            "predicted_seconds": pred,
            "spearman": spearman(pred, measured),
            "median_ratio": statistics.median(p / m for p, m in zip(pred, measured) if m > 0),
        }
    return row


def describe(layout):
    """2x8 A(B0,C1) B(*,B1): the mesh and each array's distributed dimensions."""
    letter = {"block": "B", "cyclic": "C", "block_cyclic": "K", "replicated": "*", "collapsed": "*"}
    arrays = []
    for name, a in sorted(layout["arrays"].items()):
        dims = ["%s%s" % (letter.get(d["kind"], "?"), d.get("mesh_dim", "")) for d in a["dims"]]
        arrays.append("%s(%s)" % (name, ",".join(dims)))
    return "x".join(map(str, layout["mesh"])) + " " + " ".join(arrays)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--procs", type=int, default=16)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="", help="comma-separated samples")
    ap.add_argument("--check", action="store_true", help="exit 1 where the aim is missed")
    a = ap.parse_args()
    started = time.monotonic()
    only = [s for s in a.only.split(",") if s]
    unknown = sorted(set(only) - {s for s, _ in SAMPLES})
    if unknown:
        sys.exit("simulated.py: --only: no such sample %s (bench/common.py's SAMPLES)" % ", ".join(unknown))
    samples = [(s, p) for s, p in SAMPLES if not only or s in only]
    with tempfile.TemporaryDirectory(prefix="dlayout-bench-calsim-") as work:
        machine_path, report, cal_seconds = calibrate(a.procs, work)
        calibrated = json.load(open(machine_path))
        machines = [(PRESET, PRESET), ("calibrated", machine_path)]
        with ThreadPoolExecutor(max_workers=a.jobs) as pool:
            rows = list(pool.map(lambda sp: one(sp[0], sp[1], a.procs, machines, work), samples))
    for r in rows:
        if "error" in r:
            print("simulated.py: %s: %s" % (r["sample"], r["error"]), file=sys.stderr)
    ok = [r for r in rows if "error" not in r]
    ranked = [r for r in ok if all(r["machines"][m]["spearman"] is not None for m, _ in machines)]

    def med(values):
        return statistics.median(values) if values else None

    summary = {"samples": len(rows), "failed": len(rows) - len(ok), "ranked": len(ranked)}
    for m, _ in machines:
        summary[m] = {
            "spearman_median": med([r["machines"][m]["spearman"] for r in ranked]),
            "spearman_mean": statistics.mean(r["machines"][m]["spearman"] for r in ranked) if ranked else None,
            "median_ratio": med([r["machines"][m]["median_ratio"] for r in ok]),
        }
    pre, cal = summary[PRESET], summary["calibrated"]
    better = lambda r: r["machines"]["calibrated"]["spearman"] - r["machines"][PRESET]["spearman"]
    # What calibrating buys the user: the preset's advice over the calibrated
    # machine's, simulated on the platform.
    gains = [r["measured_seconds"][r["machines"][PRESET]["advice"]] /
             r["measured_seconds"][r["machines"]["calibrated"]["advice"]] for r in ok]
    summary["advice_speedup_geomean"] = math.exp(statistics.mean(map(math.log, gains))) if gains else None
    summary["advice_speedup_max"] = max(gains) if gains else None
    summary["advice_faster"] = sum(1 for g in gains if g > 1 + 1e-9)
    summary["advice_slower"] = sum(1 for g in gains if g < 1 - 1e-9)
    summary["spearman_higher"] = sum(1 for r in ranked if better(r) > 1e-9)
    summary["spearman_lower"] = sum(1 for r in ranked if better(r) < -1e-9)
    summary["aim_met"] = bool(
        ranked and not summary["failed"] and cal["spearman_median"] > pre["spearman_median"] and
        abs(math.log(cal["median_ratio"])) < abs(math.log(pre["median_ratio"])))
    doc = {"benchmark": "calibrate-simulated", "host": host_info(), "procs": a.procs,
           "platform": json.load(open(PLATFORM)), "preset": PRESET, "calibrated_machine": calibrated,
           "calibrate_seconds": cal_seconds, "wall_seconds": time.monotonic() - started,
           "summary": summary, "rows": rows}

    md = ["# A calibrated machine against the preset, on a simulated platform", "",
          "Written by `bench/calibrate/simulated.py` (`bench/calibrate/run.sh`): SimGrid's platform "
          "generated from [ethernet.json](../calibrate/ethernet.json) (the `cluster` preset's nodes on "
          "Gigabit Ethernet), P = %d; `dlayout calibrate --backend simgrid --platform ethernet.json "
          "--machine cluster` took %.1f s, the whole run %.0f s. Candidates per sample: what `dlayout "
          "validate --layouts all` runs with either machine, simulated with `--platform`; predictions by "
          "`dlayout estimate` with each machine." % (a.procs, cal_seconds, doc["wall_seconds"]), "",
          "| | `%s` preset | calibrated |" % PRESET, "| --- | --- | --- |"]
    preset_doc = json.load(open(os.path.join(SRC, "costmodels", "machines", PRESET + ".json")))
    md += transfer_rows(preset_doc, calibrated)
    md += ["| collectives | %s | %s |" % (
        ", ".join("%s %s" % kv for kv in sorted(preset_doc["collectives"].items())),
        ", ".join("%s %s" % kv for kv in sorted(calibrated["collectives"].items()))), "",
        "Over %d samples (%d ranked by both machines): Spearman median %s -> %s (mean %s -> %s; higher "
        "on %d samples, lower on %d); median predicted / simulated %s -> %s. Aim (both improve): **%s**." % (
            len(ok), len(ranked), fmt(pre["spearman_median"]), fmt(cal["spearman_median"]),
            fmt(pre["spearman_mean"]), fmt(cal["spearman_mean"]), summary["spearman_higher"],
            summary["spearman_lower"], fmt(pre["median_ratio"], 4), fmt(cal["median_ratio"], 4),
            "met" if summary["aim_met"] else "not met"), "",
        "The advice: the layout each machine recommends, simulated on the platform: the calibrated "
        "machine's is faster on %d samples, slower on %d, by %s times in geometric mean (at most %s)." % (
            summary["advice_faster"], summary["advice_slower"], fmt(summary["advice_speedup_geomean"], 2),
            fmt(summary["advice_speedup_max"], 2)), "",
        "| sample | candidates | Spearman, %s | Spearman, calibrated | predicted / simulated, %s | "
        "predicted / simulated, calibrated | advice, %s: simulated | advice, calibrated: simulated |" % (
            PRESET, PRESET, PRESET), "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        if "error" in r:
            md.append("| %s | failed: %s | | | | | | |" % (r["sample"], r["error"].replace("|", "/")))
            continue
        p, c = r["machines"][PRESET], r["machines"]["calibrated"]
        md.append("| %s | %d | %s | %s | %s | %s | %.4g | %.4g |" % (
            r["sample"], len(r["layouts"]), fmt(p["spearman"]), fmt(c["spearman"]),
            fmt(p["median_ratio"], 4), fmt(c["median_ratio"], 4), r["measured_seconds"][p["advice"]],
            r["measured_seconds"][c["advice"]]))
    md += ["", "Per candidate (seconds):", ""]
    for r in ok:
        md += ["### %s (%s)" % (r["sample"], ", ".join(r["params"]) or "defaults"), "",
               "| layout | simulated | predicted, %s | predicted, calibrated |" % PRESET,
               "| --- | --- | --- | --- |"]
        for k, lay in enumerate(r["layouts"]):
            marks = [m for m, _ in machines if r["machines"][m]["advice"] == k]
            md.append("| %s%s | %.4g | %.4g | %.4g |" % (
                describe(lay), " (advice: %s)" % ", ".join(marks) if marks else "",
                r["measured_seconds"][k], r["machines"][PRESET]["predicted_seconds"][k],
                r["machines"]["calibrated"]["predicted_seconds"][k]))
        md.append("")
    md += ["## Calibration report", "", "```"] + report.rstrip().split("\n") + ["```", ""]
    write(a.out, "calibrate-simulated", doc, "\n".join(md))
    print("simulated platform, P = %d: Spearman median %s -> %s, predicted / simulated %s -> %s; aim %s; "
          "the calibrated machine's advice %s times faster (geometric mean)" % (
              a.procs, fmt(pre["spearman_median"]), fmt(cal["spearman_median"]), fmt(pre["median_ratio"], 4),
              fmt(cal["median_ratio"], 4), "met" if summary["aim_met"] else "not met",
              fmt(summary["advice_speedup_geomean"], 2)))
    return 1 if summary["failed"] or (a.check and not summary["aim_met"]) else 0


if __name__ == "__main__":
    sys.exit(main())
