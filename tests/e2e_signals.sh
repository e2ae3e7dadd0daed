#!/usr/bin/env bash
# SIGINT and SIGTERM through the real binary: workers stop (one, or four side by side), both
# reports are written with every planned scenario (those not run skipped as interrupted),
# exit code 130 / 143.
# Usage: e2e_signals.sh HOSTCB_STUB WORK_DIR PENDING_SIGNAL
set -uo pipefail
stub="$1" work="$2" pending="$3"
rm -rf "$work" && mkdir -p "$work"

# With one worker and with four side by side (run -j 4): every worker stops, none is left.
for jobs in 1 4; do
for signal in INT TERM; do
  want=$([ "$signal" = INT ] && echo 130 || echo 143)
  # The marker is inherited by this run's workers only, so other tests' workers do not count.
  mark="hostcb-signal-test-$$-$signal-$jobs"
  HOSTCB_SIGNAL_TEST_MARK="$mark" "$stub" run -j $jobs --filter 'stub/behave=slow/*' --axis copy=1,2,3,4,5,6,7,8,9,10 \
    --junit "$work/$signal.xml" --json "$work/$signal.json" >"$work/$signal.log" 2>&1 &
  pid=$!
  touch "$work/$signal.log"
  for _ in $(seq 100); do grep -q "PASSED" "$work/$signal.log" && break; sleep 0.05; done
  kill -s "$signal" "$pid"
  wait "$pid"
  code=$?
  cases=$(grep -c "<testcase" "$work/$signal.xml" || true)
  interrupted=$(grep -c "interrupted by SIG$signal" "$work/$signal.xml" || true)
  echo "SIG$signal, -j $jobs: exit $code, $cases testcases, $interrupted skipped as interrupted"
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
done

# A signal that arrives as main starts (before planning, D16): pending_signal makes it
# pending at exec, so it arrives the moment the handlers are installed. Reports are still
# written with every scenario skipped as interrupted.
for signal in INT TERM; do
  want=$([ "$signal" = INT ] && echo 130 || echo 143)
  "$pending" "$signal" "$stub" run --filter 'stub/behave=slow/*' --axis copy=1,2,3 \
    --junit "$work/early_$signal.xml" --json "$work/early_$signal.json" >"$work/early_$signal.log" 2>&1
  code=$?
  cases=$(grep -c "<testcase" "$work/early_$signal.xml" 2>/dev/null || true)
  interrupted=$(grep -c "interrupted by SIG$signal" "$work/early_$signal.xml" 2>/dev/null || true)
  echo "early SIG$signal: exit $code, $cases testcases, $interrupted skipped as interrupted"
  if [ "$code" != "$want" ] || [ "$cases" != 3 ] || [ "$interrupted" != 3 ] || [ ! -s "$work/early_$signal.json" ]; then
    echo "expected exit $want and both reports with 3 interrupted testcases" >&2
    cat "$work/early_$signal.log" >&2
    exit 1
  fi
done

# A scenario stopped in flight keeps the time it ran (D23), here most of two seconds of a
# hang: at least 1 s, and no more than the run's own time. (Not "about the sleep": on a
# loaded GPU machine the run's start, CUDA's environment included, took half a second of it.)
"$stub" run --filter 'stub/behave=hang/*' --json "$work/inflight.json" >"$work/inflight.log" 2>&1 &
pid=$!
sleep 2
kill -s INT "$pid"
wait "$pid"
code=$?
# The first "seconds" in the file is the run's own, the last the result's.
run_seconds=$(grep -o '"seconds": [0-9.e+-]*' "$work/inflight.json" | head -1 | cut -d' ' -f2)
seconds=$(grep -o '"seconds": [0-9.e+-]*' "$work/inflight.json" | tail -1 | cut -d' ' -f2)
echo "in-flight hang: exit $code, ran ${seconds:-?} s of the run's ${run_seconds:-?} s"
if [ "$code" != 130 ] || ! awk -v s="${seconds:-0}" -v r="${run_seconds:-0}" 'BEGIN { exit !(s >= 1.0 && s <= r) }'; then
  echo "the interrupted hang should exit 130 and report the second or more it ran (at most the run's ${run_seconds:-?} s), not ${seconds:-nothing}" >&2
  cat "$work/inflight.json" >&2
  exit 1
fi

# --isolate none runs the hang in this process: a second signal, of either kind, ends
# hostcb at once (D17).
"$stub" run --isolate none --filter 'stub/behave=hang/*' >"$work/none.log" 2>&1 &
pid=$!
sleep 0.5
kill -s INT "$pid"
sleep 0.3
kill -s TERM "$pid"
for _ in $(seq 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
if kill -0 "$pid" 2>/dev/null; then
  kill -s KILL "$pid"
  echo "SIGINT then SIGTERM left hostcb running under --isolate none" >&2
  exit 1
fi
wait "$pid"
echo "isolate none: SIGINT then SIGTERM ended it (exit $?)"
