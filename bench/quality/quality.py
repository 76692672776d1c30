#!/usr/bin/env python3
"""bench/quality/quality.py - how good the advice is and how faithful its
estimates are (issue 7), from `dlayout validate` runs over SimGrid.

For every sample, machine and processor count it runs
  1. `dlayout validate MODEL --layouts all`: the recommended layout, the
     advisor's alternatives and `validate`'s own baselines;
  2. `dlayout validate MODEL --layouts FILE` on the layouts a user would pick
     without the tool (BASELINES below) and, on the thesis's own machine and
     P, PARADIGM's published choice (THESIS below);
and sets the recommended layout's simulated time beside the best simulated
time of every candidate (the oracle), beside each baseline, and beside the
thesis's choice. The same runs give the fidelity figures: Spearman of
predicted against simulated seconds, predicted/simulated time, bytes and
messages, and which term of the model is off where they disagree.

  quality.py run   --out DIR [--name NAME] [--only S1,S2] [--procs 4,16,64]
                   [--machines ipsc2,cluster] [--jobs 2] [--timeout 600]
  quality.py check DIR/NAME.json [--report-only WORD]
                                     exit 1 when an aim is missed (CI)
  quality.py render DIR/NAME.json    rewrite the Markdown and charts
  quality.py merge BASE.json PART.json --note TEXT
                                     PART's rows (a run with --only) replace
                                     BASE's of the same sample, machine and P;
                                     BASE's host.rerun says which, with PART's
                                     binaries and the note; then render

Simulated times are deterministic: a layout run twice gives the same
seconds, which the script checks wherever a layout appears in both runs.
"""
import argparse
import concurrent.futures as cf
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import DLAYOUT, SAMPLES, SRC, fmt, host_info, run, write  # noqa: E402
from spearman import spearman  # noqa: E402
import svg  # noqa: E402

# Aims of issue 7.
AIM_ORACLE_GEOMEAN = 1.05   # recommended / best measured, geometric mean
AIM_ORACLE_WORST = 1.20     # ... and worst case
AIM_SPEARMAN_MEDIAN = 0.9   # over the runs with >= 4 candidates
AIM_BYTES = 0.05            # predicted bytes within 5 % for affine programs

# Dense factorisations: ScaLAPACK's default 2-D block-cyclic grid with
# 64 x 64 blocks is the baseline their users would pick.
DENSE_FACTORISATIONS = {"paradigm/dgefa.F", "paradigm/tred2.F", "c/lu.c"}

# PARADIGM's published choices (Gupta 1992, §6; digest-paradigm-thesis.md
# §6), on the 16-node iPSC/2. Per array, per dimension: "*" collapsed,
# "b0"/"c0" BLOCK/CYCLIC on mesh dimension 0, and so on. Arrays not named
# are replicated; "first" is "every array blocked on its first dimension".
THESIS_MACHINE, THESIS_PROCS = "ipsc2", 16
THESIS = {
    "paradigm/tred2.F": ([16], {"A": ["c0", "*"], "Z": ["c0", "*"], "D": ["c0"], "E": ["c0"]},
                         "A, Z row-cyclic; D, E cyclic, aligned; 16x1"),
    "paradigm/jacobi.F": ([16], {"A": ["*", "b0"], "B": ["*", "b0"]},
                          "A, B column-blocked, aligned; 1x16 (NP2 = 66)"),
    "paradigm/dgefa.F": ([2, 8], {"A": ["c0", "c1"]}, "A cyclic in both dimensions; 2x8 (N = 128)"),
    "paradigm/olda.F": ([16], {"XRSIQ": ["c0", "*"], "V": ["*", "c0"], "XIJ": ["c0"], "XRSPQ": ["c0"]},
                        "XRSIQ row-cyclic, V column-cyclic, XIJ and XRSPQ cyclic; 1-D 16"),
    "paradigm/dflux.F": ([16], "first", "every array blocked on its first dimension; 16"),
    "paradigm/eflux.F": ([16], "first", "every array blocked on its first dimension; 16"),
}


def dim(kind, mesh_dim=None, block=None):
    d = {"kind": kind}
    if mesh_dim is not None:
        d["mesh_dim"] = mesh_dim
    if block is not None:
        d["block"] = block
    return d


def layout_doc(mesh, arrays):
    return {"schema": "dlayout-layout/1", "mesh": mesh, "arrays": arrays}


def dims_create(p):
    """MPI_Dims_create(p, 2): the squarest p0 x p1 = p with p0 >= p1."""
    p1 = int(math.isqrt(p))
    while p1 > 1 and p % p1:
        p1 -= 1
    return [p // p1, p1]


def baselines(model, procs, sample):
    """The layouts a user would pick without the tool (issue 7): 1-D BLOCK on
    the first and on the last dimension of every array, MPI_Dims_create's
    BLOCK x BLOCK grid, and for dense factorisations ScaLAPACK's 2-D
    block-cyclic grid with 64 x 64 blocks."""
    arrays = model["arrays"]
    rank = {a["name"]: len(a["dims"]) for a in arrays}
    out = []

    def one_d(pick):
        return layout_doc([procs], {n: {"dims": [dim("block", 0) if k == pick(r) else dim("collapsed")
                                                 for k in range(r)]} for n, r in rank.items()})

    out.append(("block-first", one_d(lambda r: 0)))
    last = one_d(lambda r: r - 1)
    if last != out[0][1]:
        out.append(("block-last", last))
    if procs > 1 and max(rank.values(), default=0) >= 2:
        mesh = dims_create(procs)
        grid = "%dx%d" % tuple(mesh)
        if mesh[1] > 1:
            def two_d(mk):
                return layout_doc(mesh, {n: {"dims": [mk(k) if k < 2 else dim("collapsed") for k in range(r)]}
                                         for n, r in rank.items()})
            out.append(("block-block-" + grid, two_d(lambda k: dim("block", k))))
            if sample in DENSE_FACTORISATIONS:
                out.append(("scalapack-64-" + grid, two_d(lambda k: dim("block_cyclic", k, 64))))
    return out


def thesis_layout(sample, model):
    spec = THESIS.get(sample)
    if not spec:
        return None
    mesh, arrays, text = spec
    doc = {}
    for a in model["arrays"]:
        r = len(a["dims"])
        if arrays == "first":
            doc[a["name"]] = {"dims": [dim("block", 0) if k == 0 else dim("collapsed") for k in range(r)]}
            continue
        want = arrays.get(a["name"], ["*"] * r)
        if len(want) != r:
            raise ValueError("%s: the thesis layout of %s has %d dimensions, the model %d" % (
                sample, a["name"], len(want), r))
        doc[a["name"]] = {"dims": [dim("collapsed") if w == "*" else
                                   dim({"b": "block", "c": "cyclic"}[w[0]], int(w[1:])) for w in want]}
    return layout_doc(mesh, doc), text


def canon(layout):
    return json.dumps(layout, sort_keys=True)


def affine(model):
    """True when every subscript of every reference is affine (no indirect
    or unknown subscript)."""
    def refs(x):
        if isinstance(x, dict):
            if "subscripts" in x:
                yield x
            for v in x.values():
                yield from refs(v)
        elif isinstance(x, list):
            for v in x:
                yield from refs(v)
    return all(s["class"] not in ("indirect", "unknown") for r in refs(model["statements"])
               for s in r["subscripts"])


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def median(xs):
    xs = sorted(x for x in xs if x is not None)
    if not xs:
        return None
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


# --------------------------------------------------------------------------
# Running


def extract(sample, params, tmp):
    path = os.path.join(tmp, sample.replace("/", "_") + ".model.json")
    if not os.path.exists(path):
        args = ["extract", os.path.join(SRC, "samples", sample), "-o", path]
        for p in params:
            args += ["--param", p]
        p = subprocess.run([DLAYOUT] + args, capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            raise RuntimeError("extract %s: %s" % (sample, p.stderr.strip()[-400:]))
    return path, json.load(open(path))


def common_args(model_path, params, machine, procs):
    a = [model_path, "--procs", str(procs), "--machine", machine]
    for p in params:
        a += ["--param", p]
    return a


def estimate_split(model_path, params, machine, procs, layout, tmp):
    """The estimator's computation and communication seconds and its
    predicted messages of the busiest processor, per phase, for LAYOUT; an
    error message when the layout is refused."""
    fd, lf = tempfile.mkstemp(suffix=".json", dir=tmp)
    with os.fdopen(fd, "w") as f:
        json.dump(layout, f)
    try:
        est, _, _ = run(["estimate"] + common_args(model_path, params, machine, procs) +
                        ["--layout", lf, "--format", "json"], 300)
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        return None, str(e).splitlines()[-1][-300:]
    finally:
        os.unlink(lf)
    return {p["id"]: (p["computation_seconds"], p["communication_seconds"]) for p in est["phases"]}, None


# The layouts validate's "all" runs at most: the recommended one, five
# alternatives, 1-D BLOCK on each of up to three dimensions and BLOCK x BLOCK.
MOST_LAYOUTS = 10


def validate(model_path, params, machine, procs, layouts, timeout, tmp):
    args = ["validate"] + common_args(model_path, params, machine, procs) + [
        "--backend", "simgrid", "--format", "json", "--timeout", str(int(timeout))]
    if isinstance(layouts, str):
        args += ["--layouts", layouts]
    else:
        fd, lf = tempfile.mkstemp(suffix=".json", dir=tmp)
        with os.fdopen(fd, "w") as f:
            json.dump(layouts, f)
        args += ["--layouts", lf]
    # `timeout` bounds each layout's job (validate enforces it); this bounds
    # the whole run, every layout one after another ("all": at most
    # MOST_LAYOUTS), against a hang of validate itself.
    count = MOST_LAYOUTS if isinstance(layouts, str) else len(layouts)
    doc, wall, _ = run(args, timeout * count + 60)
    return doc, wall


def summarise_run(r, split):
    executed = [ph for ph in r["phases"] if ph["executed"]]
    meas_comp = sum(ph["computation_seconds"] for ph in executed)
    out = {"layout": r["layout"], "recommended": r["recommended"], "mesh": r["layout_document"]["mesh"],
           "layout_document": r["layout_document"],
           "predicted_seconds": r["predicted_seconds"], "measured_seconds": r["measured_seconds"],
           "bytes": r["bytes"], "predicted_bytes": r["predicted_bytes"], "messages": r["messages"],
           "predicted_messages": r["predicted_messages"], "busiest_messages": r["busiest_messages"],
           "correct": r["correct"], "measured_computation": meas_comp}
    if split:
        ids = {ph["id"] for ph in executed}
        out["predicted_computation"] = sum(v[0] for k, v in split.items() if k in ids)
        out["predicted_communication"] = sum(v[1] for k, v in split.items() if k in ids)
    return out


def off_term(runs):
    """Which term of the model is off: the median over the candidates of
    predicted / simulated computation (the busiest rank's charged work) and
    of predicted / simulated communication (the simulated time not covered by
    that work: communication and waiting on the critical path)."""
    comp, comm = [], []
    for r in runs:
        if "predicted_computation" not in r:
            continue
        if r["measured_computation"] > 0 and r["predicted_computation"] > 0:
            comp.append(r["predicted_computation"] / r["measured_computation"])
        mc = r["measured_seconds"] - r["measured_computation"]
        if mc > 0 and r["predicted_communication"] > 0:
            comm.append(r["predicted_communication"] / mc)
    mc, mm = median(comp), median(comm)
    worst = None
    for name, m in (("computation", mc), ("communication", mm)):
        if m is not None and abs(math.log(m)) > math.log(1.25) and (
                worst is None or abs(math.log(m)) > abs(math.log(worst[1]))):
            worst = (name, m)
    return {"computation_pred_over_sim": mc, "communication_pred_over_sim": mm,
            "off": "%s x%.2f" % worst if worst else None}


def one(sample, params, machine, procs, timeout, tmp):
    row = {"sample": sample, "params": params, "machine": machine, "procs": procs}
    t0 = time.monotonic()
    try:
        model_path, model = extract(sample, params, tmp)
        row["affine"] = affine(model)
        doc, _ = validate(model_path, params, machine, procs, "all", timeout, tmp)
        runs = []
        for r in doc["runs"]:
            split, _ = estimate_split(model_path, params, machine, procs, r["layout_document"], tmp)
            runs.append(summarise_run(r, split))
        # The baselines and the thesis's choice, each checked by the estimator
        # first so that a layout that does not fit is named, not fatal.
        extra, refused = [], []
        cands = baselines(model, procs, sample)
        th = thesis_layout(sample, model) if (machine, procs) == (THESIS_MACHINE, THESIS_PROCS) else None
        if th:
            cands.append(("thesis", th[0]))
            row["thesis_choice"] = th[1]
        splits = {}
        for name, lay in cands:
            split, err = estimate_split(model_path, params, machine, procs, lay, tmp)
            if err:
                refused.append({"layout": name, "why": err})
            else:
                extra.append((name, lay))
                splits[name] = split
        xruns = []
        if extra:
            xdoc, _ = validate(model_path, params, machine, procs, [lay for _, lay in extra], timeout, tmp)
            for (name, _), r in zip(extra, xdoc["runs"]):
                s = summarise_run(r, splits[name])
                s["layout"] = name
                s["recommended"] = False
                xruns.append(s)
    except subprocess.TimeoutExpired as e:
        row["error"] = "dlayout %s ran past %.0f s" % (e.cmd[1], e.timeout)
        row["wall_seconds"] = time.monotonic() - t0
        return row
    except (RuntimeError, ValueError, KeyError) as e:
        row["error"] = str(e)[-600:]
        row["wall_seconds"] = time.monotonic() - t0
        return row
    row["wall_seconds"] = time.monotonic() - t0
    row["runs"], row["extra_runs"], row["refused"] = runs, xruns, refused
    rec = next(r for r in runs if r["recommended"])
    everything = runs + xruns
    best = min(everything, key=lambda r: r["measured_seconds"])
    row["recommended_seconds"] = rec["measured_seconds"]
    row["best_layout"], row["best_seconds"] = best["layout"], best["measured_seconds"]
    row["oracle_ratio"] = rec["measured_seconds"] / best["measured_seconds"] if best["measured_seconds"] > 0 else 1.0
    base = [r for r in xruns if r["layout"] != "thesis"]
    row["baselines"] = {r["layout"]: r["measured_seconds"] / rec["measured_seconds"] for r in base}
    if base:
        bb = min(base, key=lambda r: r["measured_seconds"])
        row["best_baseline"] = bb["layout"]
        row["speedup_over_best_baseline"] = bb["measured_seconds"] / rec["measured_seconds"]
    thesis = next((r for r in xruns if r["layout"] == "thesis"), None)
    if thesis:
        row["thesis_over_recommended"] = thesis["measured_seconds"] / rec["measured_seconds"]
        row["thesis_same_as_recommended"] = canon(thesis["layout_document"]) == canon(rec["layout_document"])
    # Determinism: the same layout must simulate to the same seconds.
    seen, row["determinism_mismatches"] = {}, []
    for r in everything:
        k = canon(r["layout_document"])
        if k in seen and seen[k] != r["measured_seconds"]:
            row["determinism_mismatches"].append(r["layout"])
        seen.setdefault(k, r["measured_seconds"])
    row["candidates"] = len(runs)
    row["spearman"] = doc["spearman"]
    row["all_correct"] = all(r["correct"] for r in everything)
    ratios = [r["predicted_seconds"] / r["measured_seconds"] for r in runs if r["measured_seconds"] > 0]
    row["pred_over_meas_geomean"] = geomean(ratios)
    row["pred_over_meas_range"] = [min(ratios), max(ratios)] if ratios else None
    row["bytes_ratios"] = [r["predicted_bytes"] / r["bytes"] if r["bytes"] else (1.0 if not r["predicted_bytes"] else None)
                           for r in runs]
    row["messages_ratios"] = [r["predicted_messages"] / r["busiest_messages"] if r["busiest_messages"]
                              else (1.0 if not r["predicted_messages"] else None) for r in runs]
    row.update(off_term(runs))
    return row


# --------------------------------------------------------------------------
# Summary and aims


def summary(rows):
    ok = [r for r in rows if "runs" in r]
    orc = [r["oracle_ratio"] for r in ok]
    worst = max(ok, key=lambda r: r["oracle_ratio"]) if ok else None
    slower = [r for r in ok if r.get("speedup_over_best_baseline", 1.0) < 1 - 1e-9]
    four = [r for r in ok if r["candidates"] >= 4]
    sp = [r["spearman"] for r in four if r["spearman"] is not None]
    aff = [b for r in ok if r["affine"] for b in r["bytes_ratios"]]
    within = [b for b in aff if b is not None and abs(b - 1) <= AIM_BYTES]
    s = {
        "runs": len(rows), "errors": ["%s %s P=%d" % (r["sample"], r["machine"], r["procs"]) for r in rows if "error" in r],
        "incorrect": ["%s %s P=%d" % (r["sample"], r["machine"], r["procs"]) for r in ok if not r["all_correct"]],
        "determinism_mismatches": ["%s %s P=%d" % (r["sample"], r["machine"], r["procs"])
                                   for r in ok if r["determinism_mismatches"]],
        "oracle_geomean": geomean(orc), "oracle_worst": worst["oracle_ratio"] if worst else None,
        "oracle_worst_at": "%s %s P=%d" % (worst["sample"], worst["machine"], worst["procs"]) if worst else None,
        "slower_than_best_baseline": ["%s %s P=%d (%s %.2fx faster)" % (
            r["sample"], r["machine"], r["procs"], r["best_baseline"], 1 / r["speedup_over_best_baseline"])
            for r in slower],
        "speedup_over_best_baseline_geomean": geomean([r["speedup_over_best_baseline"] for r in ok
                                                       if "speedup_over_best_baseline" in r]),
        "spearman_runs": len(four), "spearman_defined": len(sp), "spearman_median": median(sp),
        "spearman_min": min(sp) if sp else None,
        "affine_bytes_rows": len(aff), "affine_bytes_within": len(within),
    }
    s["aims"] = {
        "oracle geometric mean <= %.2f" % AIM_ORACLE_GEOMEAN:
            s["oracle_geomean"] is not None and s["oracle_geomean"] <= AIM_ORACLE_GEOMEAN,
        "oracle worst <= %.2f" % AIM_ORACLE_WORST: s["oracle_worst"] is not None and s["oracle_worst"] <= AIM_ORACLE_WORST,
        "never slower than the best baseline": not slower and bool(ok),
        "Spearman median >= %.1f" % AIM_SPEARMAN_MEDIAN:
            s["spearman_median"] is not None and s["spearman_median"] >= AIM_SPEARMAN_MEDIAN,
        "bytes within 5 % for affine programs": bool(aff) and len(within) == len(aff),
        "every run correct, none failed": not s["errors"] and not s["incorrect"] and bool(ok),
        "simulation deterministic": not s["determinism_mismatches"],
    }
    return s


def error_text(e):
    """An error's last line, short; a timeout as the command and its limit."""
    m = re.search(r"Command '\['[^']*', '(\w+)'.*timed out after ([0-9.]+) seconds", e)
    if m:
        return "dlayout %s ran past %.0f s" % (m.group(1), float(m.group(2)))
    return e.splitlines()[-1][-160:] if e else ""


def markdown(doc):
    s = doc["summary"]
    L = ["# Quality of the advice and fidelity of the estimates", "",
         "Generated by `bench/quality/run.sh` (`bench/README.md`). Backend `simgrid` (simulated seconds, "
         "deterministic); machines %s; P = %s; samples at the small parameters of `bench/common.py`. "
         "*oracle* = recommended / best simulated time over every candidate (the advisor's, `validate`'s "
         "baselines, the user baselines below and the thesis's choice). Baselines: `block-first`, "
         "`block-last` (1-D BLOCK on the first / last dimension of every array), `block-block-PxQ` "
         "(MPI_Dims_create's grid), `scalapack-64-PxQ` (2-D block-cyclic, 64 x 64 blocks, dense "
         "factorisations only). *speed-up* = best baseline / recommended. *thesis* = PARADIGM's published "
         "choice / recommended, on its own machine and P (ipsc2, 16)." % (
             ", ".join(doc["machines"]), ", ".join(map(str, doc["procs"]))), "",
         "## Aims", "", "| aim | met |", "|:---|:---:|"]
    for k, v in s["aims"].items():
        L.append("| %s | %s |" % (k, "yes" if v else "**NO**"))
    L += ["",
          "Oracle: geometric mean **%s**, worst **%s** (%s). Speed-up over the best baseline: geometric mean "
          "**%s**; slower than it: %s. Spearman (runs with >= 4 candidates: %d, defined: %d): median **%s**, "
          "min %s. Affine programs' bytes within 5 %%: **%d of %d** layouts. Errors: %s. Not correct: %s." % (
              fmt(s["oracle_geomean"]), fmt(s["oracle_worst"]), s["oracle_worst_at"] or "—",
              fmt(s["speedup_over_best_baseline_geomean"], 2), "; ".join(s["slower_than_best_baseline"]) or "never",
              s["spearman_runs"], s["spearman_defined"], fmt(s["spearman_median"]), fmt(s["spearman_min"]),
              s["affine_bytes_within"], s["affine_bytes_rows"], "; ".join(s["errors"]) or "none",
              "; ".join(s["incorrect"]) or "none"), "",
          "![oracle](%s-oracle.svg)" % doc["name"], "", "![speed-up](%s-speedup.svg)" % doc["name"], "",
          "## Per program", "",
          "*msgs pred/meas*: the median over the candidates of the messages the estimator has the busiest "
          "processor send over those the busiest rank sent. "
          "*off*: the model's term whose median predicted/simulated ratio over the candidates is furthest "
          "from 1 (shown when beyond 1.25x): computation is the busiest rank's charged work, communication "
          "the rest of the simulated time. Where *pred/meas* is near 1 and a term is off, the split differs, "
          "not the total: a recurrence that runs one processor after another is the estimate's computation "
          "along the whole chain, and in the simulation the "
          "busiest rank's own work plus its waiting for the chain, counted as communication.", "",
          "| sample | machine | P | cand. | oracle | best | speed-up (best baseline) | ScaLAPACK | thesis | Spearman | pred/meas | bytes ±5 % | msgs pred/meas | off | correct |",
          "|:---|:---|---:|---:|---:|:---|:---|---:|:---|---:|---:|:---|---:|:---|:---:|"]
    for r in doc["rows"]:
        if "runs" not in r:
            L.append("| %s | %s | %d | — | — | — | — | — | — | — | — | — | — | error: %s | — |" % (
                r["sample"], r["machine"], r["procs"], error_text(r["error"]).replace("|", "/")))
            continue
        sc = next((v for k, v in r["baselines"].items() if k.startswith("scalapack")), None)
        th = "—"
        if "thesis_over_recommended" in r:
            th = "same" if r["thesis_same_as_recommended"] else "%.2f" % r["thesis_over_recommended"]
        br = [b for b in r["bytes_ratios"] if b is not None]
        nb = sum(abs(b - 1) <= AIM_BYTES for b in br)
        L.append("| %s | %s | %d | %d | %.3f | %s | %s | %s | %s | %s | %s | %d/%d%s | %s | %s | %s |" % (
            r["sample"], r["machine"], r["procs"], r["candidates"], r["oracle_ratio"], r["best_layout"],
            ("%.2f (%s)" % (r["speedup_over_best_baseline"], r["best_baseline"])) if "best_baseline" in r else "—",
            fmt(sc, 2), th, fmt(r["spearman"], 2), fmt(r["pred_over_meas_geomean"], 2), nb, len(r["bytes_ratios"]),
            "" if r["affine"] else " (not affine)", fmt(median(r.get("messages_ratios", [])), 2),
            r["off"] or "", "yes" if r["all_correct"] else "**NO**"))
    L += ["", "Host: %s, %d CPUs; total wall time %.0f s." % (doc["host"]["host"], doc["host"]["cpus"],
                                                          doc["total_wall_seconds"]), ""]
    for r in doc["host"].get("rerun", []):
        L += ["Rerun and merged since (`quality.py merge`): %s: %s" % (", ".join(r["rows"]), r["note"]), ""]
    return "\n".join(L)


def charts(doc, out):
    rows = [r for r in doc["rows"] if "runs" in r]
    mi = {m: i for i, m in enumerate(doc["machines"])}
    label = lambda r: "%s %s P=%d" % (r["sample"].split("/")[-1], r["machine"], r["procs"])  # noqa: E731
    with open(os.path.join(out, doc["name"] + "-oracle.svg"), "w") as f:
        f.write(svg.bar_chart("Recommended / best simulated (oracle), per run", [
            (label(r), r["oracle_ratio"], mi[r["machine"]]) for r in rows], "ratio", ref=AIM_ORACLE_WORST))
    with open(os.path.join(out, doc["name"] + "-speedup.svg"), "w") as f:
        f.write(svg.bar_chart("Speed-up of the advice over the best user baseline", [
            (label(r), r.get("speedup_over_best_baseline"), mi[r["machine"]]) for r in rows],
            "best baseline / recommended", ref=1.0, log=True))


def cmd_run(a):
    # --only takes sample paths (zima/spmv.F) or their stems (spmv); a name
    # that matches no sample is an error, not an empty run.
    only = set(a.only.split(",")) if a.only else set()
    def names(n):
        return {n, os.path.splitext(os.path.basename(n))[0]}
    unknown = only - set().union(*(names(n) for n, _ in SAMPLES))
    if unknown:
        sys.exit(f"quality.py: --only names no sample: {', '.join(sorted(unknown))}")
    todo = [(n, p) for n, p in SAMPLES if not only or names(n) & only]
    machines = a.machines.split(",")
    procs = [int(x) for x in a.procs.split(",")]
    jobs = [(n, p, m, q) for n, p in todo for m in machines for q in procs]
    t0 = time.monotonic()
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        # Models first (one compile per sample), then the runs.
        for n, p in todo:
            try:
                extract(n, p, tmp)
            except (RuntimeError, subprocess.TimeoutExpired):
                pass
        with cf.ThreadPoolExecutor(a.jobs) as ex:
            futs = {ex.submit(one, n, p, m, q, a.timeout, tmp): (n, m, q) for n, p, m, q in jobs}
            for f in cf.as_completed(futs):
                r = f.result()
                rows[futs[f]] = r
                print("quality %s %s P=%d: %s (%.0f s)" % (
                    r["sample"], r["machine"], r["procs"],
                    ("oracle %.3f, Spearman %s" % (r["oracle_ratio"], fmt(r["spearman"], 2))) if "runs" in r
                    else "error: " + r["error"].splitlines()[-1][:200], r["wall_seconds"]), file=sys.stderr)
    doc = {"schema": "dlayout-bench-quality/1", "name": a.name, "backend": "simgrid", "machines": machines,
           "procs": procs, "host": host_info(), "total_wall_seconds": time.monotonic() - t0,
           "rows": [rows[(n, m, q)] for n, _, m, q in jobs]}
    doc["summary"] = summary(doc["rows"])
    write(a.out, a.name, doc, markdown(doc))
    charts(doc, a.out)


def rewrite(doc, path):
    """Summary, JSON, Markdown and charts of `doc` anew, beside `path`."""
    doc["summary"] = summary(doc["rows"])
    out = os.path.dirname(os.path.abspath(path))
    write(out, doc["name"], doc, markdown(doc))
    charts(doc, out)


def cmd_render(a):
    rewrite(json.load(open(a.file)), a.file)


def cmd_merge(a):
    for path in (a.base, a.part):
        if not os.path.isfile(path):
            sys.exit("quality.py merge: no file %s" % path)
    doc, part = json.load(open(a.base)), json.load(open(a.part))
    key = lambda r: (r["sample"], r["machine"], r["procs"])
    new = {key(r): r for r in part["rows"]}
    missing = sorted(set(new) - {key(r) for r in doc["rows"]})
    if missing:
        sys.exit("quality.py merge: %s has no rows %s" % (a.base, missing))
    doc["rows"] = [new.get(key(r), r) for r in doc["rows"]]
    doc["host"].setdefault("rerun", []).append({
        "rows": sorted("%s %s P=%d" % k for k in new), "note": a.note,
        "dlayout": part["host"].get("dlayout"), "executor": part["host"].get("executor")})
    rewrite(doc, a.base)


def cmd_check(a):
    doc = json.load(open(a.file))
    s = summary(doc["rows"])
    reported = [k for k in s["aims"] if any(x in k for x in a.report_only)]
    missed = [k for k, v in s["aims"].items() if not v and k not in reported]
    for k, v in s["aims"].items():
        print("%-45s %s%s" % (k, "met" if v else "MISSED", " (reported, not enforced)" if k in reported else ""))
    if missed:
        print("quality: %d aim(s) missed; see %s" % (len(missed), a.file.replace(".json", ".md")), file=sys.stderr)
        sys.exit(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--out", required=True)
    r.add_argument("--name", default="quality")
    r.add_argument("--only", default="")
    r.add_argument("--procs", default="4,16,64")
    r.add_argument("--machines", default="ipsc2,cluster")
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--timeout", type=float, default=600)
    c = sub.add_parser("check")
    c.add_argument("file")
    c.add_argument("--report-only", action="append", default=[], metavar="WORD",
                   help="aims whose name contains WORD are printed but do not fail")
    sub.add_parser("render").add_argument("file")
    m = sub.add_parser("merge")
    m.add_argument("base")
    m.add_argument("part")
    m.add_argument("--note", required=True)
    a = ap.parse_args()
    {"run": cmd_run, "check": cmd_check, "render": cmd_render, "merge": cmd_merge}[a.cmd](a)


if __name__ == "__main__":
    main()
