#!/usr/bin/env bash
# Builds the libFuzzer targets (clang-19, -fsanitize=fuzzer,address,undefined)
# into build-fuzz/ and runs each for a bounded time.
#
#   tests/fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]     (default 30; all four)
#
# Targets: model, layout, machine (the JSON readers + verify) and ir (LLVM IR
# text or bitcode -> verifier -> the extract pass). Each starts from its seed
# corpus (tests/fuzz/corpus/TARGET) and the regression inputs
# (tests/fuzz/regressions/TARGET), and grows a working corpus in
# build-fuzz/corpus/TARGET that later runs reuse. A crash, leak, sanitizer
# report or violated property is saved as build-fuzz/crashes/TARGET-*: fix
# it, then copy the input into tests/fuzz/regressions/TARGET/ (ctest replays
# that directory in every build). Statistics go to build-fuzz/fuzz-stats.json.
# Exit status 1 when any target found something.
# Environment: DLAYOUT_FUZZ_BUILD (default build-fuzz), DLAYOUT_JOBS (build
# jobs, default nproc), DLAYOUT_FUZZ_SEED (libFuzzer's -seed; default 0, a
# new random seed each run; CI fixes it so that a run explores the same
# inputs on every machine and a red CI means a change, not luck).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-30}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(model layout machine ir)
build=${DLAYOUT_FUZZ_BUILD:-build-fuzz}
jobs=${DLAYOUT_JOBS:-$(nproc)}

start=$(date +%s)
generator=()
command -v ninja >/dev/null && [ ! -f "$build/Makefile" ] && generator=(-G Ninja)
CC=clang-19 CXX=clang++-19 cmake -S tests/fuzz -B "$build" "${generator[@]}" >/dev/null
cmake --build "$build" -j "$jobs" --target "${targets[@]/#/fuzz_}"
build_seconds=$(( $(date +%s) - start ))
echo "== fuzz: built ${targets[*]} in ${build_seconds} s"

mkdir -p "$build/crashes"
stats="$build/fuzz-stats.json"
echo "{\"seconds_per_target\": $seconds, \"build_seconds\": $build_seconds, \"targets\": [" > "$stats"
failed=0
first=1
for t in "${targets[@]}"; do
  work="$build/corpus/$t"
  mkdir -p "$work"
  seeds=(tests/fuzz/corpus/$t)
  [ -d tests/fuzz/regressions/$t ] && seeds+=(tests/fuzz/regressions/$t)
  extra=()
  [ "$t" != ir ] && extra+=(-dict=tests/fuzz/json.dict)
  log="$build/fuzz-$t.log"
  before=$(ls "$build/crashes" | grep -c "^$t-" || true)
  set +e
  # -rss_limit_mb: LLVM's own allocations on a large module stay well below.
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$build/fuzz_$t" "${extra[@]}" -max_total_time="$seconds" -seed="${DLAYOUT_FUZZ_SEED:-0}" -timeout=25 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$build/crashes/$t-" \
      "$work" "${seeds[@]}" >"$log" 2>&1
  rc=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  found=$(( $(ls "$build/crashes" | grep -c "^$t-" || true) - before ))
  corpus=$(ls "$work" | wc -l)
  if [ "$rc" -ne 0 ] || [ "$found" -gt 0 ]; then
    failed=1
    echo "== fuzz $t: FOUND A PROBLEM (exit $rc); input in $build/crashes/, log $log"
    grep -E "ERROR|SUMMARY|property violated|runtime error" "$log" | head -5 || true
  fi
  echo "== fuzz $t: ${execs:-0} executions in ${seconds} s (${rate:-0}/s), corpus $corpus, problems $found"
  [ $first = 1 ] || echo "," >> "$stats"
  first=0
  printf '{"target": "%s", "seconds": %s, "executions": %s, "execs_per_second": %s, "corpus": %s, "problems": %s, "exit": %s}' \
    "$t" "$seconds" "${execs:-0}" "${rate:-0}" "$corpus" "$found" "$rc" >> "$stats"
done
echo "]}" >> "$stats"
exit $failed
