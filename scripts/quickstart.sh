#!/usr/bin/env bash
# Quick start: installs what is missing, builds dlayout, and asks it how to
# lay out a bundled sample (the thesis's Jacobi relaxation, Fig. 6.4) on 16
# processors of an iPSC/2.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
exec build/cli/dlayout advise samples/paradigm/jacobi.F --param NP2=66 --procs 16 --machine ipsc2
