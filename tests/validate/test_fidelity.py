#!/usr/bin/env python3
"""Fidelity of the estimates against `dlayout validate` (issues 6 and 7).

What holds and should keep holding, at small sizes (seconds on 2 cores):

* jacobi (samples/paradigm/jacobi.F, NP2 = 34, 2 cycles) on 16 simulated
  iPSC/2 nodes under the four layouts of the thesis's Table 6.3
  (column-blocked 1x16, 2-D blocked 4x4, column-cyclic 1x16, 2-D cyclic
  4x4): every run correct, the busiest rank's bytes sent within 5 % of the
  estimator's predicted bytes, and the estimator's computation term equal
  to the busiest rank's charged computation (within 1 %) in the cycle loop
  (column-blocked: an uneven block of ceil(34/16) columns; 2-D cyclic).

With the argument `dflux`: dflux (samples/paradigm/dflux.F, I2 = 34,
J2 = 10, IL = 33, JL = 9) on 4 simulated iPSC/2 nodes under the layout the
advisor recommends there (rows block-cyclic(8) on a 1x4x1 mesh, RADI and
RADJ blocked; fixed here so that the advisor's time limit cannot change
it), and under 1-D BLOCK on its first, second and third dimension:
correct, and the busiest rank's bytes sent within 5 % of the predicted
bytes (issue 6). Before message coalescing and exact owners
(costmodels/Communication.h, CommTerms.h) the estimator predicted 2.26x:
every operand of the MAX a front end expands into selects charged again,
the invariant pairs DP(1,J) = DP(IL,J) ... charged (1 - 1/N) Transfers
although the layout puts both ends on one processor, and Eq. 4.4 counted
two blocks per processor where one boundary is crossed.

With the argument `dgefa`: dgefa (samples/paradigm/dgefa.F, N = 16) on 4
simulated iPSC/2 nodes, A column-cyclic: correct, and the swap
`A(L,J) = A(K,J)` (line 71), whose row L is a scalar set before loop 80,
fetches its reads where the estimator places them, A(L,J) once per K
before loop 80 (level 1, vectorised over J), not once per instance: the subscript
is known ahead because no statement in loop 80 assigns L (ExecProgram.h,
CStmt::aheadLevel).

With the argument `spmv`: spmv (zima/spmv.F, Figure 4's matrix) on 64 and
16 simulated iPSC/2 nodes, B replicated and the rest BLOCK: the row pointers
of the K loop's bounds, held by 11 processors, multicast by each to all on
64, sent by each to every other on 16, the cheaper on the machine:
correct, and predicted / measured within 0.7 - 1.25.

With the argument `tred2`: tred2 (samples/paradigm/tred2.F, N = 16) on
4 and 16 simulated iPSC/2 nodes, its triangle of Z fetched for E(K)'s
copies: correct, and the busiest rank's bytes within 5 % of the prediction,
1 % on 16 (the fetch counted as the executor forms it, with the diagonal
G reads before the same loop: costmodels/CountedFetch.h).

With the argument `fig2_2`: fig2_2 on 16 simulated iPSC/2 nodes, laid
out as the thesis does (section 2.2) on 2 x 8 and 1 x 16: correct, and
predicted / measured within 0.9 - 1.1 -- an all-gather runs as Table 6.1's
ring (validate/executor/DistributedExchange.cpp, allGather()).

Not asserted, because it does not hold (docs/validate-jacobi.md): Spearman
>= 0.8 over jacobi's `--layouts all` candidates at P = 16. The Shift term
(Table 6.1: 2 x Transfer per Shift, the Shifts of a cycle summed) is about
4x (1-D meshes) to 8x (2-D meshes) the simulated communication, where the
exchanges of a cycle overlap, so 2-D and cyclic candidates are ranked too
slow; and the candidate set itself changes from run to run (the advisor's
time limit), giving 0.87 in one run and 0.39 in the next. The absolute
predicted / measured ratio is not checked either.
"""
import json
import os
import subprocess
import sys
import tempfile

DLAYOUT = os.environ["DLAYOUT"]
SRC = os.environ["DLAYOUT_SOURCE_DIR"]
JACOBI = os.path.join(SRC, "samples", "paradigm", "jacobi.F")
PARAMS = ["--param", "NP2=34", "--param", "NCYCLES=2"]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def validate(program, procs, layouts, params):
    """`dlayout validate` of `layouts` (documents) on `procs` simulated
    iPSC/2 nodes; its JSON, or the test fails."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(layouts, f)
    try:
        p = subprocess.run([DLAYOUT, "validate", program, "--procs", str(procs), "--machine", "ipsc2",
                            "--backend", "simgrid", "--format", "json", "--layouts", f.name] + params,
                           capture_output=True, text=True, timeout=300)
    finally:
        os.unlink(f.name)
    if p.returncode != 0:
        fail("dlayout validate %s: exit %d\n%s" % (os.path.basename(program), p.returncode,
                                                   p.stderr[-2000:]))
    return json.loads(p.stdout)


def layout(mesh, kind):
    if len(mesh) == 1:
        dims = [{"kind": "collapsed"}, {"kind": kind, "mesh_dim": 0}]
    else:
        dims = [{"kind": kind, "mesh_dim": 0}, {"kind": kind, "mesh_dim": 1}]
    return {"schema": "dlayout-layout/1", "mesh": mesh, "arrays": {"A": {"dims": dims}, "B": {"dims": dims}}}


def four_layouts():
    names = ["column-blocked", "2-D blocked", "column-cyclic", "2-D cyclic"]
    docs = [layout([16], "block"), layout([4, 4], "block"), layout([16], "cyclic"), layout([4, 4], "cyclic")]
    doc = validate(JACOBI, 16, docs, PARAMS)
    check(len(doc["runs"]) == 4, "four runs, got %d" % len(doc["runs"]))
    for name, r in zip(names, doc["runs"]):
        check(r["correct"], "%s: not correct: %s" % (name, r["arrays"]))
        check(r["bytes"] > 0, "%s: nothing sent" % name)
        err = abs(r["predicted_bytes"] - r["bytes"]) / r["bytes"]
        print("%-15s bytes %7d predicted %9.0f (%.2f %%)  seconds %.5f predicted %.5f" % (
            name, r["bytes"], r["predicted_bytes"], 100 * err, r["measured_seconds"], r["predicted_seconds"]))
        check(err <= 0.05, "%s: predicted bytes %.0f vs measured %d (%.1f %% off, aim 5 %%)" % (
            name, r["predicted_bytes"], r["bytes"], 100 * err))
    return doc


def computation_term(doc):
    # The estimator's computation of the cycle loop (phase P2) is the busiest
    # rank's charged computation: the same operation costs, the same owner.
    with tempfile.TemporaryDirectory() as d:
        # Two of the four (an uneven block and a cyclic grid) keep the test quick.
        for k, r in enumerate(doc["runs"]):
            if k not in (0, 3):
                continue
            lf = os.path.join(d, "l%d.json" % k)
            json.dump(r["layout_document"], open(lf, "w"))
            p = subprocess.run([DLAYOUT, "estimate", JACOBI, "--procs", "16", "--layout", lf,
                                "--machine", "ipsc2", "--format", "json"] + PARAMS,
                               capture_output=True, text=True, timeout=120)
            check(p.returncode == 0, "dlayout estimate: " + p.stderr[-1000:])
            est = {ph["id"]: ph for ph in json.loads(p.stdout)["phases"]}
            meas = {ph["id"]: ph for ph in r["phases"]}
            pc, mc = est["P2"]["computation_seconds"], meas["P2"]["computation_seconds"]
            check(abs(pc - mc) <= 0.01 * mc, "%s: computation predicted %.6f s, charged %.6f s" % (
                r["layout"], pc, mc))


DFLUX = os.path.join(SRC, "samples", "paradigm", "dflux.F")
DFLUX_PARAMS = ["--param", "I2=34", "--param", "J2=10", "--param", "IL=33", "--param", "JL=9"]


def dflux_recommended():
    rows8 = {"dims": [{"kind": "block_cyclic", "block": 8, "mesh_dim": 1}, {"kind": "collapsed"}]}
    rows8x3 = {"dims": rows8["dims"] + [{"kind": "collapsed"}]}
    rows = {"dims": [{"kind": "block", "mesh_dim": 1}, {"kind": "collapsed"}]}
    arrays = {a: rows8 for a in ("DIS2", "DIS4", "DP", "DTL", "EP", "P", "VOL")}
    arrays.update({a: rows8x3 for a in ("DW", "FS", "FW", "W")})
    arrays.update({"RADI": rows, "RADJ": rows})
    docs = [{"schema": "dlayout-layout/1", "mesh": [1, 4, 1], "arrays": arrays}]
    # The 1-D BLOCK baselines on the first and the second dimension: their
    # boundary Shifts leave from every block but one, and the certain
    # Transfers from one block (Senders), so the busiest processor sends
    # less than the terms' sum (1.5x and 1.17x of it before). And on the
    # third (the 2-D arrays on their second): DIS2(I,J) multicast a J-block
    # at a time to FS's N-planes, each block from its owner (Senders::share),
    # P(I+1,J) and P(I,J) gathered in one message (the union of their
    # sections), and a processor that receives one of the concurrent
    # Gathers sends its part to the others only (1.61x before).
    for dim in (0, 1, 2):
        blocked = {}
        for a in ("DIS2", "DIS4", "DP", "DTL", "EP", "P", "VOL", "RADI", "RADJ", "DW", "FS", "FW", "W"):
            rank = 3 if a in ("DW", "FS", "FW", "W") else 2
            blocked[a] = {"dims": [{"kind": "block", "mesh_dim": 0} if k == min(dim, rank - 1)
                                   else {"kind": "collapsed"} for k in range(rank)]}
        docs.append({"schema": "dlayout-layout/1", "mesh": [4], "arrays": blocked})
    runs = validate(DFLUX, 4, docs, DFLUX_PARAMS)["runs"]
    check(len(runs) == len(docs), "%d runs, got %d" % (len(docs), len(runs)))
    for name, r in zip(("1x4x1 rec.", "block dim 1", "block dim 2", "block dim 3"), runs):
        check(r["correct"], "dflux %s: not correct: %s" % (name, r["arrays"]))
        check(r["bytes"] > 0, "dflux %s: nothing sent" % name)
        err = abs(r["predicted_bytes"] - r["bytes"]) / r["bytes"]
        print("dflux %-12s bytes %7d predicted %9.0f (%.2f %%)" % (name, r["bytes"], r["predicted_bytes"], 100 * err))
        check(err <= 0.05, "dflux %s: predicted bytes %.0f vs measured %d (%.1f %% off, aim 5 %%)" % (
            name, r["predicted_bytes"], r["bytes"], 100 * err))


def dgefa_pivot_row():
    dgefa = os.path.join(SRC, "samples", "paradigm", "dgefa.F")
    cols = {"schema": "dlayout-layout/1", "mesh": [4],
            "arrays": {"A": {"dims": [{"kind": "collapsed"}, {"kind": "cyclic", "mesh_dim": 0}]},
                       "IPVT": {"dims": [{"kind": "collapsed"}]}}}
    with tempfile.TemporaryDirectory() as d:
        mf = os.path.join(d, "model.json")
        p = subprocess.run([DLAYOUT, "extract", dgefa, "--param", "N=16", "-o", mf],
                           capture_output=True, text=True, timeout=300)
        check(p.returncode == 0, "dlayout extract dgefa: %s" % p.stderr[-1000:])
        model = json.load(open(mf))
        r = validate(mf, 4, [cols], ["--param", "N=16"])["runs"][0]
    check(r["correct"], "dgefa: not correct: %s" % r["arrays"])
    swap = {s["id"] for s in model["statements"] if s["loc"]["line"] == 71}
    check(swap, "dgefa: no statement on line 71 (A(L,J) = A(K,J))")
    pl = [x for x in r["placements"] if x["statement"] in swap]
    check(pl, "dgefa: no placement for the reads of line 71")
    for x in pl:
        print("dgefa line 71 %s ref %d: estimator level %d, executor level %d" % (
            x["statement"], x["ref"], x["estimator_level"], x["level"]))
        check(x["level"] == x["estimator_level"],
              "dgefa: a read of A(L,J) = A(K,J) is fetched at level %d, the estimator places it at %d" % (
                  x["level"], x["estimator_level"]))
    check(any(x["level"] == 1 for x in pl),
          "dgefa: no read of A(L,J) = A(K,J) is fetched once per K before loop 80 (level 1): %s" % pl)


def relax_replicated_bound():
    """relax (kali/relax.F, NX = NY = 16, 2 sweeps) on 64 simulated iPSC/2
    nodes, a 16 x 4 mesh: COUNT, A and OLD_A blocked on the first mesh
    dimension and so replicated along the second, ADJ and COEF blocked on
    both. Every rank needs DO J's bounds COUNT(I) for every I; each line
    along the first dimension holds a whole copy, so they are gathered
    within the line, as the estimator prices it (ManyToManyMulticast over
    16). Gathered over all 64 ranks, the run measured 2.5x the prediction
    (123 ms against 49); the inspector's schedule, rebuilt every sweep,
    was more. Correct, and predicted / measured within 0.8 - 1.25."""
    relax = os.path.join(SRC, "samples", "kali", "relax.F")
    rows = {"kind": "block", "mesh_dim": 0}
    lay = {"schema": "dlayout-layout/1", "mesh": [16, 4],
           "arrays": {"A": {"dims": [rows]}, "OLD_A": {"dims": [rows]}, "COUNT": {"dims": [rows]},
                      "ADJ": {"dims": [rows, {"kind": "block", "mesh_dim": 1}]},
                      "COEF": {"dims": [rows, {"kind": "block", "mesh_dim": 1}]}}}
    r = validate(relax, 64, [lay], ["--param", "NX=16", "--param", "NY=16", "--param", "NSWEEP=2"])["runs"][0]
    check(r["correct"], "relax: not correct: %s" % r["arrays"])
    ratio = r["predicted_seconds"] / r["measured_seconds"]
    print("relax 16x4: predicted %.4f s, measured %.4f s (%.2f)" % (
        r["predicted_seconds"], r["measured_seconds"], ratio))
    check(0.8 <= ratio <= 1.25, "relax 16x4 on 64 nodes: predicted / measured %.2f" % ratio)


def fig2_2_all_gather():
    """fig2_2 (paradigm/fig2_2.F, MORB = NQ = 16) on 16 simulated iPSC/2
    nodes, as the thesis lays it out (section 2.2: V column-cyclic, XRSIQ
    row-cyclic, XIJ cyclic) on a 2 x 8 and a 1 x 16 mesh. Every processor
    of a mesh row reads every row of XRSIQ (VAL = XRSIQ(MI,MQ) for the
    replicated scalar VAL): an all-gather, each member's rows to all the
    others, priced as Table 6.1's ManyToManyMulticast, a ring of p - 1
    Shifts. Sent by every member to every other at once, the half-duplex
    cube's links contended and the runs measured 1.24x and 1.42x the
    prediction (28.8 ms against 23.2, 43.6 against 30.8); passed round the
    ring, the line's neighbours being the cube's. Correct, and predicted /
    measured within 0.9 - 1.1."""
    fig = os.path.join(SRC, "samples", "paradigm", "fig2_2.F")
    cyc = {"kind": "cyclic", "mesh_dim": 1}
    lays = [{"schema": "dlayout-layout/1", "mesh": mesh,
             "arrays": {"V": {"dims": [{"kind": "collapsed"}, cyc]}, "XIJ": {"dims": [cyc]},
                        "XRSIQ": {"dims": [cyc, {"kind": "collapsed"}]}}}
            for mesh in ([2, 8], [1, 16])]
    runs = validate(fig, 16, lays, ["--param", "MORB=16", "--param", "NQ=16"])["runs"]
    check(len(runs) == len(lays), "%d runs, got %d" % (len(lays), len(runs)))
    for lay, r in zip(lays, runs):
        mesh = "x".join(map(str, lay["mesh"]))
        check(r["correct"], "fig2_2 %s: not correct: %s" % (mesh, r["arrays"]))
        ratio = r["predicted_seconds"] / r["measured_seconds"]
        print("fig2_2 %s: predicted %.4f s, measured %.4f s (%.2f)" % (
            mesh, r["predicted_seconds"], r["measured_seconds"], ratio))
        check(0.9 <= ratio <= 1.1, "fig2_2 %s on 16 nodes: predicted / measured %.2f" % (mesh, ratio))


def spmv_row_pointers():
    """spmv (zima/spmv.F, the Figure 4 matrix) on 64 and 16 simulated
    iPSC/2 nodes, its vectors BLOCK and B replicated: every processor needs
    the row pointers R(I), R(I+1) for the bounds of DO K = R(I), R(I+1) - 1,
    and only the 11 holding an element of R have any. Priced as one
    OneToManyMulticast per row (Table 6.1: ceil(log2 P) Transfers); run as
    an MPI_Allgatherv over all 64 it measured 91 ms against 25 predicted
    (0.27: SimGrid's sends every member's part, zero bytes too, to every
    other). On 64 each holder multicasts its part (an MPI_Bcast: 32 ms,
    0.78); on 16, where its 15 Transfers and the 10 parts it takes are
    fewer than 11 multicasts of 4, each holder sends its part to every
    member directly (gatherFromHolders(): 1.07, where the multicasts
    measured 0.67). Correct, and
    predicted / measured within 0.7 - 1.25."""
    spmv = os.path.join(SRC, "samples", "zima", "spmv.F")
    blk = {"dims": [{"kind": "block", "mesh_dim": 0}]}
    for procs in (64, 16):
        lay = {"schema": "dlayout-layout/1", "mesh": [procs],
               "arrays": {"B": {"dims": [{"kind": "replicated"}]}, "C": blk, "D": blk, "R": blk,
                          "S": blk}}
        runs = validate(spmv, procs, [lay], [])["runs"]
        check(len(runs) == 1, "1 run, got %d" % len(runs))
        r = runs[0]
        check(r["correct"], "spmv: not correct: %s" % r["arrays"])
        ratio = r["predicted_seconds"] / r["measured_seconds"]
        print("spmv on %d nodes, B replicated: predicted %.4f s, measured %.4f s (%.2f)" % (
            procs, r["predicted_seconds"], r["measured_seconds"], ratio))
        check(0.7 <= ratio <= 1.25, "spmv on %d nodes: predicted / measured %.2f" % (procs, ratio))


def tred2_triangle_fetch():
    """tred2 (paradigm/tred2.F, N = 16), A and Z blocked on both dimensions:
    on 4 simulated iPSC/2 nodes (2 x 2) with D and E blocked on the second
    mesh dimension (copies along the first), and on 16 (4 x 4) with D and E
    on every node. E(K) = E(K) + Z(K,J) * F fetches Z's triangle once per
    I; its column segments lie in one row block at some J and in several at
    others, and the executor sends each element from its owner to every
    holder of E(K) lacking it -- on 4 x 4, every processor: the owners fill
    the mesh one dimension at a time. Counted as it runs
    (costmodels/CountedFetch.h); Fig. 3.2's means put the whole triangle on
    row block 0 (1.13x the busiest rank's bytes on 2 x 2, 0.82x on 4 x 4).
    On 4 x 4 G = E(J) + Z(J,J) * F, G replicated, reads Z before the same
    loop: the executor's one fetch brings the union, counted so
    (joinCountedFetches, costmodels/AcrossStatements.h), where each read
    counted alone was 3.2 % short. Correct, and the busiest rank's bytes
    within 5 % of the prediction on 2 x 2, 1 % on 4 x 4."""
    prog = os.path.join(SRC, "samples", "paradigm", "tred2.F")
    block = [{"kind": "block", "mesh_dim": 0}, {"kind": "block", "mesh_dim": 1}]
    for procs, mesh, vector, aim in ((4, [2, 2], [{"kind": "block", "mesh_dim": 1}], 0.05),
                                     (16, [4, 4], [{"kind": "replicated"}], 0.01)):
        lay = {"schema": "dlayout-layout/1", "mesh": mesh,
               "arrays": {"A": {"dims": block}, "Z": {"dims": block},
                          "D": {"dims": vector}, "E": {"dims": vector}}}
        r = validate(prog, procs, [lay], ["--param", "N=16"])["runs"][0]
        name = "tred2 %s" % "x".join(map(str, mesh))
        check(r["correct"], "%s: not correct: %s" % (name, r["arrays"]))
        err = abs(r["predicted_bytes"] - r["bytes"]) / r["bytes"]
        print("%s: bytes %d predicted %.0f (%.1f %%)" % (name, r["bytes"], r["predicted_bytes"], 100 * err))
        check(err <= aim, "%s: predicted bytes %.0f vs measured %d (%.1f %% off, aim %g %%)" % (
            name, r["predicted_bytes"], r["bytes"], 100 * err, 100 * aim))


if __name__ == "__main__":
    if sys.argv[1:] == ["dflux"]:
        dflux_recommended()
    elif sys.argv[1:] == ["fig2_2"]:
        fig2_2_all_gather()
    elif sys.argv[1:] == ["spmv"]:
        spmv_row_pointers()
    elif sys.argv[1:] == ["relax"]:
        relax_replicated_bound()
    elif sys.argv[1:] == ["dgefa"]:
        dgefa_pivot_row()
    elif sys.argv[1:] == ["tred2"]:
        tred2_triangle_fetch()
    else:
        d = four_layouts()
        computation_term(d)
    print("ok")
