#!/usr/bin/env python3
"""The catalogue of bad and awkward inputs (issue 8): every case runs the dlayout
binary once and asserts its exact outcome.

    catalogue.py --dlayout BUILD/cli/dlayout [--jobs N] [--json OUT] [-k SUBSTRING] [--list]

Each case is a row of CASES below: the files it needs (written into a fresh
directory that is also the working directory of the run), the command line,
and what must come out:

  error  exit status 1, exactly one `dlayout: error:` line on standard error
         containing every given fragment, nothing on standard output;
  usage  exit status 2 (a malformed command line), standard error starting
         with `dlayout: error:` and containing every fragment;
  ok     exit status 0, a result, and a `dlayout: warning:` line for every
         given fragment (the assumption the tool had to make), plus an
         optional check of the result.

Every case, whatever it expects, must also: finish within its time limit;
not die of a signal, nor end in an internal error (exit 3); print no
AddressSanitizer / UBSan / LeakSanitizer report; leave no file in its
working directory but the outputs it names (so output goes only where `-o`
says, and no shell ever ran a file name: `a;touch PWNED.f` must not create
PWNED); and leave nothing in its private TMPDIR (temporary files removed).

The runner takes the binary as an argument, so ctest runs the same catalogue
against build/ and the AddressSanitizer build. --json writes the per-case
results for bench/reliability/run.sh.
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
SAMPLES = os.path.join(SRC, "samples")
SANITIZER_MARKS = ("AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer",
                   "runtime error:", "MemorySanitizer", "ThreadSanitizer")


class Case:
    def __init__(self, name, category, args, expect, files=None, error=(), warn=(),
                 check=None, timeout=60, outputs=(), fixture=None):
        self.name = name
        self.category = category
        self.args = args            # list; "{d}" is the case directory, "{s}" the samples
        self.expect = expect        # "error" | "usage" | "ok"
        self.files = files or {}    # name -> str | bytes | callable(path)
        self.error = list(error)    # fragments of the error line (or usage message)
        self.warn = list(warn)      # fragments, each in some warning line
        self.check = check          # callable(stdout, dir) -> None | problem
        self.timeout = timeout
        self.outputs = set(outputs) # files the run may create in its directory
        self.fixture = fixture      # name of a shared input to copy in (see FIXTURES)


# ---------------------------------------------------------------------------
# Helpers to build inputs.
# ---------------------------------------------------------------------------

def fifo(path):
    os.mkfifo(path)


def symlink_to(target):
    def make(path):
        os.symlink(target, path)
    return make


def symlink_loop(path):
    # a.f -> b.f -> a.f: reading it fails with ELOOP, even for root.
    other = path + ".other"
    os.symlink(os.path.basename(other), path)
    os.symlink(os.path.basename(path), other)


def sparse(size):
    def make(path):
        with open(path, "wb") as f:
            f.truncate(size)
    return make


def directory(path):
    os.mkdir(path)


def copy_of(rel, transform=None):
    def make(path):
        with open(os.path.join(SAMPLES, rel), "rb") as f:
            data = f.read()
        if transform:
            data = transform(data)
        with open(path, "wb") as f:
            f.write(data)
    return make


def json_check(pred, what):
    def check(stdout, d):
        try:
            doc = json.loads(stdout)
        except ValueError as e:
            return f"standard output is not JSON: {e}"
        return None if pred(doc) else what
    return check


def warning_kinds(doc):
    return {w["kind"] for w in doc.get("warnings", [])}


FIXED_FORM_ERROR = ("      program p\n      real a(10)\n      a(1) = = 2\n      end\n")
FORTRAN_SEMANTIC = ("program p\n  implicit none\n  real :: a(10)\n  integer :: i\n"
                    "  do i = 1, 10\n    b(i) = a(i)\n  end do\nend program\n")
FORTRAN_TYPE_ERROR = ("program p\n  real :: a(10)\n  character(len=4) :: s\n"
                      "  integer :: i\n  do i = 1, 10\n    a(i) = s\n  end do\nend program\n")

C_NO_LOOPS = "double a[10];\nvoid f(void) {\n  a[0] = 1;\n  a[1] = a[0] * 2;\n}\n"
C_RECURSION = ("double a[100];\nvoid f(int n) {\n  if (n <= 0) return;\n"
               "  for (int i = 0; i < 100; i++) a[i] = a[i] + n;\n  f(n - 1);\n}\n")
F_RECURSION = ("recursive subroutine r(a, n)\n  integer :: n, i\n  real(8) :: a(100)\n"
               "  if (n <= 0) return\n  do i = 1, 100\n    a(i) = a(i) + n\n  end do\n"
               "  call r(a, n - 1)\nend subroutine\n")
C_IRREDUCIBLE = ("double a[10];\nvoid f(int c) {\n  int i = 0;\n  if (c) goto inside;\n"
                 "top:\n  a[i] = 1;\ninside:\n  a[i] += 2;\n  if (++i < 10) goto top;\n}\n")
C_ALIAS = ("void f(int n, double *a, double *b) {\n"
           "  for (int i = 1; i < n; i++) a[i] = b[i - 1];\n}\n")
C_UNKNOWN_CALL = ("void ext(double *);\ndouble a[100];\nvoid f(void) {\n"
                  "  for (int i = 0; i < 100; i++) { a[i] = i; ext(a); }\n}\n")
F_UNKNOWN_CALL = ("      subroutine s(a)\n      double precision a(100)\n"
                  "      do 10 i = 1, 100\n        a(i) = i\n        call ext(a)\n"
                  " 10   continue\n      end\n")
F_COMMON = ("      program c\n      double precision a(10), b(10)\n"
            "      common /blk/ a, b\n      do 10 i = 1, 10\n"
            "        a(i) = b(i) + 1\n 10   continue\n      end\n")
F_EQUIVALENCE = ("      program e\n      double precision a(10), b(10)\n"
                 "      equivalence (a(1), b(1))\n      do 10 i = 1, 10\n"
                 "        a(i) = b(i) + 1\n 10   continue\n      end\n")
F_OVERFLOW = ("subroutine s(a)\n  real(8) :: a(4000000000_8, 4000000000_8, 4000000000_8)\n"
              "  integer(8) :: i\n  do i = 1, 10\n    a(i, i, i) = 1\n  end do\nend subroutine\n")
C_TOO_LARGE = ("double a[1L<<31][1L<<31];\nvoid f(void) {\n"
               "  for (long i = 0; i < 10; i++) a[i][i] = 1;\n}\n")
SMALL_C = "double a[100];\nvoid f(void) {\n  for (int i = 1; i < 100; i++)\n    a[i] = a[i - 1] + 1;\n}\n"
SMALL_F = ("      subroutine s(a)\n      double precision a(100)\n      do 10 i = 2, 100\n"
           "        a(i) = a(i - 1) + 1\n 10   continue\n      end\n")


def c_deep_nest(depth=10):
    loops = "".join(f"for (int i{k} = 0; i{k} < 2; i{k}++) " for k in range(depth))
    idx = "][".join(f"i{k}" for k in range(depth))
    return f"double a{'[2]' * depth};\nvoid f(void) {{ {loops} a[{idx}] = 1; }}\n"


def f_deep_nest(depth=10):
    lines = ["subroutine s(a)", f"  real(8) :: a({', '.join(['2'] * depth)})",
             "  integer :: " + ", ".join(f"i{k}" for k in range(depth))]
    for k in range(depth):
        lines.append("  " * (k + 1) + f"do i{k} = 1, 2")
    lines.append("  " * (depth + 1) + f"a({', '.join(f'i{k}' for k in range(depth))}) = 1")
    for k in reversed(range(depth)):
        lines.append("  " * (k + 1) + "end do")
    lines.append("end subroutine")
    return "\n".join(lines) + "\n"


def c_many_nests(n=2000, per_function=100):
    out = ["double a[64], b[64];"]
    for f in range(0, n, per_function):
        out.append(f"void f{f}(void) {{")
        for k in range(f, min(n, f + per_function)):
            out.append(f"  for (int i = 1; i < 64; i++) a[i] = b[i - 1] + {k};")
        out.append("}")
    return "\n".join(out) + "\n"


def depth_check(depth):
    def pred(doc):
        subs = doc["statements"][0]["refs"][0]["subscripts"]
        return (len(doc["loops"]) == depth and
                [s["class"] for s in subs] == ["single"] * depth and
                sorted(s["variation_level"] for s in subs) == list(range(1, depth + 1)))
    return json_check(pred, f"expected {depth} loops and {depth} single subscripts "
                            "varying at levels 1..{depth}")


# ---------------------------------------------------------------------------
# Shared inputs, made once per run with the binary under test.
# ---------------------------------------------------------------------------

GOOD_LAYOUT = {"schema": "dlayout-layout/1", "mesh": [4, 4],
               "arrays": {"A": {"dims": [{"kind": "block", "mesh_dim": 0},
                                         {"kind": "block", "mesh_dim": 1}]},
                          "B": {"dims": [{"kind": "block", "mesh_dim": 0},
                                         {"kind": "block", "mesh_dim": 1}]}}}

GOOD_MACHINE = {"schema": "dlayout-machine/1", "name": "m",
                "ops": {"load": 1e-7, "store": 1e-7, "add": 1e-7, "mul": 1e-7, "div": 2e-7},
                "message": [{"below_bytes": 100, "startup": 1e-4, "per_byte": 1e-7},
                            {"below_bytes": 0, "startup": 2e-4, "per_byte": 1e-7}]}


def edited(doc, edit):
    doc = json.loads(json.dumps(doc))
    edit(doc)
    return json.dumps(doc)


def model_edit(edit):
    """A copy of the Jacobi model with `edit` applied (a callable on the dict)."""
    def make(path):
        with open(FIXTURES["model"]) as f:
            doc = json.load(f)
        edit(doc)
        with open(path, "w") as f:
            json.dump(doc, f)
    return make


def model_text(transform):
    def make(path):
        with open(FIXTURES["model"]) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(transform(text))
    return make


def deep_expression(depth):
    def make(path):
        with open(FIXTURES["model"]) as f:
            doc = json.load(f)
        doc["statements"][0]["expr"] = "@@"
        deep = '{"op":"neg","args":[' * depth + '{"const":1}' + "]}" * depth
        with open(path, "w") as f:
            f.write(json.dumps(doc).replace('"@@"', deep))
    return make


FIXTURES = {}


def make_fixtures(binary, tmp):
    jacobi = os.path.join(SAMPLES, "paradigm", "jacobi.F")
    model = os.path.join(tmp, "jacobi.json")
    r = subprocess.run([binary, "extract", jacobi, "--param", "NP2=66", "-o", model],
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        sys.exit(f"catalogue: cannot make the fixture model: {r.stderr}")
    FIXTURES["model"] = model
    layout = os.path.join(tmp, "layout.json")
    with open(layout, "w") as f:
        json.dump(GOOD_LAYOUT, f)
    FIXTURES["layout"] = layout
    # IR and bitcode of a C sample, for the truncated-IR cases.
    csrc = os.path.join(tmp, "k.c")
    with open(csrc, "w") as f:
        f.write(SMALL_C)
    for ext, flags in ((".ll", ["-S"]), (".bc", ["-c"])):
        out = os.path.join(tmp, "k" + ext)
        subprocess.run(["clang-19", *flags, "-emit-llvm", "-g", "-O0", "-Xclang",
                        "-disable-O0-optnone", "-o", out, csrc], check=True, timeout=120)
        FIXTURES["ir" + ext] = out


def fixture_bytes(name, transform=None):
    def make(path):
        with open(FIXTURES[name], "rb") as f:
            data = f.read()
        with open(path, "wb") as f:
            f.write(transform(data) if transform else data)
    return make


# ---------------------------------------------------------------------------
# The catalogue.
# ---------------------------------------------------------------------------

J = "{s}/paradigm/jacobi.F"
MODEL = "model.json"   # every case that needs the fixture model gets it under this name


def with_model(files=None):
    f = {MODEL: fixture_bytes("model")}
    f.update(files or {})
    return f


def layout_case(name, doc, error, procs="16"):
    text = doc if isinstance(doc, str) else json.dumps(doc)
    return Case(name, "layout-json", ["estimate", MODEL, "--procs", procs, "--layout", "l.json"],
                "error", files=with_model({"l.json": text}), error=error)


def machine_case(name, doc, error):
    text = doc if isinstance(doc, str) else json.dumps(doc)
    return Case(name, "machine-json", ["estimate", MODEL, "--procs", "16", "--layout", "l.json",
                                       "--machine", "m.json"],
                "error", files=with_model({"l.json": json.dumps(GOOD_LAYOUT), "m.json": text}),
                error=error)


def model_case(name, make, error):
    return Case(name, "model-json", ["extract", "m.json"], "error", files={"m.json": make},
                error=error)


def option_case(name, args, expect, error, command="extract"):
    base = {"extract": ["extract", MODEL],
            "estimate": ["estimate", MODEL, "--procs", "16", "--layout", "l.json"],
            "advise": ["advise", MODEL, "--procs", "16", "--no-exact"]}[command]
    files = with_model({"l.json": json.dumps(GOOD_LAYOUT)})
    return Case(name, "options", base + args, expect, files=files, error=error)


CASES = [
    # --- Inputs that are not there, not files, or not readable -------------
    Case("missing-file", "input", ["extract", "nosuch.f"], "error", error=["no such file", "nosuch.f"]),
    Case("missing-file-no-extension", "input", ["extract", "nosuch"], "error", error=["no such file"]),
    Case("directory-input", "input", ["extract", "dir.f"], "error", files={"dir.f": directory},
         error=["dir.f", "is a directory"]),
    Case("dangling-symlink", "input", ["extract", "gone.c"], "error",
         files={"gone.c": symlink_to("/nonexistent/gone.c")}, error=["no such file"]),
    Case("symlink-loop-unreadable", "input", ["extract", "loop.f"], "error",
         files={"loop.f": symlink_loop}, error=["cannot read 'loop.f'", "symbolic links"]),
    Case("fifo-input-does-not-hang", "input", ["extract", "pipe.c"], "error",
         files={"pipe.c": fifo}, error=["pipe.c", "not a regular file"], timeout=20),
    Case("device-input-does-not-hang", "input", ["extract", "zero.c"], "error",
         files={"zero.c": symlink_to("/dev/zero")}, error=["zero.c", "not a regular file"],
         timeout=20),
    Case("huge-sparse-json-refused", "input", ["extract", "big.json"], "error",
         files={"big.json": sparse(3 << 30)}, error=["big.json", "too large"], timeout=20),
    Case("unknown-extension", "input", ["extract", "prog.xyz"], "error",
         files={"prog.xyz": "x = 1\n"}, error=["unknown file type '.xyz'"]),
    Case("no-extension", "input", ["extract", "Makefile"], "error",
         files={"Makefile": "all:\n"}, error=["unknown file type 'Makefile'"]),
    Case("empty-fortran", "input", ["extract", "e.f"], "error", files={"e.f": ""},
         error=["defines no function"]),
    Case("empty-c", "input", ["extract", "e.c"], "error", files={"e.c": ""},
         error=["defines no function"]),
    Case("empty-ir", "input", ["extract", "e.ll"], "error", files={"e.ll": ""},
         error=["defines no function"]),
    Case("empty-bitcode", "input", ["extract", "e.bc"], "error", files={"e.bc": b""},
         error=["defines no function"]),
    Case("empty-json", "input", ["extract", "e.json"], "error", files={"e.json": ""},
         error=["e.json", "invalid JSON"]),
    Case("binary-as-fortran", "input", ["extract", "g.f90"], "error",
         files={"g.f90": bytes(range(256)) * 8}, error=["g.f90:"]),
    Case("binary-as-c", "input", ["extract", "g.c"], "error",
         files={"g.c": bytes(range(256)) * 8}, error=["g.c:"]),
    Case("binary-as-json", "input", ["extract", "g.json"], "error",
         files={"g.json": bytes(range(256)) * 8}, error=["g.json", "invalid JSON"]),
    Case("binary-as-ir", "input", ["extract", "g.ll"], "error",
         files={"g.ll": bytes(range(256)) * 8}, error=["invalid LLVM IR", "g.ll:"]),

    # --- Compiler diagnostics, forwarded with file:line:col -----------------
    Case("fortran-fixed-form-syntax-error", "compiler", ["extract", "bad.f"], "error",
         files={"bad.f": FIXED_FORM_ERROR}, error=["bad.f:3:"]),
    Case("fortran-undeclared-under-implicit-none", "compiler", ["extract", "sem.f90"], "error",
         files={"sem.f90": FORTRAN_SEMANTIC}, error=["sem.f90:6:", "No explicit type declared"]),
    Case("fortran-type-mismatch", "compiler", ["extract", "ty.f90"], "error",
         files={"ty.f90": FORTRAN_TYPE_ERROR}, error=["ty.f90:6:"]),
    Case("fortran-preprocessor-error", "compiler", ["extract", "pp.F"], "error",
         files={"pp.F": "#error stop here\n      end\n"}, error=["pp.F:1:", "stop here"]),
    Case("c-syntax-error", "compiler", ["extract", "bad.c"], "error",
         files={"bad.c": "int main(void) {\n  int x = ;\n}\n"},
         error=["bad.c:2:11", "expected expression"]),
    Case("c-undeclared-identifier", "compiler", ["extract", "u.c"], "error",
         files={"u.c": "double a[4];\nvoid f(void) {\n  a[0] = zz;\n}\n"},
         error=["u.c:3:10", "undeclared identifier"]),
    Case("c-missing-header", "compiler", ["extract", "h.c"], "error",
         files={"h.c": "#include \"nosuch.h\"\nint x;\n"}, error=["h.c:1:10", "nosuch.h"]),
    Case("cxx-syntax-error", "compiler", ["extract", "bad.cpp"], "error",
         files={"bad.cpp": "template <class T> struct S { T x };\n"}, error=["bad.cpp:1:"]),
    Case("c-array-too-large", "compiler", ["extract", "big.c"], "error",
         files={"big.c": C_TOO_LARGE}, error=["big.c:1:", "array is too large"]),
    Case("compiler-flag-rejected", "compiler", ["extract", "k.c", "--", "-fno-such-flag"],
         "error", files={"k.c": SMALL_C}, error=["-fno-such-flag"]),

    # --- LLVM IR and bitcode -------------------------------------------------
    Case("invalid-ir", "ir", ["extract", "bad.ll"], "error",
         files={"bad.ll": "define void @f() {\n  %x = add i32 1\n}\n"},
         error=["invalid LLVM IR", "bad.ll:3:1"]),
    Case("truncated-ir", "ir", ["extract", "t.ll"], "error",
         files={"t.ll": fixture_bytes("ir.ll", lambda b: b[: len(b) // 2])},
         error=["invalid LLVM IR", "t.ll:"]),
    Case("truncated-bitcode", "ir", ["extract", "t.bc"], "error",
         files={"t.bc": fixture_bytes("ir.bc", lambda b: b[: len(b) // 2])},
         error=["invalid LLVM IR"]),
    Case("bitcode-that-crashes-llvm-reader", "ir", ["extract", "segv.bc"], "error",
         files={"segv.bc": lambda p: shutil.copy(os.path.join(SRC, "tests", "fuzz", "regressions", "ir",
                                                              "bitcode-reader-segv.bc"), p)},
         error=["invalid LLVM IR (bitcode)", "segv.bc"]),
    Case("bitcode-in-a-dot-ll-file", "ir", ["extract", "b.ll"], "error",
         files={"b.ll": fixture_bytes("ir.bc", lambda b: b[: len(b) // 2])}, error=["invalid LLVM IR (bitcode)"]),
    Case("bitcode-header-only", "ir", ["extract", "h.bc"], "error",
         files={"h.bc": b"BC\xc0\xde\x35\x14\x00\x00"}, error=["invalid LLVM IR"]),
    Case("bitcode-bytes-flipped", "ir", ["extract", "f.bc"], "error",
         files={"f.bc": fixture_bytes("ir.bc", lambda b: b[:64] + bytes(x ^ 0x5a for x in b[64:]))},
         error=["invalid LLVM IR"]),
    Case("ir-that-fails-the-verifier", "ir", ["extract", "v.ll"], "error",
         files={"v.ll": "define void @f() {\n  %a = add i32 %b, 1\n  %b = add i32 %a, 1\n"
                        "  ret void\n}\n"}, error=["invalid LLVM IR", "dominate"]),
    Case("ir-with-no-loops-or-arrays", "ir", ["extract", "n.ll"], "error",
         files={"n.ll": "define i32 @f(i32 %x) {\n  %y = add i32 %x, 1\n  ret i32 %y\n}\n"},
         error=["no array or scalar assignments"]),

    # --- Model JSON (dlayout-model/1) ---------------------------------------
    model_case("model-truncated", model_text(lambda t: t[: len(t) // 2]), ["m.json", "invalid JSON"]),
    model_case("model-wrong-schema", model_text(lambda t: t.replace("dlayout-model/1", "dlayout-layout/1")),
               ["expected schema dlayout-model/1, got dlayout-layout/1"]),
    model_case("model-wrong-version", model_text(lambda t: t.replace("dlayout-model/1", "dlayout-model/2")),
               ["expected schema dlayout-model/1, got dlayout-model/2"]),
    model_case("model-top-level-array", lambda p: open(p, "w").write("[1, 2, 3]"),
               ["expected schema dlayout-model/1, got an array"]),
    model_case("model-wrong-type", model_edit(lambda d: d.__setitem__("arrays", "A,B")),
               ["arrays: expected an array, got a string"]),
    model_case("model-zero-extent", model_edit(lambda d: d["arrays"][0]["dims"][0].__setitem__("extent", 0)),
               ["arrays[0].dims[0].extent: must be positive"]),
    model_case("model-negative-extent", model_edit(lambda d: d["arrays"][0]["dims"][1].__setitem__("extent", -66)),
               ["arrays[0].dims[1].extent: must be positive"]),
    model_case("model-size-overflows-64-bits",
               model_edit(lambda d: [x.__setitem__("extent", 4294967296) for x in d["arrays"][0]["dims"]]),
               ["arrays[0]", "overflows 64 bits"]),
    model_case("model-extent-beyond-int64", model_edit(lambda d: d["arrays"][0]["dims"][0].__setitem__("extent", 2 ** 64)),
               ["arrays[0].dims[0].extent: integer out of range"]),
    model_case("model-huge-float", model_text(lambda t: t.replace('"probability": 1.0', '"probability": 1e999', 1)),
               ["invalid JSON: number overflow parsing '1e999'"]),
    model_case("model-unknown-field", model_edit(lambda d: d.__setitem__("colour", "red")),
               ["colour: unknown field"]),
    model_case("model-negative-op-count", model_edit(lambda d: d["statements"][0]["ops"].__setitem__("loads", -1)),
               ["statements[0].ops.loads: must not be negative"]),
    model_case("model-probability-above-one", model_edit(lambda d: d["statements"][0].__setitem__("probability", 2)),
               ["statements[0].probability: must be between 0 and 1"]),
    model_case("model-dangling-loop", model_edit(lambda d: d["statements"][0].__setitem__("loops", ["L999"])),
               ["statements[0].loops[0]: no loop L999"]),
    model_case("model-loop-step-zero", model_edit(lambda d: d["loops"][0].__setitem__("step", 0)),
               ["loops[0].step: must not be zero"]),
    model_case("model-segments-over-no-enclosing-loop",
               model_edit(lambda d: d["loops"][0].__setitem__(
                   "segments", {"over": d["loops"][0]["id"], "first": 1, "count": 16})),
               ["loops[0].segments.over: not a loop enclosing"]),
    model_case("model-deeply-nested-expression", deep_expression(100000), ["nested too deeply"]),
    Case("model-deep-but-legal-expression", "model-json", ["extract", "m.json"], "ok",
         files={"m.json": deep_expression(200)},
         check=json_check(lambda d: len(d["statements"]) > 0, "no statements")),

    # --- Layout JSON (dlayout-layout/1) --------------------------------------
    layout_case("layout-truncated", json.dumps(GOOD_LAYOUT)[:40], ["l.json", "invalid JSON"]),
    layout_case("layout-wrong-version", edited(GOOD_LAYOUT, lambda d: d.__setitem__("schema", "dlayout-layout/9")),
                ["expected schema dlayout-layout/1, got dlayout-layout/9"]),
    layout_case("layout-wrong-schema", json.dumps(GOOD_MACHINE), ["expected schema dlayout-layout/1, got dlayout-machine/1"]),
    layout_case("layout-mesh-wrong-type", edited(GOOD_LAYOUT, lambda d: d.__setitem__("mesh", "4x4")),
                ["mesh: expected an array, got a string"]),
    layout_case("layout-block-zero", edited(GOOD_LAYOUT, lambda d: d["arrays"]["A"]["dims"].__setitem__(
        0, {"kind": "block_cyclic", "mesh_dim": 0, "block": 0})), ["arrays.A.dims[0].block: must be positive"]),
    layout_case("layout-mesh-product-not-p", GOOD_LAYOUT, ["16", "8"], procs="8"),
    layout_case("layout-mesh-zero", edited(GOOD_LAYOUT, lambda d: d.__setitem__("mesh", [0, 16])),
                ["mesh[0]: must be at least 1"]),
    layout_case("layout-mesh-overflows", edited(GOOD_LAYOUT, lambda d: d.__setitem__("mesh", [2 ** 62, 2 ** 62])),
                ["mesh"]),
    layout_case("layout-mesh-dim-out-of-range", edited(GOOD_LAYOUT, lambda d: d["arrays"]["A"]["dims"][0].__setitem__("mesh_dim", 7)),
                ["arrays.A.dims[0].mesh_dim: 7 is not a dimension of the 2-dimensional mesh"]),
    layout_case("layout-unknown-kind", edited(GOOD_LAYOUT, lambda d: d["arrays"]["A"]["dims"][0].__setitem__("kind", "diagonal")),
                ["unknown distribution kind diagonal"]),
    layout_case("layout-array-not-in-program", edited(GOOD_LAYOUT, lambda d: d["arrays"].__setitem__("Q", d["arrays"].pop("B"))),
                ["Q"]),
    layout_case("layout-wrong-rank", edited(GOOD_LAYOUT, lambda d: d["arrays"]["A"]["dims"].pop()),
                ["arrays.A.dims: 1 dimensions, but A has 2"]),
    layout_case("layout-negative-overlap", edited(GOOD_LAYOUT, lambda d: d["arrays"]["A"]["dims"][0].__setitem__("overlap", [-1, 1])),
                ["overlap: must not be negative"]),
    layout_case("layout-general-block-not-increasing", edited(GOOD_LAYOUT, lambda d: d["arrays"]["A"]["dims"].__setitem__(
        0, {"kind": "general_block", "mesh_dim": 0, "begins": [1, 20, 10, 40]})), ["begins[2]: must be greater than begins[1]"]),

    # --- Machine JSON (dlayout-machine/1) -------------------------------------
    machine_case("machine-truncated", json.dumps(GOOD_MACHINE)[:50], ["m.json", "invalid JSON"]),
    machine_case("machine-wrong-version", edited(GOOD_MACHINE, lambda d: d.__setitem__("schema", "dlayout-machine/0")),
                 ["expected schema dlayout-machine/1, got dlayout-machine/0"]),
    machine_case("machine-negative-latency", edited(GOOD_MACHINE, lambda d: d["message"][0].__setitem__("startup", -1e-4)),
                 ["message[0].startup: must not be negative"]),
    machine_case("machine-wrong-type", edited(GOOD_MACHINE, lambda d: d["ops"].__setitem__("load", "fast")),
                 ["ops.load: expected a number, got a string"]),
    machine_case("machine-no-message-pieces", edited(GOOD_MACHINE, lambda d: d.__setitem__("message", [])),
                 ["message: must have at least one piece"]),
    machine_case("machine-infinite-per-byte", json.dumps(GOOD_MACHINE).replace('"per_byte": 1e-07', '"per_byte": 1e999', 1),
                 ["m.json", "number overflow parsing '1e999'"]),
    machine_case("machine-absurd-latency", edited(GOOD_MACHINE, lambda d: d["message"][1].__setitem__("startup", 1e308)),
                 ["m.json", "message[1].startup", "1e6 seconds"]),
    machine_case("machine-unknown-collective", edited(GOOD_MACHINE, lambda d: d.__setitem__("collectives", {"shift": "telepathy"})),
                 ["collectives.shift: unknown algorithm telepathy"]),
    Case("machine-is-a-directory", "machine-json", ["estimate", MODEL, "--procs", "16", "--layout", "l.json",
                                                    "--machine", "mdir"], "error",
         files=with_model({"l.json": json.dumps(GOOD_LAYOUT), "mdir": directory}), error=["mdir", "is a directory"]),
    Case("machine-fifo-does-not-hang", "machine-json", ["advise", MODEL, "--procs", "16", "--no-exact",
                                                        "--machine", "m.pipe"], "error",
         files=with_model({"m.pipe": fifo}), error=["m.pipe", "not a regular file"], timeout=20),
    Case("layout-fifo-does-not-hang", "layout-json", ["estimate", MODEL, "--procs", "16", "--layout", "l.pipe"],
         "error", files=with_model({"l.pipe": fifo}), error=["l.pipe", "not a regular file"], timeout=20),
    Case("machine-unknown-preset", "machine-json", ["advise", MODEL, "--procs", "16", "--machine", "cray9"],
         "error", files=with_model(), error=["cray9"]),

    # --- Every option given a malformed value ---------------------------------
    option_case("procs-zero", ["--procs", "0"], "usage", ["--procs"], "advise"),
    option_case("procs-negative", ["--procs", "-3"], "usage", ["--procs"], "advise"),
    option_case("procs-not-a-number", ["--procs", "many"], "usage", ["--procs"], "advise"),
    option_case("procs-float", ["--procs", "1.5"], "usage", ["--procs"], "estimate"),
    option_case("procs-beyond-int64", ["--procs", "99999999999999999999"], "usage", ["--procs"], "advise"),
    option_case("procs-absurdly-large", ["--procs", "4611686018427387904"], "usage", ["--procs"], "advise"),
    Case("procs-more-than-any-array-can-use", "options",
         ["advise", MODEL, "--procs", "16777216", "--no-exact", "--format", "json"], "ok",
         files=with_model(), warn=["more than any array can use"],
         check=json_check(lambda d: d["procs"] == 16777216, "the advice is not for 2^24 processors")),
    option_case("param-without-value", ["--param", "N="], "error", ["--param 'N='", "expected NAME=VALUE"]),
    option_case("param-without-name", ["--param", "=5"], "error", ["--param '=5'", "expected NAME=VALUE"]),
    option_case("param-beyond-int64", ["--param", "NP2=99999999999999999999"], "error", ["not an integer"]),
    option_case("param-twice", ["--param", "NP2=4", "--param", "NP2=5"], "error", ["--param NP2 is given twice"]),
    Case("param-zero-size", "options", ["extract", J, "--param", "NP2=0"], "error",
         error=["NP2", "extent"]),
    Case("param-negative-size", "options", ["extract", J, "--param", "NP2=-5"], "error",
         error=["NP2", "extent"]),
    option_case("probability-line-zero", ["--probability", "0=0.5"], "error", ["--probability '0=0.5'", "expected LINE=VALUE"]),
    option_case("probability-out-of-range", ["--probability", "12=1.5"], "error", ["--probability '12=1.5'", "[0, 1]"]),
    option_case("probability-nan", ["--probability", "12=nan"], "error", ["--probability '12=nan'"]),
    Case("probability-on-a-line-without-statement", "options", ["extract", J, "--probability", "9999=0.5"],
         "error", error=["--probability 9999", "no statement on line 9999"]),
    option_case("trip-count-negative", ["--trip-count", "4=-1"], "error", ["--trip-count '4=-1'"]),
    option_case("trip-count-infinite", ["--trip-count", "4=inf"], "error", ["--trip-count '4=inf'"]),
    option_case("trip-count-line-overflow", ["--trip-count", "99999999999=5"], "error", ["expected LINE=VALUE"]),
    Case("trip-count-on-a-line-without-loop", "options", ["extract", J, "--trip-count", "9999=5"],
         "error", error=["--trip-count 9999", "no loop on line 9999"]),
    Case("function-empty-name", "options", ["extract", J, "--function", ""], "error",
         error=["no function named ''"]),
    option_case("format-unknown-extract", ["--format", "xml"], "usage", ["--format"]),
    option_case("format-unknown-estimate", ["--format", "sarif"], "usage", ["--format"], "estimate"),
    option_case("format-unknown-advise", ["--format", "pdf"], "usage", ["--format"], "advise"),
    option_case("placement-unknown", ["--placement", "anywhere"], "usage", ["--placement"], "estimate"),
    option_case("time-limit-zero", ["--time-limit", "0"], "usage", ["--time-limit"], "advise"),
    option_case("time-limit-nan", ["--time-limit", "nan"], "usage", ["--time-limit"], "advise"),
    option_case("time-limit-infinite", ["--time-limit", "inf"], "usage", ["--time-limit"], "advise"),
    option_case("alternatives-negative", ["--alternatives", "-1"], "usage", ["--alternatives"], "advise"),
    option_case("alternatives-not-a-number", ["--alternatives", "few"], "usage", ["--alternatives"], "advise"),
    option_case("machine-empty-name", ["--machine", ""], "error", ["machine"], "advise"),
    Case("layout-missing-file", "options", ["estimate", MODEL, "--procs", "16", "--layout", "nosuch.json"],
         "error", files=with_model(), error=["nosuch.json", "no such file"]),
    Case("layout-missing-value", "options", ["estimate", MODEL, "--procs", "16", "--layout"],
         "usage", files=with_model(), error=["--layout"]),
    option_case("output-in-missing-directory", ["-o", "nodir/out.json"], "error", ["cannot write nodir/out.json"]),
    option_case("output-is-a-directory", ["-o", "."], "error", ["cannot write ."]),
    option_case("output-without-value", ["-o"], "usage", ["-o"]),
    Case("unknown-subcommand", "options", ["frobnicate"], "usage", error=["subcommand"]),
    Case("no-subcommand", "options", [], "usage", error=["subcommand"]),
    option_case("unknown-option", ["--no-such-option"], "usage", ["--no-such-option"]),

    # --- Awkward but valid programs: a result and a warning that names the assumption
    Case("c-no-loops", "program", ["extract", "n.c"], "ok", files={"n.c": C_NO_LOOPS},
         check=json_check(lambda d: d["loops"] == [] and len(d["statements"]) == 2,
                          "expected no loops and two statements")),
    Case("c-recursion", "program", ["extract", "r.c"], "ok", files={"r.c": C_RECURSION},
         warn=["recursi"], check=json_check(lambda d: "recursion" in warning_kinds(d),
                                            "no recursion warning in the model")),
    Case("fortran-recursion", "program", ["extract", "r.f90"], "ok", files={"r.f90": F_RECURSION},
         warn=["recursi"], check=json_check(lambda d: "recursion" in warning_kinds(d),
                                            "no recursion warning in the model")),
    Case("c-irreducible-control-flow", "program", ["extract", "g.c"], "ok", files={"g.c": C_IRREDUCIBLE},
         warn=["irreducible"], check=json_check(lambda d: "irreducible" in warning_kinds(d),
                                                "no irreducible warning in the model")),
    Case("c-ten-deep-nest", "program", ["extract", "d.c"], "ok", files={"d.c": c_deep_nest(10)},
         check=depth_check(10)),
    Case("fortran-ten-deep-nest", "program", ["extract", "d.f90"], "ok", files={"d.f90": f_deep_nest(10)},
         check=depth_check(10)),
    Case("c-two-thousand-loop-nests", "program", ["extract", "many.c", "-o", "out.json"], "ok",
         files={"many.c": c_many_nests(2000)}, outputs={"out.json"}, timeout=240,
         check=lambda out, d: None if len(json.load(open(os.path.join(d, "out.json")))["loops"]) == 2000
         else "expected 2000 loops"),
    Case("fortran-array-size-overflows-64-bits", "program", ["extract", "o.f90"], "error",
         files={"o.f90": F_OVERFLOW}, error=["A", "overflows 64 bits"]),
    Case("c-pointers-may-alias", "program", ["extract", "al.c", "--param", "n=10"], "ok",
         files={"al.c": C_ALIAS}, warn=["may alias"],
         check=json_check(lambda d: "aliasing" in warning_kinds(d), "no aliasing warning in the model")),
    Case("c-call-to-unknown-function", "program", ["extract", "call.c"], "ok",
         files={"call.c": C_UNKNOWN_CALL}, warn=["call to ext"],
         check=json_check(lambda d: "unknown-call" in warning_kinds(d), "no unknown-call warning")),
    Case("fortran-call-to-unknown-subroutine", "program", ["extract", "call.f"], "ok",
         files={"call.f": F_UNKNOWN_CALL}, warn=["ext"],
         check=json_check(lambda d: "unknown-call" in warning_kinds(d), "no unknown-call warning")),
    Case("fortran-common-block", "program", ["extract", "cm.f"], "ok", files={"cm.f": F_COMMON},
         warn=["COMMON"], check=json_check(lambda d: "common" in warning_kinds(d), "no common warning")),
    Case("fortran-equivalence", "program", ["extract", "eq.f"], "ok", files={"eq.f": F_EQUIVALENCE},
         warn=["EQUIVALENCE"], check=json_check(lambda d: "common" in warning_kinds(d), "no common warning")),

    # --- File names: spaces, shell metacharacters (never reach a shell) ------
    Case("name-with-spaces", "names", ["extract", "my prog.c"], "ok", files={"my prog.c": SMALL_C},
         check=json_check(lambda d: d["sources"] == ["my prog.c"], "sources is not the file name")),
    Case("name-semicolon-touch", "names", ["extract", "a;touch PWNED.f"], "ok",
         files={"a;touch PWNED.f": SMALL_F}),
    Case("name-command-substitution", "names", ["extract", "$(touch PWNED).c"], "ok",
         files={"$(touch PWNED).c": SMALL_C}),
    Case("name-backticks-pipes-quotes", "names", ["extract", "`touch PWNED`|'\"&x.c"], "ok",
         files={"`touch PWNED`|'\"&x.c": SMALL_C}),
    Case("name-starting-with-dash", "names", ["extract", "./-o.c"], "ok", files={"-o.c": SMALL_C}),
    Case("name-non-ascii", "names", ["extract", "prögrämm ñ.f"], "ok", files={"prögrämm ñ.f": SMALL_F}),
    Case("name-syntax-error-with-metacharacters", "names", ["extract", "x;rm -rf y.c"], "error",
         files={"x;rm -rf y.c": "int f( {\n"}, error=["x;rm -rf y.c:1:"]),
    Case("output-name-with-metacharacters", "names",
         ["extract", "k.c", "-o", "out;touch PWNED.json"], "ok",
         files={"k.c": SMALL_C}, outputs={"out;touch PWNED.json"},
         check=lambda out, d: None if os.path.getsize(os.path.join(d, "out;touch PWNED.json")) > 0
         else "output file empty"),
]


# ---------------------------------------------------------------------------
# Running.
# ---------------------------------------------------------------------------

def listing(d):
    out = set()
    for root, dirs, files in os.walk(d):
        for n in dirs + files:
            out.add(os.path.relpath(os.path.join(root, n), d))
    return out


def run_case(binary, case, workroot):
    d = tempfile.mkdtemp(prefix=case.name + ".", dir=workroot)
    tmp = tempfile.mkdtemp(prefix="tmp.", dir=workroot)
    for name, content in case.files.items():
        path = os.path.join(d, name)
        if callable(content):
            content(path)
        else:
            with open(path, "wb" if isinstance(content, bytes) else "w") as f:
                f.write(content)
    before = listing(d)
    args = [a.replace("{d}", d).replace("{s}", SAMPLES) for a in case.args]
    env = dict(os.environ, TMPDIR=tmp)
    start = time.monotonic()
    problems = []
    try:
        r = subprocess.run([binary, *args], cwd=d, env=env, capture_output=True,
                           timeout=case.timeout, stdin=subprocess.DEVNULL)
        rc, out, err = r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        rc, out, err = None, "", (e.stderr or b"").decode("utf-8", "replace")
        problems.append(f"did not finish within {case.timeout} s")
    seconds = time.monotonic() - start

    if rc is not None:
        if rc < 0:
            problems.append(f"killed by signal {-rc}")
        elif rc == 3:
            problems.append("internal error (exit 3)")
    for mark in SANITIZER_MARKS:
        if mark in err:
            problems.append(f"sanitizer report ({mark})")
            break
    errors = [l for l in err.splitlines() if l.startswith("dlayout: error:")]
    warnings = [l for l in err.splitlines() if l.startswith("dlayout: warning:")]
    if rc is not None and rc >= 0 and not problems:
        if case.expect == "error":
            if rc != 1:
                problems.append(f"exit status {rc}, expected 1")
            if len(errors) != 1:
                problems.append(f"{len(errors)} error lines, expected 1")
            for frag in case.error:
                if not any(frag in l for l in errors):
                    problems.append(f"error line lacks {frag!r}")
            if out:
                problems.append("wrote to standard output")
        elif case.expect == "usage":
            if rc != 2:
                problems.append(f"exit status {rc}, expected 2")
            if not err.startswith("dlayout: error:"):
                problems.append("standard error does not start with 'dlayout: error:'")
            for frag in case.error:
                if frag not in err:
                    problems.append(f"usage message lacks {frag!r}")
        else:
            if rc != 0:
                problems.append(f"exit status {rc}, expected 0")
            if errors:
                problems.append("printed an error")
            for frag in case.warn:
                if not any(frag in l for l in warnings):
                    problems.append(f"no warning mentions {frag!r}")
            if not case.outputs and not out:
                problems.append("no result on standard output")
            if case.check and rc == 0:
                try:
                    p = case.check(out, d)
                except Exception as e:  # the check itself failing is a failure
                    p = f"check failed: {e!r}"
                if p:
                    problems.append(p)
    stray = listing(d) - before - case.outputs
    if stray:
        problems.append("created files it was not told to: " + ", ".join(sorted(stray)))
    if os.listdir(tmp):
        problems.append("left temporary files: " + ", ".join(sorted(os.listdir(tmp))))
    detail = (errors or [l for l in err.splitlines() if l.strip()][:1] or [""])[0]
    shutil.rmtree(d, ignore_errors=True)
    shutil.rmtree(tmp, ignore_errors=True)
    return {"name": case.name, "category": case.category, "expect": case.expect,
            "passed": not problems, "problems": problems, "exit": rc,
            "seconds": round(seconds, 3), "message": detail[:300],
            "stderr": "" if not problems else err[-2000:]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dlayout", required=True, help="the dlayout binary under test")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("-k", default="", help="run only cases whose name contains this")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    a = ap.parse_args()

    names = [c.name for c in CASES]
    dups = {n for n in names if names.count(n) > 1}
    if dups:
        sys.exit(f"catalogue: duplicate case names: {sorted(dups)}")
    cases = [c for c in CASES if a.k in c.name]
    if a.list:
        for c in cases:
            print(f"{c.category:14} {c.expect:6} {c.name}")
        print(f"{len(cases)} cases")
        return 0
    binary = os.path.abspath(a.dlayout)
    workroot = tempfile.mkdtemp(prefix="dlayout-badinput.")
    try:
        make_fixtures(binary, workroot)
        start = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as pool:
            results = list(pool.map(lambda c: run_case(binary, c, workroot), cases))
        wall = time.monotonic() - start
    finally:
        shutil.rmtree(workroot, ignore_errors=True)
    failed = [r for r in results if not r["passed"]]
    for r in results:
        status = "PASS" if r["passed"] else "FAIL"
        print(f"{status} {r['category']:14} {r['name']:45} {r['seconds']:7.2f} s  {r['message']}")
        for p in r["problems"]:
            print(f"     - {p}")
        if r["problems"] and r["stderr"]:
            print("     stderr: " + r["stderr"].strip().replace("\n", "\n             "))
    print(f"\n{len(results) - len(failed)} of {len(results)} cases pass ({wall:.1f} s)")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"binary": binary, "cases": len(results),
                       "passed": len(results) - len(failed), "seconds": round(wall, 1),
                       "results": results}, f, indent=2)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
