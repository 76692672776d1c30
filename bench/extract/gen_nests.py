#!/usr/bin/env python3
"""Generate a large fixed-form Fortran program for the `dlayout extract` benchmark.

The program has K loop nests (default 2000), each 1 to 3 deep, over a handful
of arrays, with varied affine subscripts: single-index (I, I+1, 2*J-1,
N+1-K, ...), multiple-index (I+J, J-I+N, ...) and constant (1, N/2, N, ...)
ones; roughly one nest in six is triangular (J = I, N or J = 1, I) and
one in seven is a sum reduction into a scalar or an array element.  Every
subscript stays inside the declared bounds (-4:2*N+4), so the program is
valid and runs.  The output is deterministic for a given --seed.

The size N is a preprocessor macro (#ifndef N / #define N ...), like the
bundled samples, so the file must be compiled with the preprocessor (.F).

By default the nests are grouped 50 to a SUBROUTINE (arrays in COMMON) that
the main program calls in order: LLVM's -O2 pipeline (IndVarSimplify) is
quadratic in the number of loops in one routine, so flang-new-19 -O2 takes
minutes on 2000 nests in a single main program.  --per-routine 0 gives that
single-routine form.

Usage: gen_nests.py [--nests K] [--seed S] [--n N] [--per-routine M] [--arrays A] [-o FILE]
"""
import argparse
import random
import re
import sys

ARRAYS_2D = ["A", "B", "C", "Q"]
ARRAYS_1D = ["X", "Y", "Z"]
ARRAY_3D = "W"          # W(lo:hi, lo:hi, 4): third subscript constant 1..4
SCALARS = ["S1", "S2", "S3", "S4"]
INDEX = ["I", "J", "K"]
COLS = 72


def array_names(count):
    """The arrays of a program with `count` of them (None: the default set
    above).  About four in seven are 2-D, one is the 3-D W, the rest 1-D."""
    if count is None:
        return ARRAYS_2D, ARRAYS_1D
    n2 = max(1, round((count - 1) * 4 / 7))
    n1 = max(1, count - 1 - n2)
    return [f"A{i:03d}" for i in range(1, n2 + 1)], [f"X{i:03d}" for i in range(1, n1 + 1)]


class Gen:
    def __init__(self, rng, n, arrays=None):
        self.rng = rng
        self.n = n
        self.arrays_2d, self.arrays_1d = array_names(arrays)

    # -- subscripts ---------------------------------------------------------
    # Loop indices always range within 1..N.  Every subscript form below is
    # then within [-1, 2N+2], inside the declared (-4:2*N+4).
    def single(self, v):
        r = self.rng.random()
        c = self.rng.randint(-2, 2)
        if r < 0.55:
            return v if c == 0 else f"{v}{c:+d}"
        if r < 0.75:
            return f"2*{v}" if c == 0 else f"2*{v}{c:+d}"
        return f"N+1-{v}" if c == 0 else f"N{1 + c:+d}-{v}".replace("N+0-", "N-")

    def multiple(self, vs):
        a, b = self.rng.sample(vs, 2)
        c = self.rng.randint(-2, 2)
        if self.rng.random() < 0.7:
            return f"{a}+{b}" if c == 0 else f"{a}+{b}{c:+d}"
        return f"{a}-{b}+N" if c == 0 else f"{a}-{b}+N{c:+d}"

    def constant(self):
        return self.rng.choice(["1", "2", "3", "N/2", "N"])

    def subscript(self, vs, cls=None):
        if cls is None:
            r = self.rng.random()
            cls = "single" if r < 0.72 or len(vs) < 2 else ("multiple" if r < 0.88 else "constant")
            if cls == "single" and not vs:
                cls = "constant"
        if cls == "single":
            return self.single(self.rng.choice(vs))
        if cls == "multiple":
            return self.multiple(vs)
        return self.constant()

    def ref(self, vs, lhs_vars=None):
        """An array reference; lhs_vars forces single-index subscripts that use
        the given variables (for left-hand sides)."""
        r = self.rng.random()
        if lhs_vars is not None:
            if len(lhs_vars) == 1 or r < 0.3:
                name = self.rng.choice(self.arrays_1d)
                return f"{name}({self.single(lhs_vars[-1])})"
            name = self.rng.choice(self.arrays_2d + [ARRAY_3D])
            a, b = lhs_vars[-1], lhs_vars[-2]
            if self.rng.random() < 0.5:
                a, b = b, a
            subs = [self.single(a), self.single(b)]
            if name == ARRAY_3D:
                subs.append(str(self.rng.randint(1, 4)))
            return f"{name}({','.join(subs)})"
        if r < 0.3:
            name = self.rng.choice(self.arrays_1d)
            return f"{name}({self.subscript(vs)})"
        name = self.rng.choice(self.arrays_2d + [ARRAY_3D])
        subs = [self.subscript(vs), self.subscript(vs)]
        if name == ARRAY_3D:
            subs.append(str(self.rng.randint(1, 4)))
        return f"{name}({','.join(subs)})"

    def expr(self, vs, nrefs):
        terms = [self.ref(vs) for _ in range(nrefs)]
        out = terms[0]
        for t in terms[1:]:
            op = self.rng.choice(["+", "-", "*", "+", "*"])
            out = f"{out} {op} {t}"
        if self.rng.random() < 0.4:
            out = f"{self.rng.choice(['0.5D0', '0.25D0', '2.0D0', '1.5D0'])}*({out})"
        if self.rng.random() < 0.2:
            out = f"{out} + 1.0D0"
        return out

    # -- nests --------------------------------------------------------------
    def bounds(self, depth):
        """Loop headers (var, lo, hi) for a nest of the given depth."""
        vs = INDEX[:depth]
        hdr = []
        tri = depth >= 2 and self.rng.random() < 0.2
        for d, v in enumerate(vs):
            lo, hi = "1", "N"
            if self.rng.random() < 0.25:
                lo, hi = "2", "N-1"
            if tri and d == 1:
                outer = vs[0]
                lo, hi = (outer, "N") if self.rng.random() < 0.5 else ("1", outer)
            hdr.append((v, lo, hi))
        return vs, hdr

    def nest(self, k):
        depth = self.rng.choice([1, 2, 2, 2, 3, 3])
        vs, hdr = self.bounds(depth)
        kind = self.rng.random()
        body = []
        if kind < 0.08:
            # scalar sum reduction over the whole nest
            s = self.rng.choice(SCALARS)
            body.append(f"{s} = {s} + {self.ref(vs)}*{self.ref(vs)}")
        elif kind < 0.16 and depth >= 2:
            # array-element reduction: LHS invariant in the innermost loop
            outer = vs[:-1]
            lhs = self.ref(outer, lhs_vars=outer)
            body.append(f"{lhs} = {lhs} + {self.ref(vs)}*{self.ref(vs)}")
        else:
            for _ in range(self.rng.choice([1, 1, 1, 2, 2, 3])):
                lhs = self.ref(vs, lhs_vars=vs)
                body.append(f"{lhs} = {self.expr(vs, self.rng.randint(1, 3))}")
        lines = [f"! nest {k}"]
        ind = 6
        for v, lo, hi in hdr:
            lines.append(" " * ind + f"DO {v} = {lo}, {hi}")
            ind += 2
        for st in body:
            lines += wrap(" " * ind + st)
        for _ in hdr:
            ind -= 2
            lines.append(" " * ind + "ENDDO")
        return lines


# The macro N is expanded before the fixed-form line limit applies, so a
# line is measured as if every N were NWIDE characters wide (N up to
# 10**NWIDE - 1 keeps every line within column 72).
NWIDE = 7


def width(text):
    return len(text) + (NWIDE - 1) * len(re.findall(r"\bN\b", text))


def wrap(line):
    """Split a statement over fixed-form continuation lines (column 6 '&')."""
    out = []
    while width(line) > COLS:
        cut = 0
        for i, ch in enumerate(line):
            if i > 10 and ch in " ,+-*" and width(line[:i]) <= COLS:
                cut = i
        if cut == 0:
            raise ValueError("cannot wrap: " + line)
        out.append(line[:cut])
        line = "     &    " + line[cut:].lstrip()
    out.append(line)
    return out


def declarations(arrays_2d, arrays_1d, common=True):
    """Declarations shared by the main program and every routine: the arrays
    and the reduction scalars live in COMMON /ARRS/ (common: there are
    routines; a program of one main routine declares them as its own)."""
    out = [
        "      INTEGER LO, HI",
        "      PARAMETER (LO = -4, HI = 2*N + 4)",
    ]
    out += [f"      DOUBLE PRECISION {a}(LO:HI,LO:HI)" for a in arrays_2d]
    out += wrap("      DOUBLE PRECISION " + ", ".join(f"{a}(LO:HI)" for a in arrays_1d))
    out += [
        f"      DOUBLE PRECISION {ARRAY_3D}(LO:HI,LO:HI,4)",
        "      DOUBLE PRECISION " + ", ".join(SCALARS),
    ]
    if common:
        out += wrap("      COMMON /ARRS/ " + ", ".join(arrays_2d + arrays_1d + [ARRAY_3D] + SCALARS))
    out += ["      INTEGER " + ", ".join(INDEX) + ", L"]
    return out


def generate(nests, seed, n, per_routine, arrays=None):
    rng = random.Random(seed)
    g = Gen(rng, n, arrays)
    layout = (f"all {nests} nests in the main program" if per_routine == 0 else
              f"{per_routine} nests per SUBROUTINE NSTnnnn,\n! called in order")
    out = [
        f"! Generated by bench/extract/gen_nests.py --nests {nests} --seed {seed}"
        f" --n {n}",
        f"! --per-routine {per_routine}" + (f" --arrays {arrays}" if arrays else "")
        + " (deterministic; do not edit).",
        f"! Benchmark input for dlayout extract: {nests} loop nests, 1-3 deep,",
        "! affine subscripts (single-index, multiple-index, constant), some",
        "! triangular, some sum reductions (scalar and array element).",
        f"! Layout: {layout}" + ("." if per_routine == 0 else "; arrays in COMMON /ARRS/."),
        "! Parameter: N (macro, -DN=VALUE), default below; arrays are",
        "! declared (-4:2*N+4) so that every subscript is in bounds.",
        "#ifndef N",
        f"#define N {n}",
        "#endif",
        "      PROGRAM NESTS",
    ]
    out += declarations(g.arrays_2d, g.arrays_1d, common=per_routine != 0)
    out += ["! initialisation"]
    out += [f"      {s} = 0.0D0" for s in SCALARS]
    out += [
        "      DO J = LO, HI",
        "         DO I = LO, HI",
    ]
    out += [f"            {a}(I,J) = 1.0D0 / DBLE(I + J + 2*HI)" for a in g.arrays_2d]
    out += [
        "            DO L = 1, 4",
        f"               {ARRAY_3D}(I,J,L) = 1.0D0 / DBLE(I + L + 2*HI)",
        "            ENDDO",
        "         ENDDO",
    ]
    out += [f"         {a}(J) = 1.0D0 / DBLE(J + 2*HI)" for a in g.arrays_1d]
    out += ["      ENDDO"]
    if per_routine == 0:
        for k in range(1, nests + 1):
            out += g.nest(k)
        out.append("      END")
    else:
        nroutines = (nests + per_routine - 1) // per_routine
        names = [f"NST{r:04d}" for r in range(1, nroutines + 1)]
        out += [f"      CALL {nm}" for nm in names]
        out.append("      END")
        k = 0
        for nm in names:
            out += [f"      SUBROUTINE {nm}"]
            out += declarations(g.arrays_2d, g.arrays_1d)
            for _ in range(per_routine):
                if k == nests:
                    break
                k += 1
                out += g.nest(k)
            out.append("      END")
    text = "\n".join(out) + "\n"
    for ln in text.splitlines():
        assert width(ln) <= COLS or ln.startswith("#"), ln
    return text


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nests", type=int, default=2000, help="number of loop nests (default 2000)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--n", type=int, default=50, help="default value of the macro N (default 50)")
    ap.add_argument("--per-routine", type=int, default=50,
                    help="nests per subroutine; 0 puts all of them in the main program "
                         "(default 50: LLVM -O2 is quadratic in the loops of one routine, "
                         "about 6 minutes for 2000 nests in one)")
    ap.add_argument("--arrays", type=int, default=None,
                    help="number of arrays (at least 3; default: the 8 arrays A B C Q X Y Z W)")
    ap.add_argument("-o", "--output", default="-", help="output file (default stdout)")
    a = ap.parse_args(argv)
    if a.nests < 1 or a.n < 4 or a.per_routine < 0 or (a.arrays is not None and a.arrays < 3):
        ap.error("--nests must be >= 1, --n >= 4, --per-routine >= 0 and --arrays >= 3")
    text = generate(a.nests, a.seed, a.n, a.per_routine, a.arrays)
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
