#!/usr/bin/env python3
"""Time each fault of `dlayout validate` takes to be reported (issue 8).

    faults.py --dlayout DLAYOUT --json OUT.json [--repeat N]

For each fault on each backend where it applies - a killed rank, a hung rank,
an erroneous MPI call, SimGrid refusing its platform, smpirun / mpirun missing
(test hooks and overrides: docs/validate.md, "Faults") - runs

    dlayout validate MODEL --procs 4 --layouts LAYOUT --backend B --timeout L

N times and records the wall time from starting dlayout until it exits with
the error, the job's own time as dlayout reports it ("after T s"), the exit
status and the message. The program is jacobi (NP2=18) as a model document
and the layout a file (BLOCK rows on 4 processors), so no compiler or advisor
runs before the launch: dlayout's own part is the model's checks and the run
directory (the "missing" rows, where nothing is launched, show it). A run
without a fault is timed too, for comparison. Every faulty run must exit 1
with an error naming the layout and saying nothing was measured, and write
nothing to -o; the figure records whether it did ("ok").
"""
import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PROCS = 4
LIMIT = 60       # seconds, every case but the hang
HANG_LIMIT = 10  # seconds, the hang: reported at the limit


def run(dlayout, model, layouts, backend, limit, env, tmp):
    out = os.path.join(tmp, "validation.json")
    if os.path.exists(out):
        os.unlink(out)
    e = dict(os.environ)
    e.update(env)
    argv = [dlayout, "validate", model, "--procs", str(PROCS), "--layouts", layouts,
            "--backend", backend, "--timeout", str(limit), "--format", "json", "-o", out]
    t0 = time.monotonic()
    p = subprocess.run(argv, capture_output=True, text=True, env=e, timeout=limit + 120)
    took = time.monotonic() - t0
    errors = [l for l in p.stderr.splitlines() if l.startswith("dlayout: error:")]
    message = errors[0][len("dlayout: error: "):] if errors else p.stderr.strip()
    return p.returncode, took, message, os.path.exists(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dlayout", required=True)
    ap.add_argument("--json", required=True)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    dlayout = os.path.abspath(a.dlayout)

    with tempfile.TemporaryDirectory() as tmp:
        model = os.path.join(tmp, "jacobi.json")
        subprocess.run([dlayout, "extract", os.path.join(ROOT, "samples", "paradigm", "jacobi.F"),
                        "--param", "NP2=18", "--format", "json", "-o", model], check=True)
        layouts = os.path.join(tmp, "layouts.json")
        rows = {"dims": [{"kind": "block", "mesh_dim": 0}, {"kind": "collapsed"}]}
        json.dump([{"schema": "dlayout-layout/1", "mesh": [PROCS], "arrays": {"A": rows, "B": rows}}],
                  open(layouts, "w"))
        empty = os.path.join(tmp, "empty-path")
        os.mkdir(empty)
        missing = os.path.join(tmp, "not-installed")

        # fault, backend, time limit, environment, what the message must say
        cases = [
            ("none", "simgrid", LIMIT, {}, None),
            ("none", "mpi", LIMIT, {}, None),
            ("rank killed (kill:1)", "simgrid", LIMIT, {"DLAYOUT_VALIDATE_FAULT": "kill:1"}, "the job (smpirun)"),
            ("rank killed (kill:1)", "mpi", LIMIT, {"DLAYOUT_VALIDATE_FAULT": "kill:1"}, "the job (mpirun)"),
            ("rank hangs (hang:1)", "simgrid", HANG_LIMIT, {"DLAYOUT_VALIDATE_FAULT": "hang:1"}, "time limit"),
            ("rank hangs (hang:1)", "mpi", HANG_LIMIT, {"DLAYOUT_VALIDATE_FAULT": "hang:1"}, "time limit"),
            ("MPI error (mpierror:1)", "simgrid", LIMIT, {"DLAYOUT_VALIDATE_FAULT": "mpierror:1"}, "MPI error"),
            ("MPI error (mpierror:1)", "mpi", LIMIT, {"DLAYOUT_VALIDATE_FAULT": "mpierror:1"}, "MPI error"),
            ("SimGrid refuses its platform (platform)", "simgrid", LIMIT,
             {"DLAYOUT_VALIDATE_FAULT": "platform"}, "platform.xml"),
            ("smpirun not on PATH", "simgrid", LIMIT, {"DLAYOUT_SMPIRUN": "smpirun", "PATH": empty},
             "SimGrid did not start"),
            ("smpirun path missing", "simgrid", LIMIT, {"DLAYOUT_SMPIRUN": os.path.join(missing, "smpirun")},
             "SimGrid did not start"),
            ("mpirun not on PATH", "mpi", LIMIT, {"DLAYOUT_MPIRUN": "mpirun", "PATH": empty},
             "MPI did not start"),
        ]
        results = []
        for fault, backend, limit, env, want in cases:
            times, jobs, msg, ok = [], [], "", True
            for _ in range(a.repeat):
                rc, took, message, wrote = run(dlayout, model, layouts, backend, limit, env, tmp)
                times.append(round(took, 3))
                m = re.search(r"after ([0-9.]+) s", message)
                if m:
                    jobs.append(float(m.group(1)))
                if want is None:
                    ok = ok and rc == 0 and wrote
                else:
                    ok = ok and rc == 1 and not wrote and want in message and \
                        message.startswith("layout file-1: ") and message.endswith("nothing was measured")
                msg = message.replace(tmp, "$TMP")
                msg = re.sub(r"/dlayout-validate-[A-Za-z0-9]+/", "/RUNDIR/", msg)
            row = {"fault": fault, "backend": backend, "time_limit": limit,
                   "seconds_median": round(statistics.median(times), 2), "seconds_max": round(max(times), 2),
                   "seconds": times, "job_seconds": jobs, "ok": ok,
                   "message": "" if want is None else msg}
            results.append(row)
            print("%-40s %-8s limit %3d s: %6.2f s (max %6.2f) %s  %s" %
                  (fault, backend, limit, row["seconds_median"], row["seconds_max"],
                   "ok" if ok else "NOT OK", row["message"][:150]), flush=True)

    doc = {"date": datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat(),
           "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
           "program": f"samples/paradigm/jacobi.F NP2=18 (model document), P = {PROCS}, "
                      f"layout: BLOCK rows of A and B",
           "repetitions": a.repeat, "cases": results,
           "all_ok": all(r["ok"] for r in results)}
    json.dump(doc, open(a.json, "w"), indent=2)
    return 0 if doc["all_ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
