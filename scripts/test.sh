#!/usr/bin/env bash
# Installs what is missing, builds dlayout, and runs the whole test suite and
# the quality benchmark's CI subset;
# then builds again with AddressSanitizer + UBSan and runs the whole suite
# there too (set DLAYOUT_SKIP_SANITIZE=1 to skip that second configuration
# locally);
# finally fuzzes each libFuzzer target for a bounded time (DLAYOUT_SKIP_FUZZ=1
# skips it, DLAYOUT_FUZZ_SECONDS sets the time per target, DLAYOUT_FUZZ_SEED
# the seed: 1 unless given, so that CI is reproducible; longer campaigns with
# fresh seeds are tests/fuzz/run.sh's default).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

scripts/build.sh
echo "== test suite (build/)"
ctest --test-dir build --output-on-failure -j "$(nproc)"
# The quality benchmark's CI subset (issue 7, bench/README.md): fails when an
# aim of the advice or of the estimates is missed on it.
echo "== quality benchmark, CI subset (QUICK=1 bench/quality/run.sh)"
QUICK=1 JOBS="$(nproc)" bench/quality/run.sh

if [ "${DLAYOUT_SKIP_SANITIZE:-0}" != 1 ]; then
  scripts/build.sh --sanitize
  echo "== test suite under AddressSanitizer + UBSan (build-asan/)"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -L unit
  # Then the rest: the MPI tests (the runtime under mpirun, validate
  # --backend mpi) with OpenMPI's own leaks suppressed, which needs full
  # unwinding to see its frames (tests/lsan-mpi.supp says what and why;
  # docs/security.md), and the SimGrid tests, where dlayout runs sanitised and
  # the smpicxx-built executor does not (SimGrid's context switching and
  # ASan do not mix).
  echo "== MPI and SimGrid tests under AddressSanitizer + UBSan (build-asan/, OpenMPI's leaks suppressed)"
  LSAN_OPTIONS=suppressions=$PWD/tests/lsan-mpi.supp:print_suppressions=0 \
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:fast_unwind_on_malloc=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -LE unit
fi

# A bounded fuzzing run (issue 8): the JSON readers and the analyzer on IR,
# built with clang-19 -fsanitize=fuzzer,address,undefined into build-fuzz/.
# A crash fails CI; the input is kept in build-fuzz/crashes/ (tests/fuzz/run.sh).
if [ "${DLAYOUT_SKIP_FUZZ:-0}" != 1 ]; then
  echo "== fuzzing, ${DLAYOUT_FUZZ_SECONDS:-15} s a target (build-fuzz/)"
  DLAYOUT_FUZZ_SEED=${DLAYOUT_FUZZ_SEED:-1} tests/fuzz/run.sh "${DLAYOUT_FUZZ_SECONDS:-15}"
fi
