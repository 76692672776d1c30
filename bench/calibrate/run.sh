#!/usr/bin/env bash
# bench/calibrate/run.sh - does a calibrated machine predict runs better than
# the preset? (issue 7, docs/calibrate.md) Two parts:
#
#   bench/calibrate/run.sh              both, into bench/results/
#   PARTS=simulated bench/calibrate/run.sh   only the simulated platform
#   PARTS=mpi bench/calibrate/run.sh         only the real ranks
#   REPEAT=1 ...                        one real run per layout (quicker, noisier)
#   QUICK=1 bench/calibrate/run.sh      the CI subset: the simulated part on
#                                       QUICK_SAMPLES into $BUILD/bench-calibrate/,
#                                       exit 1 when the aim is missed on it
#
# simulated (bench/calibrate/simulated.py, calibrate-simulated.{json,md},
# about a minute): SimGrid's platform generated from
# bench/calibrate/ethernet.json (the cluster preset's nodes on Gigabit
# Ethernet), which the `cluster` preset does not describe; `dlayout calibrate
# --backend simgrid --platform ethernet.json` measures it; every sample at
# P = 16, the candidates either machine would run, simulated with
# `validate --platform`; Spearman and the median predicted / simulated with
# the preset and with the calibrated machine.
#
# mpi (bench/calibrate/compare.py, calibrate.{json,md}, about 3 minutes):
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
#
# Environment: BUILD (default build; the tree holding cli/dlayout and
# validate/dlayout-exec-{mpi,simgrid} and validate/dlayout-calibrate-{mpi,simgrid}),
# DLAYOUT, DLAYOUT_EXEC_DIR (override those), NP (real ranks, default 2),
# REPEAT (default 3), SIM_PROCS (default 16), JOBS (default 2), OUT
# (default bench/results).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
BUILD=$(cd "${BUILD:-$ROOT/build}" && pwd)
export DLAYOUT=${DLAYOUT:-$BUILD/cli/dlayout}
export DLAYOUT_EXEC_DIR=${DLAYOUT_EXEC_DIR:-$BUILD/validate}
# The CI subset: samples the preset misranks on the simulated platform
# (dflux, eflux), a reduction (matmul) and a factorisation (lu).
QUICK_SAMPLES=paradigm/jacobi.F,paradigm/dflux.F,paradigm/eflux.F,c/matmul.c,c/lu.c
if [[ "${QUICK:-0}" == 1 ]]; then
  SRC=$ROOT exec ${PYTHON:-python3} bench/calibrate/simulated.py --out "${OUT:-$BUILD/bench-calibrate}" \
    --procs "${SIM_PROCS:-16}" --jobs "${JOBS:-2}" --only "${ONLY:-$QUICK_SAMPLES}" --check
fi
NP=${NP:-2}
REPEAT=${REPEAT:-3}
OUT=${OUT:-$ROOT/bench/results}
PARTS=${PARTS:-simulated,mpi}
for part in ${PARTS//,/ }; do
  [[ $part == simulated || $part == mpi ]] || { echo "run.sh: unknown part '$part' (simulated, mpi)" >&2; exit 2; }
done
mkdir -p "$OUT"

if [[ ,$PARTS, == *,simulated,* ]]; then
  for f in "$DLAYOUT" "$DLAYOUT_EXEC_DIR/dlayout-exec-simgrid" "$DLAYOUT_EXEC_DIR/dlayout-calibrate-simgrid"; do
    [[ -x $f ]] || { echo "run.sh: $f is missing (build dlayout, dlayout-exec-simgrid and dlayout_calibrate_probes)" >&2; exit 1; }
  done
  command -v smpirun >/dev/null || { echo "run.sh: smpirun is not on PATH" >&2; exit 1; }
  SRC=$ROOT ${PYTHON:-python3} bench/calibrate/simulated.py --out "$OUT" --procs "${SIM_PROCS:-16}" \
    --jobs "${JOBS:-2}"
fi

if [[ ,$PARTS, == *,mpi,* ]]; then
  for f in "$DLAYOUT" "$DLAYOUT_EXEC_DIR/dlayout-exec-mpi" "$DLAYOUT_EXEC_DIR/dlayout-calibrate-mpi"; do
    [[ -x $f ]] || { echo "run.sh: $f is missing (build dlayout, dlayout-exec-mpi and dlayout_calibrate_probes)" >&2; exit 1; }
  done
  command -v mpirun >/dev/null || { echo "run.sh: mpirun is not on PATH" >&2; exit 1; }
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
fi
