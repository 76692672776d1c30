#!/usr/bin/env python3
"""End-to-end tests of the dlayout command: extract on the samples, every
document validated against its schema, the opt plugin, and bad input.

Environment: DLAYOUT (the binary), DLAYOUT_PLUGIN (the opt plugin),
DLAYOUT_SOURCE_DIR (the repository), OPT (opt-19).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

BIN = os.environ["DLAYOUT"]
PLUGIN = os.environ.get("DLAYOUT_PLUGIN", "")
SRC = os.environ["DLAYOUT_SOURCE_DIR"]
OPT = os.environ.get("OPT", "opt-19")
VALIDATE = os.path.join(SRC, "tests", "schema", "validate.py")
SAMPLES = os.path.join(SRC, "samples")


def write(path, data):
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)


# A subroutine whose inner loop starts at 2 and ends at a dummy argument.
FROM_TWO = ("      subroutine s(a, b, n, m)\n      integer n, m\n"
            "      double precision a(n, m), b(n)\n      do 10 j = 1, m\n"
            "        do 20 i = 2, n\n          a(i, j) = b(i - 1) * 2\n"
            " 20     continue\n 10   continue\n      end\n")


def run(*args, timeout=120):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=timeout)


def all_samples():
    out = []
    for root, _, files in os.walk(SAMPLES):
        for f in sorted(files):
            if f.endswith((".F", ".f", ".F90", ".f90", ".c")):
                out.append(os.path.join(root, f))
    return sorted(out)


class Extract(unittest.TestCase):
    def test_every_sample_extracts_and_validates(self):
        samples = all_samples()
        self.assertGreaterEqual(len(samples), 30)
        with tempfile.TemporaryDirectory() as tmp:
            outs = []
            for i, s in enumerate(samples):
                out = os.path.join(tmp, f"{i}.json")
                r = run("extract", s, "-o", out)
                self.assertEqual(r.returncode, 0, f"{s}: {r.stderr}")
                self.assertNotIn("error", r.stderr, s)
                with open(out) as f:
                    doc = json.load(f)
                self.assertEqual(doc["schema"], "dlayout-model/1")
                self.assertGreater(len(doc["statements"]), 0, s)
                outs.append(out)
            v = subprocess.run([sys.executable, VALIDATE, *outs], capture_output=True, text=True)
            self.assertEqual(v.returncode, 0, v.stdout + v.stderr)

    def test_text_format_names_loops_and_classes(self):
        r = run("extract", os.path.join(SAMPLES, "paradigm", "jacobi.F"), "--format", "text")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("B(I, J) = ", r.stdout)
        self.assertIn("A(I - 1, J)", r.stdout)
        self.assertIn("single@2", r.stdout)
        self.assertRegex(r.stdout, r"do K = 1, 10 .*sequential")

    def test_model_json_round_trips_through_the_cli(self):
        with tempfile.TemporaryDirectory() as tmp:
            first = os.path.join(tmp, "m.json")
            second = os.path.join(tmp, "m2.json")
            self.assertEqual(run("extract", os.path.join(SAMPLES, "paradigm", "tred2.F"),
                                 "-o", first).returncode, 0)
            r = run("extract", first, "-o", second)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(first) as a, open(second) as b:
                self.assertEqual(json.load(a), json.load(b))

    def test_file_names_with_spaces_and_metacharacters(self):
        with tempfile.TemporaryDirectory() as tmp:
            weird = os.path.join(tmp, "a b;$(touch pwned)&`x`.F")
            shutil.copy(os.path.join(SAMPLES, "paradigm", "fig3_7.F"), weird)
            r = run("extract", weird, "--format", "text")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertFalse(os.path.exists(os.path.join(tmp, "pwned")))
            self.assertFalse(os.path.exists("pwned"))

    def test_compiler_flags_after_double_dash(self):
        src = os.path.join(SAMPLES, "c", "jacobi.c")
        r = run("extract", src, "--format", "text", "--", "-DN=32")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("f64(0:31, 0:31)", r.stdout)

    def test_symbolic_size_bound_by_param(self):
        src = os.path.join(SAMPLES, "c", "jacobi_vla.c")
        r = run("extract", src, "--function", "jacobi", "--param", "n=40",
                "--param", "ncycles=3", "--format", "json")
        self.assertEqual(r.returncode, 0, r.stderr)
        doc = json.loads(r.stdout)
        self.assertEqual(doc["params"]["n"], 40)
        trips = sorted(l["trip_count"] for l in doc["loops"])
        self.assertEqual(trips[0], 3)        # the k loop
        self.assertIn(38, trips)             # i, j = 1 .. n-2

    def test_a_c_models_parameters_are_bound_by_their_own_case(self):
        # jacobi_vla.c has a macro N and an argument n: two parameters of
        # its model, which --param on the model binds one at a time (a
        # Fortran model's names are case-blind, as its source's are).
        src = os.path.join(SAMPLES, "c", "jacobi_vla.c")
        with tempfile.TemporaryDirectory() as tmp:
            model = os.path.join(tmp, "m.json")
            r = run("extract", src, "--param", "N=32", "--param", "n=32", "-o", model)
            self.assertEqual(r.returncode, 0, r.stderr)
            r = run("extract", model, "--param", "n=40", "--format", "json")
            self.assertEqual(r.returncode, 0, r.stderr)
            params = json.loads(r.stdout)["params"]
            self.assertEqual((params["n"], params["N"]), (40, 32))
            r = run("extract", model, "--param", "NX=40")
            self.assertNotEqual(r.returncode, 0)
            self.assertIn("names no parameter of the model", r.stderr)
            fsrc = os.path.join(tmp, "s.f")
            write(fsrc, FROM_TWO)
            fmodel = os.path.join(tmp, "f.json")
            r = run("extract", fsrc, "--param", "N=30", "--param", "M=20", "-o", fmodel)
            self.assertEqual(r.returncode, 0, r.stderr)
            r = run("extract", fmodel, "--param", "n=25", "--format", "json")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(json.loads(r.stdout)["params"], {"M": 20, "N": 25})

    def test_fortran_loop_from_two_to_a_dummy_extent(self):
        # flang counts DO I = 2, N as N - smin(1, N): N - 1 wherever the
        # loop runs (it was a min the bounds could not read, the trip count
        # assumed).
        with tempfile.TemporaryDirectory() as tmp:
            p = os.path.join(tmp, "s.f")
            write(p, FROM_TWO)
            r = run("extract", p, "--param", "N=30", "--param", "M=20", "--format", "json")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertNotIn("not affine", r.stderr)
            loops = {l["var"]: l for l in json.loads(r.stdout)["loops"]}
            self.assertEqual(loops["I"]["trip_count"], 29)
            self.assertEqual(loops["I"]["upper"]["terms"][0]["params"], {"N": 1})

    def test_a_parameter_only_the_strides_give_has_its_value(self):
        # A(N, M)'s N reaches the model through the address arithmetic alone
        # when the loop over I ends at MIN(N, 10): it was left without a
        # value, and A refused with an extent of 0.
        code = FROM_TWO.replace("i = 2, n", "i = 2, min(n, 10)")
        with tempfile.TemporaryDirectory() as tmp:
            p = os.path.join(tmp, "s.f")
            write(p, code)
            r = run("extract", p, "--param", "N=30", "--param", "M=20", "--format", "json")
            self.assertEqual(r.returncode, 0, r.stderr)
            doc = json.loads(r.stdout)
            a = [x for x in doc["arrays"] if x["name"] == "A"][0]
            self.assertEqual([d["extent"] for d in a["dims"]], [30, 20])
            # The count smin(N, 10) - smin(1, N): two unknowns, which do not
            # cancel to a loop that never runs; the trip count is assumed,
            # and said so.
            loops = {l["var"]: l for l in doc["loops"]}
            self.assertGreater(loops["I"]["trip_count"], 0)
            self.assertIn("not affine", r.stderr)

    def test_fortran_dummy_arrays_and_strided_loops(self):
        code = ("      subroutine s(a, b, n, m)\n"
                "      integer n, m\n"
                "      double precision a(n, m), b(n)\n"
                "      do 10 j = m, 1, -2\n"
                "        do 20 i = 1, n, 3\n"
                "          a(i, j) = b(i) * 2 + a(i, j)\n"
                " 20     continue\n"
                " 10   continue\n"
                "      end\n")
        with tempfile.TemporaryDirectory() as tmp:
            p = os.path.join(tmp, "dummy.f")
            write(p, code)
            r = run("extract", p, "--param", "N=30", "--param", "M=20")
            self.assertEqual(r.returncode, 0, r.stderr)
            doc = json.loads(r.stdout)
        loops = {l["var"]: l for l in doc["loops"]}
        self.assertEqual(loops["J"]["step"], -2)
        self.assertEqual(loops["I"]["step"], 3)
        self.assertEqual(loops["J"]["trip_count"], 10)   # 20, 18, ..., 2
        self.assertEqual(loops["I"]["trip_count"], 10)   # 1, 4, ..., 28
        self.assertEqual(loops["I"]["upper"]["terms"][0]["params"], {"N": 1})
        a = [x for x in doc["arrays"] if x["name"] == "A"][0]
        self.assertEqual(a["origin"], "argument")
        self.assertEqual(a["dims"][0]["extent"], 30)       # N, from the stride
        self.assertEqual(a["dims"][0]["extent_expr"]["params"], {"N": 1})
        ref = doc["statements"][0]["refs"][0]["subscripts"]
        self.assertEqual([s["class"] for s in ref], ["single", "single"])
        self.assertTrue(loops["I"]["parallel"] and loops["J"]["parallel"])

    @unittest.skipUnless(PLUGIN, "plugin not built")
    def test_opt_plugin_gives_the_same_model(self):
        src = os.path.join(SAMPLES, "paradigm", "jacobi.F")
        with tempfile.TemporaryDirectory() as tmp:
            ll = os.path.join(tmp, "jacobi.ll")
            c = subprocess.run(["flang-new-19", "-S", "-emit-llvm", "-g", "-O0", src, "-o", ll],
                               capture_output=True, text=True)
            self.assertEqual(c.returncode, 0, c.stderr)
            env = dict(os.environ)
            preload = os.environ.get("DLAYOUT_PLUGIN_PRELOAD", "")
            if preload:  # a sanitised plugin in an unsanitised opt
                env["LD_PRELOAD"] = preload
                env["ASAN_OPTIONS"] = "detect_leaks=0"
            o = subprocess.run([OPT, f"-load-pass-plugin={PLUGIN}", "-passes=dlayout-extract",
                                "-disable-output", ll], capture_output=True, text=True,
                               timeout=120, env=env)
            self.assertEqual(o.returncode, 0, o.stderr)
            via_opt = json.loads(o.stdout)
            r = run("extract", ll)
            self.assertEqual(r.returncode, 0, r.stderr)
            direct = json.loads(r.stdout)
            for key in ("arrays", "loops", "statements", "dependences"):
                self.assertEqual(via_opt[key], direct[key], key)


class Warnings(unittest.TestCase):
    """Awkward but valid programs: a result, and a warning naming the assumption."""

    def extract_c(self, code, *args):
        with tempfile.TemporaryDirectory() as tmp:
            p = os.path.join(tmp, "w.c")
            write(p, code)
            r = run("extract", p, *args)
            self.assertEqual(r.returncode, 0, r.stderr)
            return json.loads(r.stdout), r.stderr

    def inner_trips(self, code, *args):
        """The trip count of the nest's inner loop, and the warnings."""
        doc, err = self.extract_c(code, *args)
        return [l for l in doc["loops"] if l["level"] == 2][0]["trip_count"], err

    def test_pointers_that_may_alias(self):
        doc, err = self.extract_c(
            "void f(int n, double *a, double *b) {\n"
            "  for (int i = 1; i < n; i++) a[i] = b[i - 1];\n}\n", "--param", "n=10")
        self.assertIn("may alias", err)
        self.assertIn("aliasing", [w["kind"] for w in doc["warnings"]])

    def test_restrict_pointers_do_not_warn(self):
        doc, err = self.extract_c(
            "void f(int n, double *restrict a, double *restrict b) {\n"
            "  for (int i = 1; i < n; i++) a[i] = b[i - 1];\n}\n", "--param", "n=10")
        self.assertNotIn("aliasing", [w["kind"] for w in doc["warnings"]])

    def test_call_to_unknown_function(self):
        doc, err = self.extract_c(
            "void ext(double *);\ndouble a[100];\n"
            "void f(void) {\n  for (int i = 0; i < 100; i++) { a[i] = i; ext(a); }\n}\n")
        self.assertIn("call to ext", err)
        self.assertIn("unknown-call", [w["kind"] for w in doc["warnings"]])

    def test_unbound_parameter_is_assumed_and_said(self):
        doc, err = self.extract_c(
            "void f(int n, double *restrict a) {\n"
            "  for (int i = 0; i < n; i++) a[i] = 2 * a[i];\n}\n")
        self.assertIn("parameter n has no value", err)
        self.assertEqual(doc["loops"][0]["trip_count"], 100)

    def test_non_affine_bound(self):
        doc, err = self.extract_c(
            "int rowptr[11]; double x[100];\n"
            "void f(void) {\n  for (int i = 0; i < 10; i++)\n"
            "    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) x[k] = 1;\n}\n",
            "--trip-count", "4=7")
        inner = [l for l in doc["loops"] if l["level"] == 2][0]
        self.assertEqual(inner["upper"]["kind"], "nonaffine")
        self.assertEqual(inner["trip_count"], 7)

    def test_non_affine_trip_count_bounded_by_the_extent_it_indexes(self):
        # DO J = 1, COUNT(I) reading COEF(I,J) with 4 columns (Kali's
        # relax): a run within bounds takes at most 4 iterations, not the
        # default 10; a count the user gives is kept.
        src = ("int count[16]; double coef[16][4], y[16];\n"
               "void f(void) {\n  for (int i = 0; i < 16; i++)\n"
               "    for (int j = 0; j < count[i]; j++) y[i] += coef[i][j];\n}\n")
        trips, err = self.inner_trips(src)
        self.assertEqual(trips, 4)
        self.assertIn("assumed to be 4 (no more than dimension 2 of coef", err)
        self.assertEqual(self.inner_trips(src, "--trip-count", "4=7")[0], 7)

    def test_non_affine_trip_count_of_compressed_row_segments(self):
        # for k = rowptr[i] .. rowptr[i+1] - 1 inside the i loop (compressed
        # rows, Zima's Fig. 5): the 10 runs are consecutive segments of the
        # 40 elements of val that k subscripts, 4 each on average, not the
        # extent's bound of 40 or the default 10.
        csr = ("int rowptr[11], col[40]; double val[40], x[8], y[10];\n"
               "void f(void) {\n  for (int i = 0; i < 10; i++)\n"
               "    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) y[i] += val[k] * x[col[k]];\n}\n")
        trips, err = self.inner_trips(csr)
        self.assertEqual(trips, 4)
        self.assertIn("assumed to be 4 (at each of the 10 iterations of loop", err)
        # Not segments: the two pointers are two elements apart, or the
        # first does not advance with i; the extent's bound (40) is all
        # that is known.
        for lo, hi in (("rowptr[i]", "rowptr[i + 2]"), ("rowptr[0]", "rowptr[i + 1]")):
            trips, err = self.inner_trips(csr.replace("rowptr[i]; k < rowptr[i + 1]", lo + "; k < " + hi))
            self.assertEqual(trips, 10, lo + " .. " + hi)
            self.assertNotIn("segment", err)
        self.assertEqual(self.inner_trips(csr, "--trip-count", "4=7")[0], 7)

    def test_irreducible_control_flow(self):
        doc, err = self.extract_c(
            "double a[10];\nvoid f(int c) {\n  int i = 0;\n  if (c) goto inside;\n"
            "top:\n  a[i] = 1;\ninside:\n  a[i] += 2;\n  if (++i < 10) goto top;\n}\n")
        self.assertIn("irreducible", [w["kind"] for w in doc["warnings"]])

    def test_common_block_is_said_to_be_one_array(self):
        code = ("      program c\n      double precision a(10), b(10)\n"
                "      common /blk/ a, b\n      do 10 i = 1, 10\n"
                "        a(i) = b(i) + 1\n 10   continue\n      end\n")
        with tempfile.TemporaryDirectory() as tmp:
            p = os.path.join(tmp, "common.f")
            write(p, code)
            r = run("extract", p)
            self.assertEqual(r.returncode, 0, r.stderr)
            doc = json.loads(r.stdout)
        self.assertIn("common", [w["kind"] for w in doc["warnings"]])

    def test_ten_deep_nest(self):
        loops = "".join(f"for (int i{k} = 0; i{k} < 2; i{k}++) " for k in range(10))
        idx = "][".join(f"i{k}" for k in range(10))
        doc, err = self.extract_c(f"double a[2][2][2][2][2][2][2][2][2][2];\n"
                                  f"void f(void) {{ {loops} a[{idx}] = 1; }}\n")
        self.assertEqual(len(doc["loops"]), 10)
        subs = doc["statements"][0]["refs"][0]["subscripts"]
        self.assertEqual([s["class"] for s in subs], ["single"] * 10)
        self.assertEqual([s["variation_level"] for s in subs], list(range(1, 11)))


class BadInput(unittest.TestCase):
    """Each bad input: one `dlayout: error:` line, a non-zero exit, no crash."""

    def assertCleanError(self, r, *fragments):
        self.assertNotEqual(r.returncode, 0)
        self.assertLess(r.returncode, 128, "killed by a signal")
        lines = [l for l in r.stderr.splitlines() if l.startswith("dlayout: error:")]
        self.assertEqual(len(lines), 1, r.stderr)
        for f in fragments:
            self.assertIn(f, lines[0])
        self.assertEqual(r.stdout, "")

    def test_missing_file(self):
        self.assertCleanError(run("extract", "/nonexistent/x.f"), "no such file")

    def test_directory(self):
        self.assertCleanError(run("extract", SAMPLES), "is a directory")

    def test_unknown_extension(self):
        with tempfile.NamedTemporaryFile(suffix=".xyz") as f:
            self.assertCleanError(run("extract", f.name), "unknown file type '.xyz'")

    def test_empty_program(self):
        with tempfile.TemporaryDirectory() as tmp:
            p = os.path.join(tmp, "empty.f90")
            write(p, "program empty\nend program empty\n")
            self.assertCleanError(run("extract", p), "no array or scalar assignments")

    def test_fortran_syntax_error_is_forwarded_with_location(self):
        with tempfile.TemporaryDirectory() as tmp:
            p = os.path.join(tmp, "bad.f90")
            write(p, "program bad\n  real :: a(10)\n  a(1) = = 2\nend program\n")
            r = run("extract", p)
            self.assertCleanError(r, "bad.f90:3:")

    def test_c_syntax_error_is_forwarded_with_location(self):
        with tempfile.TemporaryDirectory() as tmp:
            p = os.path.join(tmp, "bad.c")
            write(p, "int main(void) {\n  int x = ;\n}\n")
            self.assertCleanError(run("extract", p), "bad.c:2:11", "expected expression")

    def test_invalid_ir(self):
        with tempfile.TemporaryDirectory() as tmp:
            p = os.path.join(tmp, "bad.ll")
            write(p, "define void @f() {\n  %x = add i32 1\n}\n")
            self.assertCleanError(run("extract", p), "invalid LLVM IR", "bad.ll:3:1")

    def test_truncated_bitcode(self):
        with tempfile.TemporaryDirectory() as tmp:
            p = os.path.join(tmp, "bad.bc")
            write(p, b"BC\xc0\xde\x35\x14\x00\x00")
            self.assertCleanError(run("extract", p), "invalid LLVM IR")

    def test_binary_garbage_as_source(self):
        with tempfile.TemporaryDirectory() as tmp:
            p = os.path.join(tmp, "garbage.c")
            write(p, bytes(range(256)) * 4)
            self.assertCleanError(run("extract", p))

    def test_malformed_param(self):
        src = os.path.join(SAMPLES, "paradigm", "jacobi.F")
        self.assertCleanError(run("extract", src, "--param", "NP2"), "expected NAME=VALUE")
        self.assertCleanError(run("extract", src, "--param", "NP2=abc"), "not an integer")
        self.assertCleanError(run("extract", src, "--param", "1X=3"), "expected NAME=VALUE")

    def test_param_that_names_nothing(self):
        src = os.path.join(SAMPLES, "paradigm", "jacobi.F")
        self.assertCleanError(run("extract", src, "--param", "NOSUCH=3"), "names nothing")

    def test_unknown_function(self):
        src = os.path.join(SAMPLES, "paradigm", "jacobi.F")
        self.assertCleanError(run("extract", src, "--function", "nosuch"), "no function named")

    def test_malformed_probability(self):
        src = os.path.join(SAMPLES, "paradigm", "jacobi.F")
        self.assertCleanError(run("extract", src, "--probability", "12=1.5"), "--probability")

    def test_unwritable_output(self):
        src = os.path.join(SAMPLES, "paradigm", "fig3_7.F")
        self.assertCleanError(run("extract", src, "-o", "/nonexistent/dir/out.json"), "cannot write")

    def test_bad_format_and_unknown_option(self):
        src = os.path.join(SAMPLES, "paradigm", "fig3_7.F")
        r = run("extract", src, "--format", "xml")
        self.assertEqual(r.returncode, 2)
        self.assertTrue(r.stderr.startswith("dlayout: error:"))
        r = run("extract", src, "--no-such-option")
        self.assertEqual(r.returncode, 2)

    def test_malformed_model_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            p = os.path.join(tmp, "m.json")
            write(p, '{"schema": "dlayout-model/2"}')
            self.assertCleanError(run("extract", p), "dlayout-model/1")
            write(p, '{"schema": "dlayout-model/1", "arrays": [')
            self.assertCleanError(run("extract", p))


if __name__ == "__main__":
    unittest.main(verbosity=2)
