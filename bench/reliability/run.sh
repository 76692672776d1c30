#!/usr/bin/env bash
# Reliability figures (issue 8): the bad-input catalogue, the fuzzers, and the
# time each fault of `dlayout validate` takes to be reported.
#
#   bench/reliability/run.sh [FUZZ_SECONDS_PER_TARGET]      (default 60)
#   bench/reliability/run.sh --faults-only                  (the faults only)
#   bench/reliability/run.sh --no-fuzz                      (the catalogue and faults)
#
# Runs tests/badinput/catalogue.py against $DLAYOUT (default build/cli/dlayout),
# tests/fuzz/run.sh for the given time per target (in $DLAYOUT_FUZZ_BUILD,
# default build-fuzz), and bench/reliability/faults.py (each fault on each
# backend, $DLAYOUT_FAULT_REPEAT times, default 3), then prints and writes
# bench/results/reliability.md and .json: catalogue cases and how many pass
# (by category), fuzz executions and time per target, the crashes found and
# fixed (the inputs kept in tests/fuzz/regressions/, and the bugs the
# catalogue found, listed in tests/badinput/FOUND.md), and per fault the
# seconds from starting dlayout until it reports the error. --faults-only
# keeps the catalogue and fuzzing figures of the previous .json, --no-fuzz
# its fuzzing figures (no fuzzer build needed).
set -euo pipefail
cd "$(dirname "$0")/../.."
faults_only=0 no_fuzz=0
case "${1:-}" in
  --faults-only) faults_only=1; shift ;;
  --no-fuzz) no_fuzz=1; shift ;;
esac
seconds=${1:-60}
dlayout=${DLAYOUT:-build/cli/dlayout}
[ -x "$dlayout" ] || { echo "reliability: no $dlayout (scripts/build.sh builds it)" >&2; exit 1; }
mkdir -p bench/results
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fuzz_rc=0
if [ "$faults_only" = 0 ]; then
  echo "== catalogue of bad inputs ($dlayout)"
  set +e
  python3 tests/badinput/catalogue.py --dlayout "$dlayout" --jobs 2 --json "$tmp/catalogue.json" \
    > "$tmp/catalogue.txt" 2>&1
  set -e
  tail -1 "$tmp/catalogue.txt"
  grep '^FAIL' -A3 "$tmp/catalogue.txt" || true

fi
if [ "$faults_only" = 0 ] && [ "$no_fuzz" = 0 ]; then
  echo "== fuzzing, ${seconds} s a target"
  set +e
  DLAYOUT_FUZZ_BUILD=${DLAYOUT_FUZZ_BUILD:-build-fuzz} tests/fuzz/run.sh "$seconds"
  fuzz_rc=$?
  set -e
  cp "${DLAYOUT_FUZZ_BUILD:-build-fuzz}/fuzz-stats.json" "$tmp/fuzz.json"
fi

echo "== faults in validation: seconds until each is reported"
set +e
python3 bench/reliability/faults.py --dlayout "$dlayout" --json "$tmp/faults.json" \
  --repeat "${DLAYOUT_FAULT_REPEAT:-3}"
faults_rc=$?
set -e
[ -f "$tmp/faults.json" ] || { echo "reliability: faults.py wrote nothing" >&2; exit 1; }

python3 - "$tmp" "$fuzz_rc" "$faults_only" "$no_fuzz" <<'PY'
import collections, datetime, json, os, platform, sys
tmp, fuzz_rc = sys.argv[1], int(sys.argv[2])
faults_only, no_fuzz = sys.argv[3] == "1", sys.argv[4] == "1"
out_json = "bench/results/reliability.json"
when = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()
regress = {}
for t in ("model", "layout", "machine", "ir"):
    d = os.path.join("tests", "fuzz", "regressions", t)
    regress[t] = sorted(f for f in os.listdir(d) if not f.startswith(".")) if os.path.isdir(d) else []
found = open("tests/badinput/FOUND.md").read() if os.path.exists("tests/badinput/FOUND.md") else ""
bugs = [l for l in found.splitlines() if l.startswith("| ") and not l.startswith("| #") and not l.startswith("| ---")]

if faults_only:
    # The catalogue and fuzzing figures of the previous run stay as they were.
    doc = json.load(open(out_json))
else:
    cat = json.load(open(os.path.join(tmp, "catalogue.json")))
    if no_fuzz:  # the fuzzing figures of the previous run stay as they were
        prev = json.load(open(out_json))
        fuzz, fuzz_clean, fuzz_date = prev["fuzz"], prev["fuzz_clean"], prev.get("fuzz_date", prev["date"])
    else:
        fuzz = json.load(open(os.path.join(tmp, "fuzz.json")))
        fuzz_clean, fuzz_date = fuzz_rc == 0, when
    by_cat = collections.OrderedDict()
    for r in cat["results"]:
        c = by_cat.setdefault(r["category"], [0, 0])
        c[0] += 1
        c[1] += r["passed"]
    doc = {"date": when, "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
           "catalogue": {"cases": cat["cases"], "passed": cat["passed"], "seconds": cat["seconds"],
                         "by_category": {k: {"cases": v[0], "passed": v[1]} for k, v in by_cat.items()},
                         "failed": [r["name"] for r in cat["results"] if not r["passed"]]},
           "fuzz": fuzz, "fuzz_clean": fuzz_clean, "fuzz_date": fuzz_date}
doc["regression_inputs"] = regress
doc["bugs_found_and_fixed"] = len(bugs)
doc["faults"] = json.load(open(os.path.join(tmp, "faults.json")))
json.dump(doc, open(out_json, "w"), indent=2)

cat, fuzz, faults = doc["catalogue"], doc["fuzz"], doc["faults"]
md = [f"# Reliability: bad inputs, fuzzing, faults in validation", "",
      f"{doc['date']}; {doc['machine']}. `bench/reliability/run.sh {fuzz['seconds_per_target']}`"
      + (f" (faults: {faults['date']}, `--faults-only`)." if faults_only else
         f" (fuzzing: {doc['fuzz_date']}, `--no-fuzz`)." if no_fuzz else "."), "",
      f"## Catalogue of bad and awkward inputs (`tests/badinput/catalogue.py`)", "",
      f"**{cat['passed']} of {cat['cases']} cases pass** ({cat['seconds']} s with 2 jobs).", "",
      "| category | cases | pass |", "|---|---:|---:|"]
for k, v in cat["by_category"].items():
    md.append(f"| {k} | {v['cases']} | {v['passed']} |")
if cat["failed"]:
    md += ["", "Failing: " + ", ".join(cat["failed"])]
md += ["", "## Fuzzing (`tests/fuzz/run.sh`, libFuzzer, ASan + UBSan)", "",
       f"Build {fuzz['build_seconds']} s.", "",
       "| target | seconds | executions | exec/s | corpus | problems found |", "|---|---:|---:|---:|---:|---:|"]
for t in fuzz["targets"]:
    md.append(f"| {t['target']} | {t['seconds']} | {t['executions']} | {t['execs_per_second']} | {t['corpus']} | {t['problems']} |")
md += ["", "## Faults in validation: time until each is reported (`bench/reliability/faults.py`)", "",
       f"{faults['date']}; {faults['machine']}. {faults['program']}; "
       f"`dlayout validate MODEL --procs 4 --layouts FILE --backend B --timeout LIMIT`, "
       f"{faults['repetitions']} runs each. *Seconds to report*: from starting dlayout until it "
       "exits with the error (median, max); no compiler or advisor runs first, and the rows where "
       "nothing is launched (\"not on PATH\", \"path missing\") show dlayout's own part. "
       "*Job*: the launcher's run until it ended, as the message gives it. "
       "*ok*: exit status 1, the error names the layout (`file-1`) and what failed and says "
       "nothing was measured, and `-o` was not written (a run without a fault: exit 0 and `-o` "
       "written). Test hooks: docs/validate.md, \"Faults\".", "",
       "| fault | backend | time limit (s) | seconds to report (median) | max | job (s) | ok | message (after `dlayout: error: `) |",
       "|---|---|---:|---:|---:|---:|---|---|"]
for r in faults["cases"]:
    job = ", ".join(f"{x:g}" for x in r["job_seconds"]) if r["job_seconds"] else ""
    msg = r["message"].replace("|", "\\|")
    md.append(f"| {r['fault']} | {r['backend']} | {r['time_limit']} | {r['seconds_median']:.2f} | "
              f"{r['seconds_max']:.2f} | {job} | {'yes' if r['ok'] else '**no**'} | {msg} |")
md += ["", "## Crashes and bugs found and fixed", "",
       f"{len(bugs)} bugs found by the catalogue and the fuzzers and fixed (tests/badinput/FOUND.md); "
       f"regression inputs kept for the fuzz targets: "
       + ", ".join(f"{t} {len(v)}" for t, v in regress.items()) + ".", ""]
md += [l for l in found.splitlines() if l.startswith("|")]
open("bench/results/reliability.md", "w").write("\n".join(md) + "\n")
print("\n".join(md))
PY
echo "wrote bench/results/reliability.md and bench/results/reliability.json"
exit "$faults_rc"
