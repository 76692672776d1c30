#!/usr/bin/env bash
# bench/run.sh - every benchmark, one after the other, into bench/results/,
# then bench/summary.py (bench/results/SUMMARY.md and the README's summary).
# About two hours on a 2-core host; bench/README.md says what each part
# measures and how long it takes.
#
#   bench/run.sh                    everything
#   bench/run.sh quality validate   only the named parts, in that order:
#                                   extract estimate advice scaling validate quality
#                                   calibrate kali reliability
#
# Builds what is missing first (scripts/build.sh: build/, RelWithDebInfo).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
parts=("$@")
[[ ${#parts[@]} -gt 0 ]] || parts=(extract estimate advice scaling validate quality calibrate kali reliability)
[[ -x build/cli/dlayout && -x build/validate/dlayout-exec-simgrid ]] || scripts/build.sh
PY=${PYTHON:-python3}
for part in "${parts[@]}"; do
  echo "== bench: $part"
  case $part in
    extract)     bench/extract/run.sh ;;
    estimate)    bench/estimate/run.sh ;;
    advice)      $PY bench/advice/thesis_choices.py && $PY bench/advice/speed.py ;;
    scaling)     $PY bench/scaling/scaling.py ;;
    validate)    bench/validate/run.sh ;;
    quality)     bench/quality/run.sh ;;
    calibrate)   bench/calibrate/run.sh ;;
    kali)        LARGE=1 bench/kali/run.sh ;;
    reliability) bench/reliability/run.sh ;;
    *) echo "bench/run.sh: unknown part '$part' (extract estimate advice scaling validate quality calibrate kali reliability)" >&2; exit 2 ;;
  esac
done
$PY bench/summary.py
