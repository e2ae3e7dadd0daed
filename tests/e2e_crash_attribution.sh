#!/usr/bin/env bash
# A crash report quotes only what the crashed scenario wrote (D15): the worker's output of
# the failing scenario before it must never appear in the crash's reason. The race is in
# the supervisor's reading of two pipes, so the run is repeated.
# Usage: e2e_crash_attribution.sh HOSTCB_STUB WORK_DIR [RUNS]
set -uo pipefail
stub="$1" work="$2" runs="${3:-20}"
rm -rf "$work" && mkdir -p "$work"
for i in $(seq "$runs"); do
  "$stub" run --filter 'stub/behave=fail/*:stub/behave=crash/*' --json "$work/$i.json" >"$work/$i.log" 2>&1
  code=$?
  [ "$code" = 1 ] || { echo "run $i: exit $code, expected 1" >&2; cat "$work/$i.log" >&2; exit 1; }
  grep -q 'stub: about to crash' "$work/$i.json" || { echo "run $i: the crash's own output is missing" >&2; exit 1; }
  # The crash's reason is the only one quoting the worker's output ("what the worker wrote").
  if grep 'what the worker wrote' "$work/$i.json" | grep -q 'failed on purpose'; then
    echo "run $i: the crash report quotes the previous scenario's failure:" >&2
    grep 'what the worker wrote' "$work/$i.json" >&2
    exit 1
  fi
done
echo "$runs runs: each crash report quoted only its own scenario's output"
