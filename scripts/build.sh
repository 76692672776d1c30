#!/usr/bin/env bash
# Configures and builds dlayout into build/ (or $DLAYOUT_BUILD_DIR).
# Usage: scripts/build.sh [--sanitize] [cmake --build arguments...]
# --sanitize builds into build-asan/ with AddressSanitizer and UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."

build=${DLAYOUT_BUILD_DIR:-build}
extra=()
if [ "${1:-}" = "--sanitize" ]; then
  shift
  build=${DLAYOUT_BUILD_DIR:-build-asan}
  extra+=(-DDLAYOUT_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug)
fi
generator=()
command -v ninja >/dev/null && [ ! -f "$build/Makefile" ] && generator=(-G Ninja)

cmake -S . -B "$build" "${generator[@]}" "${extra[@]}" >/dev/null
jobs=${DLAYOUT_JOBS:-$(nproc)}
cmake --build "$build" -j "$jobs" "$@"
