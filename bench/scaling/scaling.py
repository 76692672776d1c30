#!/usr/bin/env python3
"""How dlayout's time and memory grow with the size of the program (issue 7).

Generated programs (bench/extract/gen_nests.py, one main routine, the arrays
its own) of 10 to 2,000 loop nests over 5 to 200 arrays. For each size, each
stage runs as its own process, timed (wall clock) with its peak resident
memory (wait4's ru_maxrss):

  compile    flang-new-19 -S -emit-llvm -g -O0 (the compile to IR dlayout
             runs before it analyses, as text, through the driver; for
             scale, not a stage of dlayout's)
  extract    dlayout extract FILE.ll       (the LLVM pass: loops, references,
                                            dependences)
  estimate   dlayout estimate MODEL --layout L  (the estimator built and one
                                                 layout costed)
  passes     dlayout advise MODEL --no-exact   (the PARADIGM passes: the time
                                                is solver.stats.passes_seconds)
  optimiser  dlayout advise MODEL              (the exact optimiser, on Z3:
                                                solver.stats.optimiser_seconds)

Aim: time linear in the number of references for everything but the exact
optimiser, which reports its own limit (its time limit, and whether it
proved its answer). "Linear" is judged by the slope of log(time) against
log(references) over the three largest sizes (1 is linear; the smaller sizes
are dominated by starting the process). Writes bench/results/scaling.json,
scaling.md and the charts scaling-time.svg and scaling-memory.svg.

Environment: DLAYOUT (default build/cli/dlayout; measure a Release build),
FLANG (default flang-new-19). Options: --sizes NESTS:ARRAYS,...  --procs P
--time-limit SECONDS (the exact optimiser's). Exit status: 0, 1 if a stage
failed or a slope is above the aim (--max-slope, default 1.25), 2 if a tool
is missing.
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import svg  # noqa: E402

BIN = os.environ.get("DLAYOUT", os.path.join(ROOT, "build", "cli", "dlayout"))
FLANG = os.environ.get("FLANG", "flang-new-19")
RESULTS = os.environ.get("RESULTS", os.path.join(ROOT, "bench", "results"))
SIZES = "10:5,30:5,100:10,300:30,1000:100,2000:200"
STAGES = ["extract", "estimate", "passes", "optimiser"]


def run(args, timeout=1800):
    """Runs args; returns (wall seconds, peak resident MiB, stdout)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(args, stdout=out, stderr=err)
        deadline = t0 + timeout
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                p.kill()
                os.wait4(p.pid, 0)
                raise RuntimeError(f"{' '.join(args)}: no answer in {timeout} s")
            time.sleep(0.005)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:3])}: exit {p.returncode}: {err.read().strip()[-400:]}")
        return wall, usage.ru_maxrss / 1024.0, out.read()


def slope(points):
    """Least-squares slope of log y against log x."""
    pts = [(math.log(x), math.log(y)) for x, y in points if x > 0 and y > 0]
    if len(pts) < 2:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sxx if sxx else None


def measure(nests, arrays, tmp, procs, limit):
    base = os.path.join(tmp, f"g{nests}_{arrays}")
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "extract", "gen_nests.py"),
                    "--nests", str(nests), "--arrays", str(arrays), "--per-routine", "0",
                    "-o", base + ".F"], check=True)
    row = {"nests": nests, "arrays": arrays}
    row["compile"], row["compile_mib"], _ = run(
        [FLANG, "-S", "-emit-llvm", "-g", "-O0", base + ".F", "-o", base + ".ll"])
    row["extract"], row["extract_mib"], _ = run([BIN, "extract", base + ".ll", "-o", base + ".json"])
    with open(base + ".json") as f:
        model = json.load(f)
    row["references"] = sum(len(s.get("refs", [])) for s in model["statements"])
    row["statements"] = len(model["statements"])
    row["model_arrays"] = len(model["arrays"])
    row["dependences"] = len(model["dependences"])
    common = ["--procs", str(procs), "--machine", "ipsc2", "--format", "json"]
    wall, mib, out = run([BIN, "advise", base + ".json", "--no-exact", *common])
    advice = json.loads(out)
    st = advice["solver"]["stats"]
    row["passes"], row["passes_mib"] = st["passes_seconds"], mib
    row["passes_process"] = wall
    row["analysis"] = st["analysis_seconds"]
    row["estimates"] = st["estimates"]
    layout = {k: v for k, v in advice["recommended"].items() if k != "predicted_seconds"}
    with open(base + ".layout.json", "w") as f:
        json.dump(layout, f)
    row["estimate"], row["estimate_mib"], _ = run(
        [BIN, "estimate", base + ".json", "--layout", base + ".layout.json",
         "--procs", str(procs), "--machine", "ipsc2", "--format", "json", "-o", os.devnull])
    wall, mib, out = run([BIN, "advise", base + ".json", *common, "--time-limit", str(limit)])
    advice = json.loads(out)
    st = advice["solver"]["stats"]
    row["optimiser"], row["optimiser_mib"] = st["optimiser_seconds"], mib
    row["optimiser_z3"] = st["optimiser_z3_seconds"]
    row["optimiser_variables"] = st.get("optimiser_variables")
    row["optimiser_eliminated"] = st.get("optimiser_eliminated")
    row["optimiser_proved"] = bool(advice["solver"].get("proved"))
    row["optimiser_timed_out"] = any(w.get("kind") == "solver-time-limit"
                                     for w in advice.get("warnings", []))
    row["gap"] = advice["solver"].get("gap")
    return row


def fmt(x, d=3):
    return "—" if x is None else f"{x:.{d}f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default=SIZES, help=f"NESTS:ARRAYS,... (default {SIZES})")
    ap.add_argument("--procs", type=int, default=16)
    ap.add_argument("--time-limit", type=float, default=5.0)
    ap.add_argument("--max-slope", type=float, default=1.25)
    opts = ap.parse_args()
    for tool in (BIN, FLANG):
        if not shutil.which(tool) and not os.access(tool, os.X_OK):
            print(f"scaling: {tool} not found", file=sys.stderr)
            return 2
    sizes = [tuple(int(v) for v in s.split(":")) for s in opts.sizes.split(",")]
    rows, failed = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for nests, arrays in sizes:
            try:
                row = measure(nests, arrays, tmp, opts.procs, opts.time_limit)
            except (RuntimeError, subprocess.CalledProcessError) as e:
                failed.append({"nests": nests, "arrays": arrays, "error": str(e)})
                print(f"scaling {nests} nests, {arrays} arrays: {e}", file=sys.stderr)
                continue
            rows.append(row)
            print(f"scaling {nests:5d} nests {arrays:4d} arrays {row['references']:6d} refs: "
                  + "  ".join(f"{s} {row[s]:.3f} s" for s in ["compile"] + STAGES), file=sys.stderr)

    largest = sorted(rows, key=lambda r: r["references"])[-3:]
    slopes = {s: slope([(r["references"], r[s]) for r in largest]) for s in STAGES}
    mem_slopes = {s: slope([(r["references"], r[s + "_mib"]) for r in largest]) for s in STAGES}
    linear = [s for s in STAGES if s != "optimiser"]
    over = [s for s in linear if slopes[s] is not None and slopes[s] > opts.max_slope]

    doc = {"schema": "dlayout-bench-scaling/1", "binary": BIN, "procs": opts.procs,
           "machine": "ipsc2", "time_limit": opts.time_limit, "rows": rows, "failed": failed,
           "slopes": slopes, "memory_slopes": mem_slopes, "max_slope": opts.max_slope,
           "over": over}
    os.makedirs(RESULTS, exist_ok=True)
    with open(os.path.join(RESULTS, "scaling.json"), "w") as f:
        json.dump(doc, f, indent=1)
    names = {"compile": "flang -O0 to IR", "extract": "extract", "estimate": "estimate",
             "passes": "PARADIGM passes", "optimiser": "exact optimiser"}
    with open(os.path.join(RESULTS, "scaling-time.svg"), "w") as f:
        f.write(svg.line_chart("Time against program size",
                               [(names[s], [(r["references"], r[s]) for r in rows])
                                for s in ["compile"] + STAGES],
                               "array references", "seconds"))
    with open(os.path.join(RESULTS, "scaling-memory.svg"), "w") as f:
        f.write(svg.line_chart("Peak memory against program size",
                               [(names[s], [(r["references"], r[s + "_mib"]) for r in rows])
                                for s in ["compile"] + STAGES],
                               "array references", "MiB (peak resident)"))
    lines = [f"Generated programs (bench/extract/gen_nests.py, one routine), `--procs {opts.procs}"
             f" --machine ipsc2`, binary {os.path.relpath(BIN, ROOT)}; seconds (wall clock, "
             "one run each) and peak resident MiB of each stage's process. *passes* and "
             "*optimiser* are the advice's own stage times (solver.stats).", "",
             "| nests | arrays | references | dependences | compile | extract | estimate | passes "
             "| optimiser | optimiser variables (eliminated) | proved | memory: extract / estimate "
             "/ passes / optimiser |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        lines.append(
            f"| {r['nests']} | {r['model_arrays']} | {r['references']} | {r['dependences']} | "
            f"{fmt(r['compile'])} | {fmt(r['extract'])} | {fmt(r['estimate'])} | "
            f"{fmt(r['passes'])} | {fmt(r['optimiser'])} | {r['optimiser_variables']} "
            f"({r['optimiser_eliminated']}) | "
            + ("yes" if r["optimiser_proved"] else
               ("no, time limit" if r["optimiser_timed_out"] else "no")) + " | "
            + " / ".join(f"{r[s + '_mib']:.0f}" for s in STAGES) + " |")
    for f_ in failed:
        lines.append(f"| {f_['nests']} | {f_['arrays']} | failed: {f_['error'][-200:]} |||||||||")
    lines += ["", "*proved*: whether the exact optimiser proved its layout optimal within its "
              f"time limit ({opts.time_limit:g} s, `--time-limit`); where it did not, the advice "
              "says so (warning `solver-time-limit`) and recommends the best layout found, never "
              "one estimated worse than the passes'. *optimiser variables (eliminated)*: its "
              "choices over every mesh shape, and how many bucket elimination summed out "
              "before Z3 (solver/TableSum.h)."]
    lines += ["", "Growth over the three largest sizes (slope of log time against log "
              "references; 1 is linear):", "",
              "| stage | time slope | memory slope | aim |", "| --- | --- | --- | --- |"]
    for s in STAGES:
        aim = (f"time ≤ {opts.max_slope}" if s in linear else
               f"reports its limit ({opts.time_limit:g} s)")
        met = ("" if s not in linear or slopes[s] is None else
               (" — met" if slopes[s] <= opts.max_slope else " — **missed**"))
        lines.append(f"| {names[s]} | {fmt(slopes[s], 2)} | {fmt(mem_slopes[s], 2)} | {aim}{met} |")
    lines += ["", "![time](scaling-time.svg)", "", "![memory](scaling-memory.svg)", ""]
    text = "\n".join(lines) + "\n"
    with open(os.path.join(RESULTS, "scaling.md"), "w") as f:
        f.write(text)
    print(text, end="")
    return 1 if failed or over else 0


if __name__ == "__main__":
    sys.exit(main())
