#!/usr/bin/env python3
"""The distributions PARADIGM chose for its programs (Gupta 1992, ch. 6;
digest §7) beside what `dlayout advise` chooses, on the iPSC/2 with 16
processors and the thesis's placement of communication.

For each program: the thesis's choice, dlayout's (the PARADIGM passes'
layout, and the recommendation, which may be the exact optimiser's), and
whether the passes reproduce the thesis. Prints a table and writes
bench/results/advice-thesis.json and .md. Exit status 0 unless a run fails;
how many match is the figure, not a verdict.

Environment: DLAYOUT (default build/cli/dlayout).
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("DLAYOUT", os.path.join(ROOT, "build", "cli", "dlayout"))
RESULTS = os.path.join(ROOT, "bench", "results")


def dist(layout, array, dim):
    """(procs, kind) of an array dimension: procs 1 when not distributed."""
    d = layout["arrays"][array]["dims"][dim]
    md = d.get("mesh_dim")
    if d["kind"] in ("collapsed", "replicated") or md is None or layout["mesh"][md] == 1:
        return (1, "*", None)
    kind = d["kind"] + (f"({d['block']})" if d["kind"] == "block_cyclic" else "")
    return (layout["mesh"][md], kind, md)


def summary(layout):
    parts = []
    for name in sorted(layout["arrays"]):
        dims = layout["arrays"][name]["dims"]
        parts.append(name + "(" + ",".join(
            "*" if dist(layout, name, k)[0] == 1 else f"{dist(layout, name, k)[1]}/{dist(layout, name, k)[0]}"
            for k in range(len(dims))) + ")")
    return "x".join(map(str, layout["mesh"])) + " " + " ".join(parts)


def rows_only(l, arrays, kind):
    return all(dist(l, a, 0)[:2] == (16, kind) and
               all(dist(l, a, k)[0] == 1 for k in range(1, len(l["arrays"][a]["dims"])))
               for a in arrays)


CASES = [
    ("tred2", "paradigm/tred2.F", ["N=512"], "A, Z row-cyclic; D, E cyclic aligned; 16x1",
     lambda l: rows_only(l, ["A", "Z", "D", "E"], "cyclic")),
    ("jacobi n=66", "paradigm/jacobi.F", ["NP2=66"], "A, B column-blocked, aligned; 1x16",
     lambda l: all(dist(l, a, 0)[0] == 1 and dist(l, a, 1)[:2] == (16, "block") for a in "AB")),
    ("jacobi n=1026", "paradigm/jacobi.F", ["NP2=1026"], "A, B blocked both ways; 4x4",
     lambda l: all(dist(l, a, k)[:2] == (4, "block") for a in "AB" for k in (0, 1))),
    ("dgefa n=128", "paradigm/dgefa.F", ["N=128"], "A cyclic both ways; 2x8",
     lambda l: dist(l, "A", 0)[:2] == (2, "cyclic") and dist(l, "A", 1)[:2] == (8, "cyclic")),
    ("dgefa n=256", "paradigm/dgefa.F", ["N=256"], "A cyclic both ways; 4x4",
     lambda l: dist(l, "A", 0)[:2] == (4, "cyclic") and dist(l, "A", 1)[:2] == (4, "cyclic")),
    ("dgefa n=512", "paradigm/dgefa.F", ["N=512"], "A cyclic both ways; 4x4",
     lambda l: dist(l, "A", 0)[:2] == (4, "cyclic") and dist(l, "A", 1)[:2] == (4, "cyclic")),
    ("olda", "paradigm/olda.F", [], "XRSIQ rows, V columns, XIJ, XRSPQ cyclic; 1-D 16",
     lambda l: dist(l, "XRSIQ", 0)[:2] == (16, "cyclic") and dist(l, "V", 1)[:2] == (16, "cyclic")
     and dist(l, "XIJ", 0)[:2] == (16, "cyclic") and dist(l, "XRSPQ", 0)[:2] == (16, "cyclic")),
    ("dflux", "paradigm/dflux.F", [], "every array blocked on its first dimension; 16",
     lambda l: rows_only(l, list(l["arrays"]), "block")),
    ("eflux", "paradigm/eflux.F", [], "every array blocked on its first dimension; 16",
     lambda l: rows_only(l, list(l["arrays"]), "block")),
]


def main():
    if not os.access(BIN, os.X_OK):
        print(f"thesis_choices: {BIN} not built (run scripts/build.sh)", file=sys.stderr)
        return 2
    rows = []
    for name, src, params, thesis, matches in CASES:
        args = [BIN, "advise", os.path.join(ROOT, "samples", src), "--procs", "16",
                "--machine", "ipsc2", "--placement", "thesis", "--format", "json"]
        for p in params:
            args += ["--param", p]
        r = subprocess.run(args, capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            print(f"thesis_choices: {name}: {r.stderr.strip()}", file=sys.stderr)
            return 1
        advice = json.loads(r.stdout)
        heuristic = next((a for a in [advice["recommended"]] + advice["alternatives"]
                          if a.get("origin") == "heuristic"), advice["recommended"])
        rows.append({"program": name, "thesis": thesis,
                     "passes": summary(heuristic), "passes_match": bool(matches(heuristic)),
                     "recommended": summary(advice["recommended"]),
                     "recommended_seconds": advice["recommended"]["predicted_seconds"],
                     "heuristic_seconds": advice["solver"]["heuristic_seconds"]})
    os.makedirs(RESULTS, exist_ok=True)
    with open(os.path.join(RESULTS, "advice-thesis.json"), "w") as f:
        json.dump({"schema": "dlayout-bench-advice-thesis/1", "machine": "ipsc2", "procs": 16,
                   "rows": rows}, f, indent=2)
    lines = ["| program | thesis | PARADIGM passes in dlayout | same | recommended (estimate) |",
             "| --- | --- | --- | --- | --- |"]
    for r in rows:
        lines.append(f"| {r['program']} | {r['thesis']} | {r['passes']} | "
                     f"{'yes' if r['passes_match'] else 'no'} | {r['recommended']} "
                     f"({r['recommended_seconds']:.4g} s) |")
    matched = sum(r["passes_match"] for r in rows)
    lines.append("")
    lines.append(f"{matched} of {len(rows)} match the thesis.")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(RESULTS, "advice-thesis.md"), "w") as f:
        f.write(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
