#!/usr/bin/env python3
"""`dlayout advise` end to end: every output form, the JSON against its
schema, and the recommended layout re-estimated by `dlayout estimate`."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

BIN = os.environ["DLAYOUT"]
SRC = os.environ["DLAYOUT_SOURCE_DIR"]
VALIDATE = os.path.join(SRC, "tests", "schema", "validate.py")
JACOBI = os.path.join(SRC, "samples", "paradigm", "jacobi.F")


def run(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=600)


def estimated(test, model, machine, mesh, arrays, path):
    """`dlayout estimate`'s seconds for the layout of `mesh` and `arrays` on
    16 processors, written to path."""
    with open(path, "w") as f:
        json.dump({"schema": "dlayout-layout/1", "mesh": mesh, "arrays": arrays}, f)
    r = run("estimate", model, "--procs", "16", "--machine", machine, "--layout", path,
            "--format", "json")
    test.assertEqual(r.returncode, 0, r.stderr)
    return json.loads(r.stdout)["predicted_seconds"]


class Advise(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.model = os.path.join(cls.tmp.name, "jacobi.json")
        r = run("extract", JACOBI, "--param", "NP2=66", "-o", cls.model)
        assert r.returncode == 0, r.stderr

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def advise(self, fmt, *extra):
        r = run("advise", self.model, "--procs", "16", "--machine", "ipsc2", "--format", fmt, *extra)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout

    def test_json_validates_and_recommendation_reestimates(self):
        out = os.path.join(self.tmp.name, "advice.json")
        self.advise("json", "-o", out)
        v = subprocess.run([sys.executable, VALIDATE, out], capture_output=True, text=True)
        self.assertEqual(v.returncode, 0, v.stdout + v.stderr)
        with open(out) as f:
            advice = json.load(f)
        rec = advice["recommended"]
        self.assertEqual(rec["schema"], "dlayout-layout/1")
        n = 1
        for m in rec["mesh"]:
            n *= m
        self.assertEqual(n, 16)
        # The optimum is never estimated worse than the PARADIGM passes.
        s = advice["solver"]
        self.assertLessEqual(s["optimal_seconds"], s["heuristic_seconds"] * (1 + 1e-9))
        # Alternatives are no better than the recommendation (jacobi's is
        # not a tie between BLOCK and cyclic: AdviseBlockedTies).
        for alt in advice["alternatives"]:
            self.assertGreaterEqual(alt["predicted_seconds"], rec["predicted_seconds"] * (1 - 1e-9))
        # The recommended layout, as written, is a layout file for estimate.
        lay = os.path.join(self.tmp.name, "rec.json")
        with open(lay, "w") as f:
            json.dump(rec, f)
        r = run("estimate", self.model, "--procs", "16", "--layout", lay, "--format", "json")
        self.assertEqual(r.returncode, 0, r.stderr)
        est = json.loads(r.stdout)
        self.assertAlmostEqual(est["predicted_seconds"], rec["predicted_seconds"],
                               delta=1e-9 * max(1.0, rec["predicted_seconds"]))

    def test_fewer_processors_recommended_validates(self):
        # dgefa at N = 16 on 64 nodes: one processor is estimated faster; the
        # advice says so and recommends that layout on the 64 (origin
        # "fewer-processors", in the schema).
        out = os.path.join(self.tmp.name, "fewer.json")
        dgefa = os.path.join(SRC, "samples", "paradigm", "dgefa.F")
        r = run("advise", dgefa, "--param", "N=16", "--procs", "64", "--format", "json", "-o", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        v = subprocess.run([sys.executable, VALIDATE, out], capture_output=True, text=True)
        self.assertEqual(v.returncode, 0, v.stdout + v.stderr)
        with open(out) as f:
            advice = json.load(f)
        self.assertEqual(advice["recommended"]["origin"], "fewer-processors")
        self.assertIn("fewer-processors", [w["kind"] for w in advice["warnings"]])

    def test_hpf_sarif_and_text(self):
        hpf = self.advise("hpf")
        self.assertIn("!HPF$ PROCESSORS", hpf)
        self.assertIn("!HPF$ DISTRIBUTE A", hpf)
        sarif = json.loads(self.advise("sarif"))
        self.assertEqual(sarif["version"], "2.1.0")
        self.assertGreater(len(sarif["runs"][0]["results"]), 0)
        text = self.advise("text")
        self.assertIn("alternatives", text)
        self.assertIn("predicted", text)

    def test_bad_procs_and_machine(self):
        r = run("advise", self.model, "--procs", "0")
        self.assertEqual(r.returncode, 2)
        r = run("advise", self.model, "--procs", "16", "--machine", "nosuch")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("dlayout: error:", r.stderr)


class AdviseKeptCosts(unittest.TestCase):
    """The estimator behind advise keeps each statement's costs part by part
    across the thousands of layouts the optimiser costs
    (costmodels/StatementCache.h): every alternative it reports, estimated
    afresh by `dlayout estimate`, is predicted the same. tred2's statements
    fetch several arrays each, in triangular nests."""

    def test_every_alternative_reestimates(self):
        with tempfile.TemporaryDirectory() as tmp:
            model = os.path.join(tmp, "tred2.json")
            r = run("extract", os.path.join(SRC, "samples", "paradigm", "tred2.F"),
                    "--param", "N=32", "-o", model)
            self.assertEqual(r.returncode, 0, r.stderr)
            for machine in ("ipsc2", "cluster"):
                r = run("advise", model, "--procs", "16", "--machine", machine, "--format", "json")
                self.assertEqual(r.returncode, 0, r.stderr)
                alternatives = json.loads(r.stdout)["alternatives"]
                self.assertGreaterEqual(len(alternatives), 3)
                for k, alt in enumerate(alternatives):
                    fresh = estimated(self, model, machine, alt["mesh"], alt["arrays"],
                                      os.path.join(tmp, f"alt{k}.json"))
                    self.assertAlmostEqual(fresh, alt["predicted_seconds"],
                                           delta=1e-12 * max(1.0, fresh),
                                           msg=f"{machine} alternative {k} ({alt.get('origin')})")


def blocked(arrays):
    """`arrays` with BLOCK on every cyclic and block-cyclic dimension, and
    whether there was one."""
    out = json.loads(json.dumps(arrays))
    changed = False
    for a in out.values():
        for d in a["dims"]:
            if d["kind"] in ("cyclic", "block_cyclic"):
                d["kind"] = "block"
                d.pop("block", None)
                changed = True
    return out, changed


class AdviseBlockedTies(unittest.TestCase):
    """A layout with cyclic distributions is recommended only where it is
    estimated more than 2 % faster than the same layout with BLOCK in their
    place (--cyclic-margin, default 2: ties go to blocked); otherwise a
    layout without them is (that one, or a faster one the solver found),
    the cyclic layout first among the alternatives, the only ones
    materially faster, and a "blocked" constraint says by how much. lu.c at N = 32 on 16
    iPSC/2 nodes is such a tie (block x cyclic(4) 1.4 % below block x
    block; 7 % slower simulated); lu on 4 and dgefa are not. Each cyclic
    recommendation is checked against its blocked form estimated afresh by
    `dlayout estimate`. Fails with the tie rule gone (lu on 16 recommends
    the cyclic layout) and where BLOCK displaces a layout materially
    faster."""

    def test_cyclic_only_where_materially_faster(self):
        ties = 0
        with tempfile.TemporaryDirectory() as tmp:
            for sample, params in (("c/lu.c", ["--param", "N=32"]), ("paradigm/dgefa.F", [])):
                model = os.path.join(tmp, "model.json")
                r = run("extract", os.path.join(SRC, "samples", sample), *params, "-o", model)
                self.assertEqual(r.returncode, 0, r.stderr)
                for procs in ("4", "16"):
                    r = run("advise", model, "--procs", procs, "--machine", "ipsc2",
                            "--format", "json")
                    self.assertEqual(r.returncode, 0, r.stderr)
                    advice = json.loads(r.stdout)
                    rec = advice["recommended"]
                    where = f"{sample} on {procs}"
                    # (The passes' layout stands before the optimiser's
                    # within 0.1 %: kMaterialGain.)
                    faster = [a for a in advice["alternatives"]
                              if a["predicted_seconds"] < rec["predicted_seconds"] * (1 - 1e-3)]
                    if faster:
                        ties += 1
                        self.assertIs(faster[0], advice["alternatives"][0], where)
                        self.assertFalse(blocked(rec["arrays"])[1], where)
                        for a in faster:
                            self.assertTrue(blocked(a["arrays"])[1], where)
                        self.assertLessEqual(rec["predicted_seconds"],
                                             faster[0]["predicted_seconds"] * 1.02, where)
                        self.assertIn("ties go to blocked",
                                      " ".join(c["detail"] for c in advice["constraints"]))
                        continue
                    arrays, changed = blocked(rec["arrays"])
                    if not changed:
                        continue
                    path = os.path.join(tmp, "blocked.json")
                    with open(path, "w") as f:
                        json.dump({"schema": "dlayout-layout/1", "mesh": rec["mesh"],
                                   "arrays": arrays}, f)
                    r = run("estimate", model, "--procs", procs, "--machine", "ipsc2",
                            "--layout", path, "--format", "json")
                    self.assertEqual(r.returncode, 0, r.stderr)
                    self.assertGreater(json.loads(r.stdout)["predicted_seconds"],
                                       rec["predicted_seconds"] * 1.02, where)
        self.assertGreaterEqual(ties, 1)

    def test_cyclic_margin(self):
        # --cyclic-margin 0: the fastest estimated, lu's block x cyclic(4),
        # advised and validated; a margin that is no percentage is a usage
        # error.
        lu = os.path.join(SRC, "samples", "c", "lu.c")
        r = run("advise", lu, "--param", "N=32", "--procs", "16", "--format", "json",
                "--cyclic-margin", "0")
        self.assertEqual(r.returncode, 0, r.stderr)
        advice = json.loads(r.stdout)
        self.assertTrue(blocked(advice["recommended"]["arrays"])[1])
        for alt in advice["alternatives"]:
            self.assertGreaterEqual(alt["predicted_seconds"],
                                    advice["recommended"]["predicted_seconds"] * (1 - 1e-3))
        for command in ("advise", "validate"):
            for bad in ("-1", "101", "nan", "inf", "two"):
                r = run(command, lu, "--param", "N=32", "--procs", "16", "--cyclic-margin", bad)
                self.assertEqual(r.returncode, 2, f"{command} {bad}")
                self.assertIn("percentage", r.stderr, f"{command} {bad}")
        # validate's advised layouts are advise's, at the same margin: the
        # recommendation run is the one advise gave.
        r = run("validate", lu, "--param", "N=32", "--procs", "16", "--format", "json",
                "--cyclic-margin", "0")
        self.assertEqual(r.returncode, 0, r.stderr)
        run0 = json.loads(r.stdout)["runs"][0]
        self.assertTrue(run0["recommended"])
        self.assertEqual(run0["layout_document"]["arrays"], advice["recommended"]["arrays"])
        self.assertEqual(run0["layout_document"]["mesh"], advice["recommended"]["mesh"])


class AdviseMirrors(unittest.TestCase):
    """A layout and its mirror -- the mesh's two dimensions swapped, every
    array dimension on the other one -- are predicted the same
    (model/FillOrder.h: a replicated lhs is filled in an order that does not
    depend on how the mesh dimensions are numbered), which lets the exact
    optimiser solve a shape once for its mirror. tred2's and dgefa's
    replicated scalars read from 2-D blocks, on both machines: the mirrors
    of every 2-D alternative advise reports. Fails where the estimate of a
    mirror differs (it did, filling in mesh order: tred2 2x8 0.0388605 s
    against 8x2 0.0388607 s on cluster)."""

    def test_mirrors_cost_the_same(self):
        with tempfile.TemporaryDirectory() as tmp:
            for sample, params in (("tred2.F", ["--param", "N=32"]), ("dgefa.F", [])):
                model = os.path.join(tmp, sample + ".json")
                r = run("extract", os.path.join(SRC, "samples", "paradigm", sample), *params,
                        "-o", model)
                self.assertEqual(r.returncode, 0, r.stderr)
                for machine in ("ipsc2", "cluster"):
                    r = run("advise", model, "--procs", "16", "--machine", machine,
                            "--format", "json", "--alternatives", "20")
                    self.assertEqual(r.returncode, 0, r.stderr)
                    checked = 0
                    for k, alt in enumerate(json.loads(r.stdout)["alternatives"]):
                        mesh = alt["mesh"]
                        if len(mesh) != 2 or mesh[0] == mesh[1]:
                            continue
                        arrays = json.loads(json.dumps(alt["arrays"]))
                        for a in arrays.values():
                            for d in a["dims"]:
                                if d.get("mesh_dim") in (0, 1):
                                    d["mesh_dim"] = 1 - d["mesh_dim"]
                        mirror = estimated(self, model, machine, mesh[::-1], arrays,
                                           os.path.join(tmp, "mirror.json"))
                        self.assertAlmostEqual(mirror, alt["predicted_seconds"],
                                               delta=1e-12 * max(1.0, mirror),
                                               msg=f"{sample} {machine} alternative {k} {mesh}")
                        checked += 1
                    self.assertGreaterEqual(checked, 2, f"{sample} {machine}")


if __name__ == "__main__":
    unittest.main(verbosity=2)
