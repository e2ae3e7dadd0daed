#!/usr/bin/env bash
# SIGINT and SIGTERM through the real binary: workers stop, both reports are written with
# every planned scenario (those not run skipped as interrupted), exit code 130 / 143.
# Usage: e2e_signals.sh HOSTCB_STUB WORK_DIR
set -uo pipefail
stub="$1" work="$2"
rm -rf "$work" && mkdir -p "$work"

for signal in INT TERM; do
  want=$([ "$signal" = INT ] && echo 130 || echo 143)
  # The marker is inherited by this run's workers only, so other tests' workers do not count.
  mark="hostcb-signal-test-$$-$signal"
  HOSTCB_SIGNAL_TEST_MARK="$mark" "$stub" run --filter 'stub/behave=slow/*' --axis copy=1,2,3,4,5,6,7,8,9,10 \
    --junit "$work/$signal.xml" --json "$work/$signal.json" >"$work/$signal.log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do grep -q "PASSED" "$work/$signal.log" && break; sleep 0.05; done
  kill -s "$signal" "$pid"
  wait "$pid"
  code=$?
  cases=$(grep -c "<testcase" "$work/$signal.xml" || true)
  interrupted=$(grep -c "interrupted by SIG$signal" "$work/$signal.xml" || true)
  echo "SIG$signal: exit $code, $cases testcases, $interrupted skipped as interrupted"
  if [ "$code" != "$want" ] || [ "$cases" != 10 ] || [ "$interrupted" -lt 1 ]; then
    echo "expected exit $want, 10 testcases, some interrupted" >&2
    cat "$work/$signal.log" >&2
    exit 1
  fi
  sleep 0.2  # a worker dies with its supervisor (PR_SET_PDEATHSIG): give the kernel a moment
  if grep -qs "$mark" /proc/[0-9]*/environ; then
    echo "a worker outlived its supervisor" >&2
    exit 1
  fi
done
