# bench/simgrid-env.sh - sourced by the benchmarks that run `dlayout validate`
# over SimGrid (bench/validate/run.sh, bench/quality/run.sh): goes to the
# repository root and sets ROOT, BUILD (default build), and exports DLAYOUT,
# DLAYOUT_EXEC_DIR and SRC; stops with a message when the binaries or
# smpirun are missing.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
BUILD=${BUILD:-$ROOT/build}
[[ $BUILD == /* ]] || BUILD=$ROOT/$BUILD # the jobs run in directories of their own
export DLAYOUT=${DLAYOUT:-$BUILD/cli/dlayout}
export DLAYOUT_EXEC_DIR=${DLAYOUT_EXEC_DIR:-$BUILD/validate}
export SRC=$ROOT
for f in "$DLAYOUT" "$DLAYOUT_EXEC_DIR/dlayout-exec-simgrid"; do
  [[ -x $f ]] || { echo "$(basename "$0"): $f is missing (build the dlayout and dlayout_exec_simgrid targets)" >&2; exit 1; }
done
command -v smpirun >/dev/null || { echo "$(basename "$0"): smpirun (SimGrid) is not on PATH" >&2; exit 1; }
