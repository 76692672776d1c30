#!/usr/bin/env bash
# Installs what is missing, builds dlayout, and runs the whole test suite;
# then builds again with AddressSanitizer + UBSan and runs the unit tests
# (set DLAYOUT_SKIP_SANITIZE=1 to skip that second configuration locally).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

scripts/build.sh
echo "== test suite (build/)"
ctest --test-dir build --output-on-failure -j "$(nproc)"

if [ "${DLAYOUT_SKIP_SANITIZE:-0}" != 1 ]; then
  scripts/build.sh --sanitize
  echo "== test suite under AddressSanitizer + UBSan (build-asan/)"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -L unit
fi
