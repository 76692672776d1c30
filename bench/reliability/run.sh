#!/usr/bin/env bash
# Reliability figures (issue 8): the bad-input catalogue and the fuzzers.
#
#   bench/reliability/run.sh [FUZZ_SECONDS_PER_TARGET]      (default 60)
#
# Runs tests/badinput/catalogue.py against $DLAYOUT (default build/cli/dlayout)
# and tests/fuzz/run.sh for the given time per target, then prints and
# writes bench/results/reliability.md and .json: catalogue cases and how many
# pass (by category), fuzz executions and time per target, and the crashes
# found and fixed (the inputs kept in tests/fuzz/regressions/, and the bugs
# the catalogue found, listed in tests/badinput/FOUND.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
dlayout=${DLAYOUT:-build/cli/dlayout}
[ -x "$dlayout" ] || { echo "reliability: no $dlayout (scripts/build.sh builds it)" >&2; exit 1; }
mkdir -p bench/results
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== catalogue of bad inputs ($dlayout)"
set +e
python3 tests/badinput/catalogue.py --dlayout "$dlayout" --jobs 2 --json "$tmp/catalogue.json" \
  > "$tmp/catalogue.txt" 2>&1
set -e
tail -1 "$tmp/catalogue.txt"
grep '^FAIL' -A3 "$tmp/catalogue.txt" || true

echo "== fuzzing, ${seconds} s a target"
set +e
DLAYOUT_FUZZ_BUILD=${DLAYOUT_FUZZ_BUILD:-build-fuzz} tests/fuzz/run.sh "$seconds"
fuzz_rc=$?
set -e
cp "${DLAYOUT_FUZZ_BUILD:-build-fuzz}/fuzz-stats.json" "$tmp/fuzz.json"

python3 - "$tmp/catalogue.json" "$tmp/fuzz.json" "$fuzz_rc" <<'PY'
import collections, datetime, json, os, platform, sys
cat = json.load(open(sys.argv[1]))
fuzz = json.load(open(sys.argv[2]))
fuzz_rc = int(sys.argv[3])
regress = {}
for t in ("model", "layout", "machine", "ir"):
    d = os.path.join("tests", "fuzz", "regressions", t)
    regress[t] = sorted(f for f in os.listdir(d) if not f.startswith(".")) if os.path.isdir(d) else []
found = open("tests/badinput/FOUND.md").read() if os.path.exists("tests/badinput/FOUND.md") else ""
bugs = [l for l in found.splitlines() if l.startswith("| ") and not l.startswith("| #") and not l.startswith("| ---")]

by_cat = collections.OrderedDict()
for r in cat["results"]:
    c = by_cat.setdefault(r["category"], [0, 0])
    c[0] += 1
    c[1] += r["passed"]
when = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()
doc = {"date": when, "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
       "catalogue": {"cases": cat["cases"], "passed": cat["passed"], "seconds": cat["seconds"],
                     "by_category": {k: {"cases": v[0], "passed": v[1]} for k, v in by_cat.items()},
                     "failed": [r["name"] for r in cat["results"] if not r["passed"]]},
       "fuzz": fuzz, "fuzz_clean": fuzz_rc == 0,
       "regression_inputs": regress, "bugs_found_and_fixed": len(bugs)}
json.dump(doc, open("bench/results/reliability.json", "w"), indent=2)

md = [f"# Reliability: bad inputs and fuzzing", "",
      f"{when}; {doc['machine']}. `bench/reliability/run.sh {fuzz['seconds_per_target']}`.", "",
      f"## Catalogue of bad and awkward inputs (`tests/badinput/catalogue.py`)", "",
      f"**{cat['passed']} of {cat['cases']} cases pass** ({cat['seconds']} s with 2 jobs).", "",
      "| category | cases | pass |", "|---|---:|---:|"]
for k, (n, p) in by_cat.items():
    md.append(f"| {k} | {n} | {p} |")
if doc["catalogue"]["failed"]:
    md += ["", "Failing: " + ", ".join(doc["catalogue"]["failed"])]
md += ["", "## Fuzzing (`tests/fuzz/run.sh`, libFuzzer, ASan + UBSan)", "",
       f"Build {fuzz['build_seconds']} s.", "",
       "| target | seconds | executions | exec/s | corpus | problems found |", "|---|---:|---:|---:|---:|---:|"]
for t in fuzz["targets"]:
    md.append(f"| {t['target']} | {t['seconds']} | {t['executions']} | {t['execs_per_second']} | {t['corpus']} | {t['problems']} |")
md += ["", "## Crashes and bugs found and fixed", "",
       f"{len(bugs)} bugs found by the catalogue and the fuzzers and fixed (tests/badinput/FOUND.md); "
       f"regression inputs kept for the fuzz targets: "
       + ", ".join(f"{t} {len(v)}" for t, v in regress.items()) + ".", ""]
md += [l for l in found.splitlines() if l.startswith("|")]
open("bench/results/reliability.md", "w").write("\n".join(md) + "\n")
print("\n".join(md))
PY
echo "wrote bench/results/reliability.md and bench/results/reliability.json"
