#!/usr/bin/env bash
# Installs what is missing, builds dlayout with AddressSanitizer + UBSan
# (build-asan/, a Debug build: assertions on), and runs the whole test suite
# there and the quality and calibration benchmarks' CI subsets with those
# binaries; finally fuzzes each libFuzzer target for a bounded time.
#
# The suite runs once, sanitised: every test, MPI and SimGrid ones included,
# under the sanitizers, without a second build and run of the same tests
# unsanitised (the release build is the quick start's, scripts/build.sh).
# DLAYOUT_SKIP_SANITIZE=1 builds and tests the release configuration in
# build/ instead (quicker to rebuild locally). DLAYOUT_SKIP_FUZZ=1 skips the
# fuzzing, DLAYOUT_FUZZ_SECONDS sets the time per target, DLAYOUT_FUZZ_SEED
# the seed: 1 unless given, so that CI is reproducible; longer campaigns
# with fresh seeds are tests/fuzz/run.sh's default.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs=$(nproc)

if [ "${DLAYOUT_SKIP_SANITIZE:-0}" = 1 ]; then
  build=build
  scripts/build.sh
  echo "== test suite ($build/)"
  ctest --test-dir "$build" --output-on-failure -j "$jobs"
  sanitised=()
else
  build=build-asan
  scripts/build.sh --sanitize
  # Everything but the MPI tests, SimGrid ones included (dlayout runs
  # sanitised, the smpicxx-built executor does not: SimGrid's context
  # switching and ASan do not mix). LSAN_OPTIONS: the leak flang's frontend
  # makes in process is suppressed by the binary itself
  # (analyzer/FlangInProcess.cpp), and not listed at exit.
  sanitised=(env "LSAN_OPTIONS=print_suppressions=0"
             "ASAN_OPTIONS=detect_leaks=1:abort_on_error=1"
             "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
  echo "== tests under AddressSanitizer + UBSan but MPI ones ($build/)"
  "${sanitised[@]}" ctest --test-dir "$build" --output-on-failure -j "$jobs" -LE mpi
  # Then the MPI tests (the runtime under mpirun, validate --backend mpi,
  # calibrate --backend mpi) with OpenMPI's own leaks suppressed, which needs
  # full unwinding to see its frames (tests/lsan-mpi.supp says what and why;
  # docs/security.md).
  echo "== MPI tests under AddressSanitizer + UBSan ($build/, OpenMPI's leaks suppressed)"
  LSAN_OPTIONS=suppressions=$PWD/tests/lsan-mpi.supp:print_suppressions=0 \
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:fast_unwind_on_malloc=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$build" --output-on-failure -j "$jobs" -L mpi
fi

# The quality benchmark's CI subset (issue 7, bench/README.md): fails when an
# aim of the advice or of the estimates is missed on it.
echo "== quality benchmark, CI subset (QUICK=1 bench/quality/run.sh, $build/)"
"${sanitised[@]}" env QUICK=1 BUILD="$build" JOBS="$jobs" bench/quality/run.sh
# And the calibration benchmark's (the simulated platform): fails when the
# calibrated machine does not rank and predict better than the preset there.
echo "== calibration benchmark, CI subset (QUICK=1 bench/calibrate/run.sh, $build/)"
"${sanitised[@]}" env QUICK=1 BUILD="$build" JOBS="$jobs" bench/calibrate/run.sh

# A bounded fuzzing run (issue 8): the JSON readers and the analyzer on IR,
# built with clang-19 -fsanitize=fuzzer,address,undefined into build-fuzz/.
# A crash fails CI; the input is kept in build-fuzz/crashes/ (tests/fuzz/run.sh).
if [ "${DLAYOUT_SKIP_FUZZ:-0}" != 1 ]; then
  echo "== fuzzing, ${DLAYOUT_FUZZ_SECONDS:-15} s a target (build-fuzz/)"
  DLAYOUT_FUZZ_SEED=${DLAYOUT_FUZZ_SEED:-1} tests/fuzz/run.sh "${DLAYOUT_FUZZ_SECONDS:-15}"
fi
