"""What the Python benchmarks share (bench/validate/figures.py,
bench/quality/quality.py): the dlayout binary and how to run it, the samples
with their small parameters, the host description every result file carries,
and how a figure is written (JSON beside its Markdown summary).

Environment: DLAYOUT (the dlayout binary, default build/cli/dlayout),
DLAYOUT_EXEC_DIR (the executors), SRC (the repository root).
"""
import hashlib
import json
import os
import platform
import subprocess
import sys
import time

SRC = os.environ.get("SRC") or os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DLAYOUT = os.environ.get("DLAYOUT", os.path.join(SRC, "build", "cli", "dlayout"))

# Every sample with parameters small enough that `dlayout validate --layouts
# all` over SimGrid takes seconds on a 2-core host.
SAMPLES = [
    ("paradigm/jacobi.F", ["NP2=34", "NCYCLES=3"]),
    ("paradigm/dflux.F", ["I2=34", "J2=10", "IL=33", "JL=9"]),
    ("paradigm/eflux.F", ["I2=34", "J2=10", "IL=33", "JL=9"]),
    ("paradigm/tred2.F", ["N=16"]),
    ("paradigm/dgefa.F", ["N=16"]),
    ("paradigm/olda.F", ["NUM=8"]),
    ("paradigm/fig2_2.F", ["MORB=16", "NQ=16"]),
    ("paradigm/fig3_6.F", ["N=32"]),
    ("paradigm/fig3_7.F", ["N=32"]),
    ("paradigm/fig4_5.F", ["N=32"]),
    ("paradigm/fig4_10.F", ["N=32"]),
    ("paradigm/fig4_13.F", ["N=32"]),
    ("paradigm/fig4_16.F", ["N=32"]),
    ("paradigm/fig4_17.F", ["N=32"]),
    ("paradigm/fig4_19.F", ["N=32"]),
    ("paradigm/fig4_20.F", ["N1=32", "N2=32"]),
    ("paradigm/fig5_2.F", ["N=32"]),
    ("paradigm/fig5_3.F", ["N=32"]),
    ("paradigm/fig5_4.F", ["N=32"]),
    ("paradigm/fig5_9.F", ["N=32"]),
    ("paradigm/fig5_10.F", ["N=32"]),
    ("paradigm/fig5_11.F", ["N=32"]),
    ("paradigm/fig5_13.F", ["N=32"]),
    ("c/jacobi.c", ["N=32", "NCYCLES=4"]),
    ("c/jacobi_heap.c", ["N=32", "NCYCLES=4"]),
    # n and ncycles: jacobi()'s arguments, bound only by the call (the
    # analysis does not carry main's constants into it).
    ("c/jacobi_vla.c", ["N=32", "NCYCLES=4", "n=32", "ncycles=4"]),
    ("c/lu.c", ["N=32"]),
    ("c/matmul.c", ["N=16"]),
    ("kali/relax.F", ["NX=16", "NY=16", "NSWEEP=2"]),
    ("parti/edge.F", ["NX=10", "NY=10", "NSWEEP=2"]),
    ("zima/jacobi.F", ["N=32", "NITER=4"]),
    ("zima/spmv.F", []),
]


def run(args, timeout):
    """Runs dlayout ARGS and returns (its JSON output, wall seconds, exit
    status). Exit 4 (a layout not correct) still carries a document."""
    t0 = time.monotonic()
    p = subprocess.run([DLAYOUT] + args, capture_output=True, text=True, timeout=timeout)
    wall = time.monotonic() - t0
    if p.returncode not in (0, 4):
        raise RuntimeError("dlayout %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.strip()[-800:]))
    return json.loads(p.stdout), wall, p.returncode


def fmt(x, d=3):
    if x is None:
        return "—"
    if isinstance(x, str):
        return x
    return ("%%.%df" % d) % x


def binary_info(path):
    try:
        h = hashlib.sha256(open(path, "rb").read()).hexdigest()[:16]
        return {"path": path, "sha256_16": h,
                "mtime": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(os.path.getmtime(path)))}
    except OSError:
        return {"path": path}


def host_info():
    exe = os.environ.get("DLAYOUT_EXEC_DIR", "")
    return {"host": platform.node(), "cpus": os.cpu_count(),
            "load_average_at_start": os.getloadavg()[0],
            "dlayout": binary_info(DLAYOUT),
            "executor": binary_info(os.path.join(exe, "dlayout-exec-simgrid")) if exe else None}


def write(out, name, doc, md):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    with open(os.path.join(out, name + ".md"), "w") as f:
        f.write(md)
    print("wrote %s/%s.{json,md}" % (out, name), file=sys.stderr)


def transfer_rows(left, right):
    """Markdown rows setting two machine documents' Transfer(m) pieces side by
    side: "| Transfer piece k | m < 8192 B: 1.1 us + 0.08 ns/B | ... |"."""
    def piece(mach, i):
        if i >= len(mach["message"]):
            return "-"
        p = mach["message"][i]
        rng = ("m < %g B" % p["below_bytes"]) if p["below_bytes"] else "rest"
        return "%s: %.3g us + %.3g ns/B" % (rng, p["startup"] * 1e6, p["per_byte"] * 1e9)
    return ["| Transfer piece %d | %s | %s |" % (i + 1, piece(left, i), piece(right, i))
            for i in range(max(len(left["message"]), len(right["message"])))]
