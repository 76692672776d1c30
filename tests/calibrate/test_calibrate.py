#!/usr/bin/env python3
"""Tests of `dlayout calibrate` (issue 7); one case per ctest (argv[1]).

simgrid-ipsc2    the simulated iPSC/2 (the platform `dlayout validate`
                 generates) must give back Gupta's Transfer(m) (thesis
                 section 6.1.2: 350 + 0.15 m us below 100 bytes, 700 + 0.36 m
                 us from 100 on) within 2 %, the break at 100 bytes, its
                 operation costs and flop rate; the document must pass the
                 schema and `dlayout estimate --machine FILE`.
simgrid-cluster  the same for the cluster preset (microsecond latencies, a
                 break at 8 KiB) on a plain SimGrid cluster.
simgrid-platform --platform ipsc2 --machine cluster: the iPSC/2's platform
                 measured (its Transfer(m) and operation costs), the rest
                 the cluster's.
mpi-np2          real ranks (mpirun, 2 ranks): every fitted number positive
                 (or zero where the model allows it) and finite, plausible
                 magnitudes, and the document accepted by estimate.
bad-input        -np 0, -np 1, an unknown backend, an unwritable -o, and
                 more: one clear "dlayout: error: ..." line, a non-zero exit,
                 nothing written.
"""
import json
import math
import os
import subprocess
import sys
import tempfile

DLAYOUT = os.environ["DLAYOUT"]
SRC = os.environ["DLAYOUT_SOURCE_DIR"]
JACOBI = os.path.join(SRC, "samples", "paradigm", "jacobi.F")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def run(args, env=None, timeout=600):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([DLAYOUT] + args, capture_output=True, text=True, env=e,
                          timeout=timeout)


def calibrate(args, d):
    out = os.path.join(d, "machine.json")
    p = run(["calibrate"] + args + ["-o", out, "--format", "text"])
    check(p.returncode == 0, "dlayout calibrate %s: exit %d\nstdout: %s\nstderr: %s" %
          (" ".join(args), p.returncode, p.stdout[-3000:], p.stderr[-3000:]))
    check("Transfer(m)" in p.stdout and "written to " + out in p.stdout,
          "the text report is missing: " + p.stdout[-2000:])
    print(p.stdout)
    with open(out) as f:
        return json.load(f), out


def preset(name):
    with open(os.path.join(SRC, "costmodels", "machines", name + ".json")) as f:
        return json.load(f)


def rel(a, b):
    return abs(a - b) / abs(b)


def accepted(path, d):
    """The document passes its JSON schema and dlayout's own reader."""
    try:
        import jsonschema  # noqa: F401
        p = subprocess.run([sys.executable, os.path.join(SRC, "tests", "schema", "validate.py"), path],
                           capture_output=True, text=True)
        check(p.returncode == 0, "schema: " + p.stdout + p.stderr)
    except ImportError:
        print("note: python3-jsonschema missing, schema check skipped")
    lay = os.path.join(d, "layout.json")
    with open(lay, "w") as f:
        json.dump({"schema": "dlayout-layout/1", "mesh": [2],
                   "arrays": {a: {"dims": [{"kind": "collapsed"}, {"kind": "block", "mesh_dim": 0}]}
                              for a in ("A", "B")}}, f)
    p = run(["estimate", JACOBI, "--param", "NP2=34", "--procs", "2", "--layout", lay,
             "--machine", path, "--format", "json"])
    check(p.returncode == 0, "dlayout estimate --machine %s: exit %d: %s" % (path, p.returncode, p.stderr))
    est = json.loads(p.stdout)
    check(est["machine"] == json.load(open(path))["name"], "estimate used another machine: %s" % est["machine"])
    check(est["predicted_seconds"] > 0 and est["communication_seconds"] > 0,
          "estimate on the calibrated machine: %s" % {k: v for k, v in est.items() if "seconds" in k})
    return est


def check_transfer(doc, want, tol, name):
    got = doc["message"]
    check(len(got) == len(want["message"]),
          "%s: %d message pieces, the preset has %d: %s" % (name, len(got), len(want["message"]), got))
    for g, w in zip(got, want["message"]):
        check(g["below_bytes"] == w["below_bytes"], "%s: break at %s bytes, want %s" %
              (name, g["below_bytes"], w["below_bytes"]))
        for k in ("startup", "per_byte"):
            check(rel(g[k], w[k]) < tol, "%s: %s %.6g, the preset says %.6g (%.3f %% off, tolerance %g %%)" %
                  (name, k, g[k], w[k], 100 * rel(g[k], w[k]), 100 * tol))
        print("%s: startup %.6g (preset %.6g), per_byte %.6g (preset %.6g)" %
              (name, g["startup"], w["startup"], g["per_byte"], w["per_byte"]))


def check_common(doc):
    check(doc["schema"] == "dlayout-machine/1", "schema")
    check(set(doc["collectives"]) == {"shift", "reduction", "one_to_many_multicast",
                                      "many_to_many_multicast", "scatter", "gather"},
          "every collective calibrated: %s" % doc["collectives"])
    check(any("collectives.reduction" in s for s in doc["sources"]), "sources explain the collectives")
    check(any(s.startswith("message:") for s in doc["sources"]), "sources explain Transfer")


def case_simgrid_ipsc2():
    with tempfile.TemporaryDirectory() as d:
        doc, path = calibrate(["--backend", "simgrid", "-np", "2", "--machine", "ipsc2"], d)
        want = preset("ipsc2")
        check_common(doc)
        check_transfer(doc, want, 0.02, "ipsc2")
        check(doc["ops"] == want["ops"], "simgrid keeps the machine's operation costs: %s" % doc["ops"])
        check(rel(doc["flops"], want["flops"]) < 0.01, "flop rate %g, the platform's %g" %
              (doc["flops"], want["flops"]))
        check(doc["topology"] == "hypercube" and doc["gray_code"], "topology from the base machine")
        # On 2 ranks a broadcast is one message: Table 6.1's tree (1 Transfer).
        check(doc["collectives"]["one_to_many_multicast"] == "tree", "multicast: %s" % doc["collectives"])
        accepted(path, d)


def case_simgrid_allreduce():
    """The platform's MPI_Allreduce (the executor's combine) is recursive
    doubling: 2 ceil(log2 p) Transfers on the half-duplex iPSC/2, the
    `exchange` algorithm, within 1 % at every size (SimGrid's default is
    near p - 1 Transfers)."""
    with tempfile.TemporaryDirectory() as d:
        doc, path = calibrate(["--backend", "simgrid", "-np", "8", "--machine", "ipsc2"], d)
        check(doc["collectives"]["reduction"] == "exchange",
              "reduction fitted as %s, want exchange" % doc["collectives"]["reduction"])
        src = [x for x in doc["sources"] if x.startswith("collectives.reduction:")]
        check(len(src) == 1, "one source for the reduction: %s" % src)
        err = float(src[0].split("RMS log error ")[1].split(",")[0])
        check(err < 0.01, "MPI_Allreduce is %g (RMS log) off 2 ceil(log2 8) Transfers" % err)


def case_simgrid_cluster():
    with tempfile.TemporaryDirectory() as d:
        doc, path = calibrate(["--backend", "simgrid", "--np", "2", "--machine", "cluster"], d)
        check_common(doc)
        check_transfer(doc, preset("cluster"), 0.03, "cluster")
        accepted(path, d)


def case_simgrid_platform():
    """--platform: the platform generated from one machine measured, another
    the base. The iPSC/2's Transfer(m) comes back as with --machine ipsc2
    (so the probe ran on its platform, not on the cluster's), its operation
    costs (what the executor charges there), the cluster's topology (not
    measured: the base's); the document names both."""
    with tempfile.TemporaryDirectory() as d:
        doc, path = calibrate(["--backend", "simgrid", "-np", "2", "--platform", "ipsc2",
                               "--machine", "cluster"], d)
        want = preset("ipsc2")
        check_common(doc)
        check_transfer(doc, want, 0.02, "ipsc2 platform")
        check(doc["ops"] == want["ops"], "the simulated machine's operation costs: %s" % doc["ops"])
        check(doc["topology"] == "fully_connected" and not doc["gray_code"],
              "topology from the base (cluster): %s, gray_code %s" % (doc["topology"], doc["gray_code"]))
        check(doc["name"] == "ipsc2-simgrid-calibrated", "name %r" % doc["name"])
        check("machine ipsc2" in doc["description"] and "machine cluster" in doc["description"],
              "the description names the platform and the base: %r" % doc["description"])
        accepted(path, d)


def case_mpi_np2():
    with tempfile.TemporaryDirectory() as d:
        doc, path = calibrate(["--backend", "mpi", "-np", "2"], d)
        check_common(doc)

        def finite(v, what, positive):
            check(isinstance(v, (int, float)) and math.isfinite(v) and (v > 0 if positive else v >= 0),
                  "%s = %r: must be finite and %s" % (what, v, "positive" if positive else ">= 0"))

        pieces = doc["message"]
        check(1 <= len(pieces) <= 3, "pieces: %s" % pieces)
        for i, p in enumerate(pieces):
            finite(p["startup"], "message[%d].startup" % i, i == 0)
            finite(p["per_byte"], "message[%d].per_byte" % i, i == len(pieces) - 1)
        # Plausible: a small message between two ranks of one host takes
        # less than a millisecond; bandwidth above 10 MB/s.
        check(pieces[0]["startup"] < 1e-3, "startup %g s" % pieces[0]["startup"])
        check(pieces[-1]["per_byte"] < 1e-7, "per byte %g s" % pieces[-1]["per_byte"])
        for op in ("load", "store", "add", "mul", "div"):
            finite(doc["ops"][op], "ops." + op, True)
            check(doc["ops"][op] < 1e-6, "ops.%s = %g s: more than a microsecond" % (op, doc["ops"][op]))
        for op in ("intrinsic", "compare"):
            finite(doc["ops"][op], "ops." + op, False)
        check(doc["ops"]["div"] > doc["ops"]["add"], "a divide is slower than an add: %s" % doc["ops"])
        finite(doc["flops"], "flops", True)
        check(doc["topology"] == "fully_connected", "topology from the cluster preset")
        accepted(path, d)


def case_bad_input():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "m.json")
        empty = os.path.join(d, "empty")
        os.mkdir(empty)
        cases = [
            (["--backend", "simgrid", "-np", "0"], {}, "at least 2 ranks"),
            (["--backend", "mpi", "-np", "1"], {}, "at least 2 ranks"),
            (["--backend", "simgrid", "-np", "two"], {}, "whole number"),
            (["--backend", "pvm", "-np", "2"], {}, "--backend"),
            (["-np", "2"], {}, "--backend is required"),
            (["--backend", "simgrid"], {}, "--np"),
            (["--backend", "simgrid", "-np", "2", "-o", os.path.join(d, "no", "such", "m.json")], {},
             "cannot write"),
            (["--backend", "simgrid", "-np", "2", "-o", d], {}, "is a directory"),
            (["--backend", "simgrid", "-np", "3"], {}, "power of two"),
            (["--backend", "simgrid", "-np", "2", "--machine", "nosuch"], {}, "unknown machine"),
            (["--backend", "simgrid", "-np", "2", "--hostfile", "h"], {}, "--hostfile is for --backend mpi"),
            (["--backend", "mpi", "-np", "2", "--platform", "ipsc2"], {}, "--platform is for --backend simgrid"),
            (["--backend", "simgrid", "-np", "2", "--platform", "nosuch"], {}, "unknown machine"),
            (["--backend", "simgrid", "-np", "2", "--platform", ""], {}, "unknown machine ''"),
            (["--backend", "simgrid", "-np", "2", "--timeout", "-1"], {}, "--timeout"),
            (["--backend", "simgrid", "-np", "2", "-o", out], {"DLAYOUT_EXEC_DIR": empty},
             "dlayout-calibrate-simgrid is missing"),
            (["--backend", "mpi", "-np", "2", "-o", out], {"DLAYOUT_EXEC_DIR": empty},
             "dlayout-calibrate-mpi is missing"),
        ]
        # A launcher that fails, and one that hangs (killed at --timeout).
        failing, hanging = os.path.join(d, "failing-mpirun"), os.path.join(d, "hanging-mpirun")
        with open(failing, "w") as f:
            f.write("#!/bin/sh\necho 'fake-mpirun: error: no slots for 2 ranks' >&2\nexit 3\n")
        with open(hanging, "w") as f:
            f.write("#!/bin/sh\nexec sleep 60\n")
        os.chmod(failing, 0o755)
        os.chmod(hanging, 0o755)
        cases += [
            (["--backend", "mpi", "-np", "2", "-o", out], {"DLAYOUT_MPIRUN": failing},
             "failed with exit status 3: fake-mpirun: error: no slots for 2 ranks; nothing was measured"),
            (["--backend", "mpi", "-np", "2", "--timeout", "1", "-o", out], {"DLAYOUT_MPIRUN": hanging},
             "did not finish within the time limit of 1 s"),
        ]
        for args, env, want in cases:
            p = run(["calibrate"] + args, env=env, timeout=60)
            lines = [l for l in p.stderr.split("\n") if l.strip()]
            check(p.returncode != 0, "calibrate %s: exit 0" % " ".join(args))
            check(lines and lines[0].startswith("dlayout: error: "),
                  "calibrate %s: stderr %r" % (" ".join(args), p.stderr))
            check(want in lines[0], "calibrate %s: %r does not say %r" % (" ".join(args), lines[0], want))
            check("Traceback" not in p.stderr and "internal error" not in p.stderr, p.stderr)
            check(not os.path.exists(out), "calibrate %s wrote %s" % (" ".join(args), out))
            print("ok: calibrate %s -> %s" % (" ".join(args), lines[0]))
        # The help tells the truth about the options.
        p = run(["calibrate", "--help"])
        check(p.returncode == 0, "--help")
        for word in ("--backend", "--np", "-np P", "--machine", "--platform", "--hostfile", "--format",
                     "--output", "--timeout"):
            check(word in p.stdout, "calibrate --help does not mention %s" % word)


if __name__ == "__main__":
    name = sys.argv[1].replace("-", "_")
    globals()["case_" + name]()
    print("ok")
