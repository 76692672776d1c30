#!/usr/bin/env python3
"""Where a layout's predicted bytes part from the simulated ones: per phase and
per processor, the bytes the estimator says each processor sends (each
communication term's `senders` in `dlayout estimate --format json`, counted as
validate's predicted_bytes counts them) beside the bytes each rank sent in a
SimGrid run (`dlayout validate --format json`, ranks[].phases[]).

  bench/quality/senders.py PROGRAM LAYOUT.json --procs P [--param N=V ...]
                           [--machine cluster] [--terms]

The machine defaults to `cluster`, whose ranks are the mesh's row-major
processor ids (on `ipsc2` the Gray-code embedding numbers them otherwise).
--terms lists the terms of the phases that part by more than 5 %, and per
array of those phases the bytes predicted beside simulated (validate's
bytes_sent_by_array; the model's Reduction terms are set beside the run's
scalar reductions), then per fetch (bytes_sent_by_fetch: the executor's
communication for one array and the statements it fetches for) the terms of
those statements beside what the fetch sent.
Environment: DLAYOUT (default build/cli/dlayout)."""
import argparse
import collections
import itertools
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("DLAYOUT", os.path.join(ROOT, "build", "cli", "dlayout"))


def messages_sent(t):
    """validate/Validate.cpp's messagesSent: the messages one sender sends."""
    g = max(t.get("group_size", 1), 1)
    p = t["primitive"]
    if p not in ("Transfer", "Shift") and g < 2:
        return 0.0
    k = g - 1 if p in ("OneToManyMulticast", "ManyToManyMulticast", "Scatter") else 1
    return k * t["repetitions"] * t["senders"]["share"]


def sends(t, at):
    """The part of t's message the processor at coordinates `at` sends (0: none)."""
    s = t["senders"]
    if s["mesh_dim"] is not None and not s["first"] <= at[s["mesh_dim"]] <= s["last"]:
        return 0.0
    part = 1.0
    for p in s.get("parts", []):
        by = p["by_coordinate"]
        if p["mesh_dim"] < len(at) and at[p["mesh_dim"]] < len(by):
            part *= by[at[p["mesh_dim"]]]
    joint = s.get("joint")
    if joint:
        index, stride = 0, 1
        for d, n in zip(joint["mesh_dims"], joint["extents"]):
            if d >= len(at) or not 0 <= at[d] < n:
                return part
            index += at[d] * stride
            stride *= n
        part *= joint["by_coordinates"][index]
    return part


SCALARS = "(scalar reductions)"


def parts(predicted, measured):
    """Whether some processor's predicted bytes part from its simulated by more than 5 %."""
    return any(abs(p - m) > 0.05 * max(m, 1) for p, m in zip(predicted, measured))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("program")
    ap.add_argument("layout")
    ap.add_argument("--procs", type=int, required=True)
    ap.add_argument("--param", action="append", default=[])
    ap.add_argument("--machine", default="cluster")
    ap.add_argument("--terms", action="store_true")
    a = ap.parse_args()
    common = [a.program, "--procs", str(a.procs), "--machine", a.machine, "--format", "json"]
    for p in a.param:
        common += ["--param", p]
    with tempfile.TemporaryDirectory() as d:
        layouts = os.path.join(d, "layouts.json")
        json.dump([json.load(open(a.layout))], open(layouts, "w"))
        est = subprocess.run([BIN, "estimate", *common, "--layout", a.layout],
                             capture_output=True, text=True)
        val = subprocess.run([BIN, "validate", *common, "--layouts", layouts],
                             capture_output=True, text=True)
    for name, r in (("estimate", est), ("validate", val)):
        if r.returncode != 0:
            sys.exit("dlayout %s failed: %s" % (name, r.stderr.strip()[-400:]))
    e, run = json.loads(est.stdout), json.loads(val.stdout)["runs"][0]
    coords = list(itertools.product(*[range(n) for n in e["mesh"]]))
    zeros = lambda: [0.0] * len(coords)
    predicted = collections.defaultdict(zeros)
    by_array = collections.defaultdict(lambda: collections.defaultdict(zeros))
    terms = collections.defaultdict(list)
    for t in e["terms"]:
        if t["kind"] != "communication":
            continue
        terms[t["phase"]].append(t)
        what = SCALARS if t["primitive"] == "Reduction" else t["array"]
        for r, at in enumerate(coords):
            b = messages_sent(t) * t["message_bytes"] * sends(t, at)
            predicted[t["phase"]][r] += b
            by_array[t["phase"]][what][r] += b
    measured = collections.defaultdict(zeros)
    measured_by_array = collections.defaultdict(lambda: collections.defaultdict(zeros))
    measured_by_fetch = collections.defaultdict(lambda: collections.defaultdict(zeros))
    for rank in run["ranks"]:
        for p in rank["phases"]:
            if rank["rank"] < len(coords):
                measured[p["phase"]][rank["rank"]] = p["bytes_sent"]
                for what, b in p.get("bytes_sent_by_array", {}).items():
                    measured_by_array[p["phase"]][what][rank["rank"]] = b
                for f in p.get("bytes_sent_by_fetch", []):
                    measured_by_fetch[p["phase"]][(f["array"], tuple(f["statements"]))][rank["rank"]] += f["bytes"]
    print("busiest: predicted %g bytes, simulated %g" % (run["predicted_bytes"], run["bytes"]))
    for ph in sorted(set(predicted) | set(measured), key=lambda x: (len(x), x)):
        pr, me = [round(x) for x in predicted[ph]], [round(x) for x in measured[ph]]
        if not any(pr) and not any(me):
            continue
        off = parts(pr, me)
        print("%-5s predicted %s" % (ph, pr))
        print("%-5s simulated %s%s" % ("", me, "   <- off" if off else ""))
        if off and a.terms:
            for what in sorted(set(by_array[ph]) | set(measured_by_array[ph])):
                p = [round(x) for x in by_array[ph][what]]
                m = [round(x) for x in measured_by_array[ph][what]]
                print("      %-18s predicted %s" % (what, p))
                print("      %-18s simulated %s%s" % ("", m, "   <- off" if parts(p, m) else ""))
            # Per fetch (the executor's action: one array for the items of
            # one or more statements), the terms of those statements.
            for (array, stmts), m in sorted(measured_by_fetch[ph].items()):
                p = zeros()
                for t in terms[ph]:
                    if t["array"] == array and t["statement"] in stmts and t["primitive"] != "Reduction":
                        for r, at in enumerate(coords):
                            p[r] += messages_sent(t) * t["message_bytes"] * sends(t, at)
                p, m = [round(x) for x in p], [round(x) for x in m]
                what = "%s %s" % (array, ",".join(stmts))
                print("      %-18s predicted %s" % (what, p))
                print("      %-18s simulated %s%s" % ("", m, "   <- off" if parts(p, m) else ""))
            for t in terms[ph]:
                print("      %s %s %s %g B x %g: %s" % (t["statement"], t["array"], t["primitive"],
                                                      t["message_bytes"], messages_sent(t), t["rule"]))


if __name__ == "__main__":
    main()
