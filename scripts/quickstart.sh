#!/usr/bin/env bash
# Quick start: installs what is missing, builds dlayout, and runs it on a
# bundled sample (the thesis's Jacobi relaxation, Fig. 6.4).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
exec build/cli/dlayout extract samples/paradigm/jacobi.F --param NP2=66 --format text
