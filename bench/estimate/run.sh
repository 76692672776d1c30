#!/usr/bin/env bash
# Benchmarks the estimator (costmodels/Estimate.h) and writes
# bench/results/estimate.json:
#   1. tred2 (n = 512, 16 processors, ipsc2): build the estimate once,
#      evaluate one layout, evaluate 10,000 layouts (every 1-D/2-D mesh of 16
#      x block/cyclic, round robin), with both placement sources;
#   2. Jacobi: 1x16 against 4x4 blocked for n = 32 .. 2048, and the n where
#      the estimate starts to prefer 4x4 (the thesis's estimator: 1024, its
#      measurements: 256, Table 6.3). Nothing is tuned to hit either.
# Models come from `dlayout extract` on samples/paradigm/*.F: $DLAYOUT, or
# build/cli/dlayout, or the `dlayout` target built here.
# Usage: bench/estimate/run.sh [EVALUATIONS]
set -euo pipefail
cd "$(dirname "$0")/../.."
evaluations=${1:-10000}
build=${DLAYOUT_BENCH_BUILD:-build-bench}
generator=()
command -v ninja >/dev/null && [ ! -f "$build/Makefile" ] && generator=(-G Ninja)
cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target bench_estimate -j "${DLAYOUT_JOBS:-$(nproc)}" >/dev/null

dlayout=${DLAYOUT:-}
if [ -z "$dlayout" ]; then
  if [ -x build/cli/dlayout ]; then
    dlayout=build/cli/dlayout
  else
    cmake --build "$build" --target dlayout -j "${DLAYOUT_JOBS:-$(nproc)}" >/dev/null
    dlayout=$build/cli/dlayout
  fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench=$build/bench/estimate/bench_estimate

"$dlayout" extract samples/paradigm/tred2.F --param N=512 -o "$work/tred2.json"
echo "== tred2, n = 512, 16 processors, ipsc2 (placement: dependences)"
"$bench" "$work/tred2.json" --evaluations "$evaluations" --out "$work/tred2-dep.json"
echo
echo "== tred2, n = 512, 16 processors, ipsc2 (placement: sequential-loops)"
"$bench" "$work/tred2.json" --evaluations "$evaluations" \
  --placement sequential-loops --out "$work/tred2-seq.json"

echo
echo "== Jacobi, 16 processors, ipsc2, blocked: 1x16 against 4x4"
for n in 32 64 128 256 512 1024 2048; do
  "$dlayout" extract samples/paradigm/jacobi.F --param NP2=$((n + 2)) \
    --param NCYCLES=100 -o "$work/jacobi-$n.json"
  "$bench" "$work/jacobi-$n.json" --evaluations 0 --out "$work/jacobi-$n.out.json" >/dev/null
done

python3 - "$work" "$evaluations" <<'PY'
import json, pathlib, sys
work = pathlib.Path(sys.argv[1])
dep = json.loads((work / "tred2-dep.json").read_text())
seq = json.loads((work / "tred2-seq.json").read_text())

def predicted(doc, name):
    return next(l["predicted_seconds"] for l in doc["layouts"] if l["layout"] == name)

rows, crossover = [], None
for n in (32, 64, 128, 256, 512, 1024, 2048):
    doc = json.loads((work / f"jacobi-{n}.out.json").read_text())
    cols, square = predicted(doc, "1x16 block,block"), predicted(doc, "4x4 block,block")
    rows.append({"n": n, "1x16_seconds": cols, "4x4_seconds": square,
                 "prefers": "4x4" if square < cols else "1x16"})
    print(f"  n = {n:5d}: 1x16 {cols:10.3f} s   4x4 {square:10.3f} s   -> {rows[-1]['prefers']}")
# The crossover: the smallest n from which 4x4 is preferred for every larger
# n (below 100-byte messages the iPSC/2's cheaper start-up can favour 4x4 at
# tiny sizes too, section 6.1.2).
for row in reversed(rows):
    if row["prefers"] != "4x4":
        break
    crossover = row["n"]
print(f"  the estimate prefers 4x4 from n = {crossover} on "
      "(thesis: its estimate 1024, its measurements 256)")

def tred2(doc):
    return {"build_ms": doc["build_ms"], "evaluate_one_us": doc["evaluate_one_us"],
            "evaluations": doc["evaluations"], "evaluate_many_ms": doc["evaluate_many_ms"],
            "evaluate_each_us": doc["evaluate_each_us"],
            "16x1_cyclic_seconds": predicted(doc, "16x1 cyclic,cyclic"),
            "1x16_cyclic_seconds": predicted(doc, "1x16 cyclic,cyclic"),
            "layouts": doc["layouts"]}

result = {
    "benchmark": "estimate",
    "machine": "ipsc2", "procs": 16,
    "tred2": {"n": 512, "statements": dep["statements"],
              "thesis_seconds": {"16x1": 515.7, "1x16": 1854.9},
              "dependences": tred2(dep), "sequential_loops": tred2(seq)},
    "jacobi": {"ncycles": 100, "rows": rows, "crossover_n": crossover,
               "thesis_estimate_crossover_n": 1024, "thesis_measured_crossover_n": 256},
}
out = pathlib.Path("bench/results/estimate.json")
out.write_text(json.dumps(result, indent=2) + "\n")
print(f"\nwrote {out}")
PY
