#!/bin/sh
# expect_abort.sh SECONDS REGEX COMMAND...
# Passes when COMMAND ends within SECONDS with a non-zero status and its
# output matches the extended regular expression REGEX (a bad input must end
# the job cleanly with one clear error line, never hang).
limit=$1; regex=$2; shift 2
out=$(timeout -k 5 "$limit" "$@" 2>&1)
status=$?
printf '%s\n' "$out"
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  echo "expect_abort: FAILED: the job did not end within ${limit}s (hang)"; exit 1
fi
if [ "$status" -eq 0 ]; then
  echo "expect_abort: FAILED: the job exited 0, an abort was expected"; exit 1
fi
if ! printf '%s\n' "$out" | grep -Eq -- "$regex"; then
  echo "expect_abort: FAILED: no line matches: $regex"; exit 1
fi
echo "expect_abort: ok (status $status)"
