#!/usr/bin/env bash
# bench/calibrate/run.sh - does a calibrated machine predict real runs better
# than the preset? (issue 7, docs/calibrate.md)
#
#   bench/calibrate/run.sh              into bench/results/calibrate.{json,md}
#   REPEAT=1 bench/calibrate/run.sh     one run per layout (quicker, noisier)
#
# 1. `dlayout calibrate --backend mpi -np NP` on this host (real ranks,
#    mpirun) -> the calibrated machine (kept in the results);
# 2. for two samples with small parameters (samples/paradigm/jacobi.F,
#    NP2 = 66, 10 cycles; samples/c/matmul.c, N = 48), a fixed set of layouts
#    on NP processors (BLOCK, CYCLIC, CYCLIC(4) on either dimension; for
#    matmul also B replicated) is run with `dlayout validate --backend mpi`
#    once with --machine cluster (the preset) and once with the calibrated
#    file, REPEAT times each, alternating, keeping each layout's fastest run;
# 3. per machine: Spearman's rank correlation of predicted and measured time
#    over the layouts, the median predicted / measured ratio, and the same
#    two for the communication part alone (the estimator's communication
#    term against the executor's time in communication).
# About 3 minutes on 2 cores with NP = 2, REPEAT = 3.
#
# Environment: BUILD (default build; the tree holding cli/dlayout and
# validate/dlayout-exec-mpi and validate/dlayout-calibrate-mpi), DLAYOUT,
# DLAYOUT_EXEC_DIR (override those), NP (default 2), REPEAT (default 3),
# OUT (default bench/results).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
BUILD=$(cd "${BUILD:-$ROOT/build}" && pwd)
export DLAYOUT=${DLAYOUT:-$BUILD/cli/dlayout}
export DLAYOUT_EXEC_DIR=${DLAYOUT_EXEC_DIR:-$BUILD/validate}
NP=${NP:-2}
REPEAT=${REPEAT:-3}
OUT=${OUT:-$ROOT/bench/results}
for f in "$DLAYOUT" "$DLAYOUT_EXEC_DIR/dlayout-exec-mpi" "$DLAYOUT_EXEC_DIR/dlayout-calibrate-mpi"; do
  [[ -x $f ]] || { echo "run.sh: $f is missing (build dlayout, dlayout-exec-mpi and dlayout_calibrate_probes)" >&2; exit 1; }
done
command -v mpirun >/dev/null || { echo "run.sh: mpirun is not on PATH" >&2; exit 1; }
mkdir -p "$OUT"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/dlayout-bench-calibrate-XXXXXX")
trap 'rm -rf "$WORK"' EXIT

start=$(date +%s.%N)
"$DLAYOUT" calibrate --backend mpi -np "$NP" --format text -o "$WORK/calibrated.json" \
  > "$WORK/calibrate.txt"
end=$(date +%s.%N)
sed -n '1,8p' "$WORK/calibrate.txt"

${PYTHON:-python3} bench/calibrate/compare.py --machine "$WORK/calibrated.json" \
  --calibrate-report "$WORK/calibrate.txt" \
  --calibrate-seconds "$(awk "BEGIN { print $end - $start }")" \
  --procs "$NP" --repeat "$REPEAT" --work "$WORK" --out "$OUT"
