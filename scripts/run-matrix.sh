#!/usr/bin/env bash
# Sets up, builds and runs the scenario matrix, writing JUnit and JSON reports to
# ${HOSTCB_OUT:-hostcb-results}/. Extra arguments go to `hostcb run` (e.g. --filter).
# The exit code is hostcb's: 0 passed, 1 failed/error, 2 usage, 77 nothing ran (no GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
out="${HOSTCB_OUT:-hostcb-results}"
mkdir -p "$out"
exec "${HOSTCB_BUILD_DIR:-build}/hostcb" run --junit "$out/hostcb.xml" --json "$out/hostcb.json" "$@"
