#!/usr/bin/env python3
"""Predicted against measured on real MPI ranks: the cluster preset beside a
calibrated machine (bench/calibrate/run.sh runs this after calibrating).

For each sample and layout, `dlayout validate --backend mpi --layouts FILE` is
run with each machine, --repeat times, alternating the machines. On real
ranks the machine changes only the predictions (the executor charges no
computation of its own there, and places communication by the program alone),
so the measurements of all 2 x repeat runs are pooled: each layout keeps its
fastest measured time and its fastest time in communication (the executor's
phases), and both machines are judged against the same figures. Predictions
come from the runs (total) and from `dlayout estimate` (the communication
term).
Per machine: Spearman's rank correlation of predicted and measured time over
all layouts of a sample, and the median ratio predicted / measured; the same
for the communication part alone.
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import transfer_rows  # noqa: E402
from spearman import spearman  # noqa: E402

DLAYOUT = os.environ["DLAYOUT"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(args, timeout=600):
    p = subprocess.run([DLAYOUT] + args, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        sys.exit("compare.py: dlayout %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr[-2000:]))
    return p.stdout


def layout(procs, arrays):
    return {"schema": "dlayout-layout/1", "mesh": [procs], "arrays": arrays}


def dims_for(kind, which, rank=2):
    """One distributed dimension `which` of kind (block, cyclic, bc4), the rest collapsed."""
    out = []
    for k in range(rank):
        if k != which:
            out.append({"kind": "collapsed"})
        elif kind == "bc4":
            out.append({"kind": "block_cyclic", "block": 4, "mesh_dim": 0})
        else:
            out.append({"kind": kind, "mesh_dim": 0})
    return out


def sample_cases(procs):
    kinds = [(k, d) for k in ("block", "cyclic", "bc4") for d in (0, 1)]
    name = lambda k, d: "%s-dim%d" % (k, d + 1)
    jacobi = [(name(k, d), layout(procs, {a: {"dims": dims_for(k, d)} for a in ("A", "B")}))
              for k, d in kinds]
    matmul = [(name(k, d), layout(procs, {a: {"dims": dims_for(k, d)} for a in ("A", "B", "C")}))
              for k, d in kinds]
    rep = {"dims": [{"kind": "replicated"}, {"kind": "replicated"}]}
    matmul.append(("rows-B-replicated", layout(procs, {"A": {"dims": dims_for("block", 0)}, "B": rep,
                                                         "C": {"dims": dims_for("block", 0)}})))
    return [
        {"sample": "samples/paradigm/jacobi.F", "params": ["NP2=66", "NCYCLES=10"], "layouts": jacobi},
        {"sample": "samples/c/matmul.c", "params": ["N=48"], "layouts": matmul},
    ]


def fmt(v, digits=3):
    return "n/a" if v is None else ("%.*g" % (digits, v))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--machine", required=True, help="the calibrated machine file")
    ap.add_argument("--calibrate-report", required=True)
    ap.add_argument("--calibrate-seconds", type=float, default=0)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--work", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    started = time.time()
    calibrated = json.load(open(a.machine))
    cluster = json.load(open(os.path.join(ROOT, "costmodels", "machines", "cluster.json")))
    machines = [("cluster", "cluster"), ("calibrated", a.machine)]

    results = []
    for case in sample_cases(a.procs):
        stem = os.path.splitext(os.path.basename(case["sample"]))[0]
        model = os.path.join(a.work, stem + ".model.json")
        params = sum((["--param", p] for p in case["params"]), [])
        run(["extract", os.path.join(ROOT, case["sample"])] + params + ["-o", model])
        names = [n for n, _ in case["layouts"]]
        lay_file = os.path.join(a.work, stem + ".layouts.json")
        json.dump([l for _, l in case["layouts"]], open(lay_file, "w"))
        per = {m: {"pred": {}, "pred_comm": {}, "skipped": set()} for m, _ in machines}
        meas_all, meas_comm_all = {}, {}
        for m, arg in machines:  # predicted communication: the estimator's term
            for n, l in case["layouts"]:
                lf = os.path.join(a.work, "%s.%s.layout.json" % (stem, n))
                json.dump(l, open(lf, "w"))
                est = json.loads(run(["estimate", model, "--procs", str(a.procs), "--layout", lf,
                                      "--machine", arg, "--format", "json"]))
                per[m]["pred_comm"][n] = est["communication_seconds"]
        for rep in range(a.repeat):
            for m, arg in (machines if rep % 2 == 0 else machines[::-1]):
                doc = json.loads(run(["validate", model, "--procs", str(a.procs), "--backend", "mpi",
                                      "--machine", arg, "--layouts", lay_file, "--format", "json"]))
                for n, r in zip(names, doc["runs"]):
                    if not r["correct"]:
                        sys.exit("compare.py: %s %s: not correct" % (stem, n))
                    comm = sum(ph["communication_seconds"] for ph in r["phases"] if ph["executed"])
                    per[m]["pred"][n] = r["predicted_seconds"]
                    meas_all[n] = min(meas_all.get(n, 1e300), r["measured_seconds"])
                    meas_comm_all[n] = min(meas_comm_all.get(n, 1e300), comm)
                    if r["skipped_phases"]:
                        per[m]["skipped"].add(n)
        entry = {"sample": case["sample"], "params": case["params"], "procs": a.procs,
                 "layouts": names, "machines": {}}
        for m, _ in machines:
            d = per[m]
            pred = [d["pred"][n] for n in names]
            meas = [meas_all[n] for n in names]
            pc = [d["pred_comm"][n] for n in names]
            mc = [meas_comm_all[n] for n in names]
            comm_ratios = [p / q for p, q in zip(pc, mc) if p > 0 and q > 0]
            entry["machines"][m] = {
                "predicted_seconds": pred, "measured_seconds": meas,
                "predicted_communication_seconds": pc, "measured_communication_seconds": mc,
                "spearman": spearman(pred, meas),
                "median_ratio": statistics.median(p / q for p, q in zip(pred, meas)),
                "spearman_communication": spearman(pc, mc),
                "median_ratio_communication": statistics.median(comm_ratios) if comm_ratios else None,
                "layouts_with_skipped_phases": sorted(d["skipped"]),
            }
        results.append(entry)

    def msg(mach):
        return [{k: p[k] for k in ("below_bytes", "startup", "per_byte")} for p in mach["message"]]

    doc = {
        "benchmark": "calibrate",
        "host": {"machine": platform.machine(), "cpus": os.cpu_count(), "system": platform.system()},
        "procs": a.procs, "repeat": a.repeat,
        "calibrate_seconds": a.calibrate_seconds,
        "compare_seconds": time.time() - started,
        "calibrated_machine": calibrated,
        "preset": {"name": "cluster", "message": msg(cluster), "ops": cluster["ops"]},
        "results": results,
    }
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "calibrate.json"), "w") as f:
        json.dump(doc, f, indent=2, sort_keys=True)
        f.write("\n")

    md = ["# `dlayout calibrate` on this host, and what it changes in `dlayout validate --backend mpi`",
          "",
          "Written by `bench/calibrate/run.sh` (%d ranks, %s, %d CPUs; each layout's fastest of 2 x %d runs, "
          "the same measurements for both machines: on real ranks the machine changes only the predictions). "
          "Calibration took %.1f s; the comparison %.0f s. Method: [docs/calibrate.md](../../docs/calibrate.md)."
          % (a.procs, platform.machine(), os.cpu_count() or 0, a.repeat, a.calibrate_seconds,
             doc["compare_seconds"]),
          "", "## The calibrated machine beside the cluster preset", "",
          "| | cluster preset | calibrated |", "| --- | --- | --- |"]
    md += transfer_rows(cluster, calibrated)
    for op in ("load", "store", "add", "mul", "div", "intrinsic", "compare"):
        md.append("| %s | %.3g ns | %.3g ns |" % (op, cluster["ops"][op] * 1e9, calibrated["ops"][op] * 1e9))
    md.append("| collectives | %s | %s |" % (
        ", ".join("%s %s" % kv for kv in sorted(cluster["collectives"].items())),
        ", ".join("%s %s" % kv for kv in sorted(calibrated["collectives"].items()))))
    md += ["", "## Predicted against measured (real ranks, mpirun)", "",
           "| sample | machine | Spearman | median predicted / measured | Spearman, communication | "
           "median ratio, communication |", "| --- | --- | --- | --- | --- | --- |"]
    for e in results:
        for m, _ in machines:
            r = e["machines"][m]
            md.append("| %s (%s) | %s | %s | %s | %s | %s |" % (
                os.path.basename(e["sample"]), ", ".join(e["params"]), m, fmt(r["spearman"]),
                fmt(r["median_ratio"]), fmt(r["spearman_communication"]),
                fmt(r["median_ratio_communication"])))
    md += ["", "Per layout (seconds; predicted with each machine, measured the fastest run):", ""]
    for e in results:
        md += ["### %s (%s), P = %d" % (e["sample"], ", ".join(e["params"]), e["procs"]), "",
               "| layout | predicted, cluster | predicted, calibrated | measured | "
               "comm. predicted, cluster | comm. predicted, calibrated | comm. measured |",
               "| --- | --- | --- | --- | --- | --- | --- |"]
        c, k = e["machines"]["cluster"], e["machines"]["calibrated"]
        for i, n in enumerate(e["layouts"]):
            md.append("| %s | %.3g | %.3g | %.3g | %.3g | %.3g | %.3g |" % (
                n, c["predicted_seconds"][i], k["predicted_seconds"][i],
                c["measured_seconds"][i],
                c["predicted_communication_seconds"][i], k["predicted_communication_seconds"][i],
                c["measured_communication_seconds"][i]))
        md.append("")
    md += ["## Calibration report", "", "```"] + open(a.calibrate_report).read().rstrip().split("\n") + ["```", ""]
    with open(os.path.join(a.out, "calibrate.md"), "w") as f:
        f.write("\n".join(md))
    for e in results:
        for m, _ in machines:
            r = e["machines"][m]
            print("%-28s %-11s Spearman %-6s ratio %-8s | communication: Spearman %-6s ratio %s" % (
                os.path.basename(e["sample"]), m, fmt(r["spearman"]), fmt(r["median_ratio"]),
                fmt(r["spearman_communication"]), fmt(r["median_ratio_communication"])))
    print("wrote %s/calibrate.{json,md}" % a.out)


if __name__ == "__main__":
    main()
