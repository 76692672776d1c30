#!/usr/bin/env bash
# bench/validate/run.sh - the validation figures of issue 6 (and issue 7's
# fidelity and `dlayout validate` speed): `dlayout validate` over SimGrid on
# simulated iPSC/2 hypercubes, predicted beside measured. See
# docs/validate-jacobi.md.
#
#   bench/validate/run.sh                  all three parts, into bench/results/
#   PARTS="jacobi" bench/validate/run.sh   only some of: jacobi speed fidelity
#   QUICK=1 bench/validate/run.sh          smoke test: jacobi n = 64, 128 with few
#                                          cycles, fidelity on jacobi and dflux only;
#                                          writes $BUILD/bench-validate/quick/
#
# Parts:
#   jacobi    samples/paradigm/jacobi.F on 16 simulated iPSC/2 nodes, n = 64..1024
#             (NP2 = n + 2), column-blocked 1x16, 2-D blocked 4x4, column-cyclic
#             1x16, 2-D cyclic 4x4, beside the thesis's Table 6.3
#             -> validate-jacobi.{json,md}  (~12 min on 2 loaded cores)
#             Big n run fewer cycles (CYCLES, default 64=100,128=50,256=20,512=5,
#             1024=2) and are scaled to 100: initialisation + cycle loop x 100/c.
#   speed     wall time of a 16-node (aim < 60 s) and a 64-node simulation of
#             jacobi n = 512, 100 cycles -> validate-speed.{json,md}
#   fidelity  Spearman over `--layouts all` for every sample (P = 16, or 4),
#             predicted vs measured bytes for jacobi and dflux
#             -> validate-fidelity.{json,md}  (~15 min)
#
# Environment: BUILD (default build; the tree holding cli/dlayout and
# validate/dlayout-exec-simgrid), DLAYOUT, DLAYOUT_EXEC_DIR (override those),
# JOBS (parallel validate runs, default 2), OUT (default bench/results).
set -euo pipefail
source "$(dirname "$0")/../simgrid-env.sh"
JOBS=${JOBS:-2}
PARTS=${PARTS:-jacobi speed fidelity}

if [[ "${QUICK:-0}" == 1 ]]; then
  OUT=${OUT:-$BUILD/bench-validate/quick}
  NS=${NS:-64,128}
  CYCLES=${CYCLES:-64=10,128=5}
  ONLY=${ONLY:-paradigm/jacobi.F,paradigm/dflux.F}
else
  OUT=${OUT:-$ROOT/bench/results}
  NS=${NS:-64,128,256,512,1024}
  CYCLES=${CYCLES:-64=100,128=50,256=20,512=5,1024=2}
  ONLY=${ONLY:-}
fi
mkdir -p "$OUT"
PY=${PYTHON:-python3}
for part in $PARTS; do
  case $part in
    jacobi)   $PY bench/validate/figures.py jacobi --out "$OUT" --jobs "$JOBS" --ns "$NS" --cycles "$CYCLES" ;;
    # Alone (JOBS ignored): it is a wall-clock figure.
    speed)    $PY bench/validate/figures.py speed --out "$OUT" --repeat "${REPEAT:-1}" ;;
    fidelity) $PY bench/validate/figures.py fidelity --out "$OUT" --jobs "$JOBS" --timeout 600 ${ONLY:+--only "$ONLY"} ;;
    *) echo "run.sh: unknown part $part (jacobi, speed, fidelity)" >&2; exit 1 ;;
  esac
done
