#!/usr/bin/env bash
# bench/extract/run.sh -- how long does `dlayout extract` take, next to an
# ordinary optimising compile of the same file?
#
# Inputs:
#   samples/paradigm/tred2.F          (thesis Figure 6.1, 88 lines of kernel)
#   a generated program with NESTS loop nests (bench/extract/gen_nests.py,
#   default 2000 nests, seed 1, 50 nests per subroutine)
# For each input, best of REPS runs (wall clock) of
#   build/cli/dlayout extract FILE -o /dev/null
#   flang-new-19 -O2 -c FILE -o <scratch>.o
# and their ratio extract/compile.  Prints a table and writes
#   bench/results/extract.json   and   bench/results/extract.md
#
# Environment: DLAYOUT (default <repo>/build/cli/dlayout), FLANG (default
# flang-new-19), REPS (default 3), NESTS (default 2000), SEED (default 1),
# PER_ROUTINE (default 50; 0 = all nests in the main program, which makes
# flang -O2 take minutes), PYTHON (default python3), RESULTS (default
# <repo>/bench/results).
# Exit status: 0 on success; 2 if the dlayout binary or a tool is missing;
# 1 if a timed command fails.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
DLAYOUT="${DLAYOUT:-$ROOT/build/cli/dlayout}"
FLANG="${FLANG:-flang-new-19}"
PYTHON="${PYTHON:-python3}"
REPS="${REPS:-3}"
NESTS="${NESTS:-2000}"
SEED="${SEED:-1}"
PER_ROUTINE="${PER_ROUTINE:-50}"
RESULTS="${RESULTS:-$ROOT/bench/results}"

if [ ! -x "$DLAYOUT" ]; then
    echo "run.sh: error: dlayout binary not found at $DLAYOUT" >&2
    echo "run.sh: build it first (e.g. scripts/build.sh, or cmake --build build)," >&2
    echo "run.sh: or point DLAYOUT=/path/to/dlayout at an existing build." >&2
    exit 2
fi
for tool in "$FLANG" "$PYTHON"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "run.sh: error: $tool not found" >&2
        exit 2
    fi
done
case "$REPS" in ''|*[!0-9]*|0) echo "run.sh: error: REPS must be a positive integer" >&2; exit 2 ;; esac

WORK="$(mktemp -d "${TMPDIR:-/tmp}/dlayout-bench-extract.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

GEN="$WORK/nests_${NESTS}.F"
"$PYTHON" "$HERE/gen_nests.py" --nests "$NESTS" --seed "$SEED" \
    --per-routine "$PER_ROUTINE" -o "$GEN"

# best_of LABEL CMD... : run CMD REPS times, print the best wall time (s).
best_of() {
    local label="$1"; shift
    local best="" i t0 t1 dt
    for ((i = 1; i <= REPS; i++)); do
        t0=$EPOCHREALTIME
        if ! "$@" >"$WORK/out.txt" 2>"$WORK/err.txt"; then
            echo "run.sh: error: $label failed: $*" >&2
            sed 's/^/  | /' "$WORK/err.txt" | tail -20 >&2
            exit 1
        fi
        t1=$EPOCHREALTIME
        dt=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
        if [ -z "$best" ] || awk -v x="$dt" -v y="$best" 'BEGIN { exit !(x < y) }'; then
            best=$dt
        fi
    done
    echo "$best"
}

declare -a NAMES FILES
NAMES=("tred2.F" "nests_${NESTS}.F")
FILES=("$ROOT/samples/paradigm/tred2.F" "$GEN")

ROWS="$WORK/rows.tsv"
: >"$ROWS"
for idx in "${!FILES[@]}"; do
    f="${FILES[$idx]}"
    name="${NAMES[$idx]}"
    lines=$(wc -l <"$f")
    nloops=$(grep -cE '^[0-9 ]{5} +DO +[0-9]* *[A-Z][A-Z0-9_]* *=' "$f" || true)
    echo "run.sh: timing $name ($lines lines, $nloops DO loops), best of $REPS ..." >&2
    te=$(best_of "dlayout extract $name" "$DLAYOUT" extract "$f" -o /dev/null)
    tc=$(best_of "$FLANG -O2 -c $name" "$FLANG" -O2 -c "$f" -o "$WORK/x.o")
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$lines" "$nloops" "$te" "$tc" >>"$ROWS"
done

mkdir -p "$RESULTS"
FLANG_VERSION="$("$FLANG" --version 2>/dev/null | head -1 || true)"
DLAYOUT_VERSION="$("$DLAYOUT" --version 2>/dev/null | head -1 || true)"
"$PYTHON" - "$ROWS" "$RESULTS" "$REPS" "$NESTS" "$SEED" "$PER_ROUTINE" \
    "$DLAYOUT" "$FLANG" "$FLANG_VERSION" "$DLAYOUT_VERSION" <<'PY'
import datetime, json, os, platform, sys
rows_path, results, reps, nests, seed, per_routine, dlayout, flang, flang_ver, dl_ver = sys.argv[1:]
rows = []
for line in open(rows_path):
    name, lines, loops, te, tc = line.rstrip("\n").split("\t")
    te, tc = float(te), float(tc)
    rows.append({
        "input": name,
        "lines": int(lines),
        "do_loops": int(loops),
        "extract_s": te,
        "compile_s": tc,
        "ratio_extract_over_compile": (te / tc) if tc > 0 else None,
    })
doc = {
    "schema": "dlayout-bench-extract/1",
    "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    "host": {"machine": platform.machine(), "cpus": os.cpu_count(),
             "system": platform.system(), "release": platform.release()},
    "method": {
        "timing": f"best of {reps} wall-clock runs",
        "extract_command": f"{dlayout} extract FILE -o /dev/null",
        "compile_command": f"{flang} -O2 -c FILE",
        "flang_version": flang_ver,
        "dlayout_version": dl_ver,
        "generated_input": {"generator": "bench/extract/gen_nests.py", "nests": int(nests),
                            "seed": int(seed), "per_routine": int(per_routine)},
    },
    "results": rows,
}
with open(os.path.join(results, "extract.json"), "w") as f:
    json.dump(doc, f, indent=2)
    f.write("\n")
hdr = "| input | lines | DO loops | dlayout extract (s) | flang -O2 -c (s) | extract / compile |"
sep = "|---|---:|---:|---:|---:|---:|"
md = ["# dlayout extract vs. flang-new-19 -O2 -c", "",
      f"Best of {reps} wall-clock runs; {doc['date']}; "
      f"{doc['host']['machine']}, {doc['host']['cpus']} CPUs.  "
      f"Generated input: gen_nests.py --nests {nests} --seed {seed} --per-routine {per_routine}.", "",
      hdr, sep]
for r in rows:
    ratio = "n/a" if r["ratio_extract_over_compile"] is None else f"{r['ratio_extract_over_compile']:.2f}"
    md.append(f"| {r['input']} | {r['lines']} | {r['do_loops']} | {r['extract_s']:.3f} | "
              f"{r['compile_s']:.3f} | {ratio} |")
md += ["", f"flang: {flang_ver or 'unknown'}", f"dlayout: {dl_ver or 'unknown'}", ""]
with open(os.path.join(results, "extract.md"), "w") as f:
    f.write("\n".join(md))
print("\n".join(md[4:4 + 2 + len(rows)]))
PY
echo "run.sh: wrote $RESULTS/extract.json and $RESULTS/extract.md" >&2
