#!/usr/bin/env python3
"""bench/summary.py - the latest benchmark figures in one page.

Reads whatever bench/results/*.json the benchmarks have written, writes
bench/results/SUMMARY.md, and puts the same text into README.md between the
lines `<!-- bench-summary -->` and `<!-- /bench-summary -->`. A benchmark
whose results are missing is listed as not run. Each line links the full
summary of its benchmark.

  bench/summary.py [--results DIR] [--readme FILE]
"""
import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import SRC, fmt  # noqa: E402

BEGIN, END = "<!-- bench-summary -->", "<!-- /bench-summary -->"


def load(results, name):
    try:
        return json.load(open(os.path.join(results, name + ".json")))
    except (OSError, ValueError):
        return None


def line_quality(d):
    s = d["summary"]
    met = sum(1 for v in s["aims"].values() if v)
    missed = [k for k, v in s["aims"].items() if not v]
    return ("recommended / oracle: geometric mean %s, worst %s (%s); speed-up over the best user baseline: "
            "geometric mean %s; Spearman median %s over %d runs; aims met %d of %d%s" % (
                fmt(s["oracle_geomean"]), fmt(s["oracle_worst"]), s["oracle_worst_at"],
                fmt(s["speedup_over_best_baseline_geomean"], 2), fmt(s["spearman_median"], 2),
                s["spearman_defined"], met, len(s["aims"]),
                (" (missed: " + "; ".join(missed) + ")") if missed else ""))


def line_fidelity(d):
    s = d["summary"]
    return ("Spearman over `--layouts all`, P = 16: median %s, %d of %d samples below 0.8; bytes within 5 %%: "
            "%d of %d layouts (jacobi, dflux)" % (fmt(s["spearman_median"], 2), len(s["below_0_8"]),
                                                  s["with_4_candidates"], s["bytes_within_5_percent"],
                                                  s["bytes_rows"]))


def line_jacobi(d):
    r = [x["predicted_seconds"] / x["measured_seconds"] for x in d["runs"]]
    sp = [p["spearman_predicted_measured"] for p in d["per_n"] if p["spearman_predicted_measured"] is not None]
    return ("Jacobi on 16 simulated iPSC/2 nodes, n = %s: predicted / simulated %.2f–%.2f; Spearman %s" % (
        ", ".join(str(p["n"]) for p in d["per_n"]), min(r), max(r), ", ".join("%.2f" % x for x in sp)))


def line_speed(d):
    line = "`dlayout validate` of jacobi n = 512, 100 cycles, 16 simulated nodes: %.1f s wall (aim < %d s)" % (
        d["best_wall_seconds"], d["aim_seconds"])
    for z in d.get("sizes", [])[1:]:
        line += "; %d nodes: %.1f s" % (z["nodes"], z["best_wall_seconds"])
    return line


def line_thesis(d):
    same = sum(1 for r in d["rows"] if r.get("passes_match"))
    return "PARADIGM's published choices reproduced by the passes: %d of %d" % (same, len(d["rows"]))


def line_advice_speed(d):
    beyond = [s["beyond_compile_seconds"] for s in d["samples"]]
    gen = d.get("generated") or []
    last = gen[-1] if gen else None
    ratios = [s["advise_seconds"] / s["compile_seconds"] for s in d["samples"]]
    slowest = max(d["samples"], key=lambda s: s["advise_seconds"] / s["compile_seconds"])
    return ("`dlayout advise` beyond the compile: %.2f–%.2f s over %d samples; "
            "no slower than the compile on %d of them (the slowest, %s, %.2f× it)%s" % (
        min(beyond), max(beyond), len(beyond), sum(1 for r in ratios if r <= 1),
        slowest["sample"], max(ratios),
        ("; exact optimiser at %d arrays: %.2f s" % (last["arrays"], last["optimiser_seconds"])) if last else ""))


def line_extract(d):
    return "; ".join("extract / compile on %s: %.2f×" % (r["input"], r["ratio_extract_over_compile"])
                     for r in d["results"])


def line_scaling(d):
    rows = sorted(d["rows"], key=lambda r: r["references"])
    if not rows:
        return "no sizes measured"
    big = rows[-1]
    slopes = ", ".join("%s %.2f" % (s, d["slopes"][s]) for s in ("extract", "estimate", "passes")
                       if d["slopes"].get(s) is not None)
    return ("%d nests, %d references: extract %.2f s, estimate %.2f s, passes %.2f s, optimiser "
            "%.2f s (%s); growth slopes %s (1 = linear)" % (
                big["nests"], big["references"], big["extract"], big["estimate"], big["passes"],
                big["optimiser"], "proved" if big["optimiser_proved"] else "at its time limit",
                slopes))


def line_reliability(d):
    c = d["catalogue"]
    bugs = d["bugs_found_and_fixed"]
    return "bad-input catalogue %d of %d as specified; %s bugs found and fixed" % (
        c["passed"], c["cases"], len(bugs) if isinstance(bugs, list) else bugs)


def line_kali(d):
    runs = [r for r in d["runs"] if r.get("check") == "OK"]
    return "Kali's relaxation: %d runs on simulated NCUBE/7 and iPSC/2, every one equal to the sequential result" % len(runs)


def line_calibrate(d):
    """Issue 7's calibration aim: with the calibrated machine the Spearman
    figure and the predicted / measured ratio improve over the preset."""
    parts, met = [], True
    for r in d["results"]:
        m = r["machines"]
        pre, cal = m[d["preset"]["name"]], m["calibrated"]
        closer = abs(math.log(cal["median_ratio"])) < abs(math.log(pre["median_ratio"]))
        met = met and cal["spearman"] > pre["spearman"] and closer
        parts.append("%s Spearman %.2f -> %.2f, predicted / measured %.3g -> %.3g" % (
            os.path.basename(r["sample"]), pre["spearman"], cal["spearman"],
            pre["median_ratio"], cal["median_ratio"]))
    return "real ranks (P = %d), preset `%s` -> calibrated: %s; aim (both improve) %s" % (
        d["procs"], d["preset"]["name"], "; ".join(parts), "met" if met else "**not met**")


def line_calibrate_simulated(d):
    """Issue 7's calibration aim on a platform the preset does not describe."""
    s, pre = d["summary"], d["summary"][d["preset"]]
    cal = s["calibrated"]
    return ("simulated platform (the `%s` preset's nodes on Gigabit Ethernet, P = %d, %d samples), preset -> "
            "calibrated: Spearman median %s -> %s (higher on %d samples, lower on %d), predicted / simulated "
            "%.3g -> %.3g; aim (both improve) %s; the calibrated machine's advice faster on %d samples, "
            "slower on %d (%s times, geometric mean)" % (
                d["preset"], d["procs"], s["samples"], fmt(pre["spearman_median"]), fmt(cal["spearman_median"]),
                s["spearman_higher"], s["spearman_lower"], pre["median_ratio"], cal["median_ratio"],
                "met" if s["aim_met"] else "**not met**", s["advice_faster"], s["advice_slower"],
                fmt(s["advice_speedup_geomean"], 2)))


BENCHES = [
    ("quality", "Quality of the advice and fidelity (issue 7)", "bench/quality/run.sh", line_quality),
    ("validate-fidelity", "Fidelity at P = 16 (issue 6)", "bench/validate/run.sh", line_fidelity),
    ("validate-jacobi", "Jacobi beside Table 6.3", "bench/validate/run.sh", line_jacobi),
    ("validate-speed", "Validation speed", "bench/validate/run.sh", line_speed),
    ("advice-thesis", "Thesis choices", "bench/advice/thesis_choices.py", line_thesis),
    ("advice-speed", "Advice speed", "bench/advice/speed.py", line_advice_speed),
    ("extract", "Extraction speed", "bench/extract/run.sh", line_extract),
    ("scaling", "Scaling with program size", "bench/scaling/scaling.py", line_scaling),
    ("kali", "Runtime (Kali)", "bench/kali/run.sh", line_kali),
    ("reliability", "Reliability", "bench/reliability/run.sh", line_reliability),
    ("calibrate-simulated", "Calibration, simulated platform (issue 7)", "bench/calibrate/run.sh",
     line_calibrate_simulated),
    ("calibrate", "Calibration, real ranks (issue 7)", "bench/calibrate/run.sh", line_calibrate),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results", default=os.path.join(SRC, "bench", "results"))
    ap.add_argument("--readme", default=os.path.join(SRC, "README.md"))
    a = ap.parse_args()
    rel = os.path.relpath(a.results, os.path.dirname(os.path.abspath(a.readme)))
    L = ["| benchmark | latest figures | details |", "| --- | --- | --- |"]
    for name, title, script, line in BENCHES:
        d = load(a.results, name)
        try:
            text = line(d) if d else "not run (`%s`)" % script
        except (KeyError, TypeError, ValueError, ZeroDivisionError) as e:
            text = "unreadable results (%s): rerun `%s`" % (e, script)
        L.append("| %s | %s | [%s.md](%s/%s.md) |" % (title, text.replace("|", "/"), name, rel, name))
    table = "\n".join(L) + "\n"
    with open(os.path.join(a.results, "SUMMARY.md"), "w") as f:
        f.write("# Benchmark summary\n\nWritten by `bench/summary.py` from `bench/results/*.json`.\n\n" +
                table.replace("](%s/" % rel, "]("))
    text = open(a.readme).read()
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        open(a.readme, "w").write(head + BEGIN + "\n" + table + END + tail)
    else:
        print("summary.py: %s has no %s ... %s block; only SUMMARY.md written" % (a.readme, BEGIN, END),
              file=sys.stderr)
    sys.stdout.write(table)


if __name__ == "__main__":
    main()
