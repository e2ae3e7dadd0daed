#!/usr/bin/env bash
# A worker's start under the supervisor's clock, through the real binary and fake adapters
# whose init misbehaves only in a worker (tests/adapters/fake_adapter.c): 4,000 scenario ids
# (over 100 KB, more than a pipe holds) are handed over while the worker's init hangs or
# prints 200 KB; a SIGTERM still ends the run at once with its reports, and a worker hung
# in its init dies with a supervisor killed by SIGKILL.
# Usage: e2e_worker_start.sh HOSTCB_STUB WORK_DIR HANGS_IN_WORKER PRINTS_IN_WORKER
set -uo pipefail
stub="$1" work="$2" hangs_in_worker="$3" prints_in_worker="$4"
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
many=(--filter 'stub/behave=pass/*' --axis copy=1-4000)

# Waits up to $2 tenths of a second for process $1 to end; false if it is still running.
ended_within() {
  for _ in $(seq "$2"); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
  ! kill -0 "$1" 2>/dev/null
}
# A process is gone when it no longer runs (a zombie waiting for its reaper counts as gone).
gone() { [ ! -e "/proc/$1" ] || grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
# The PID the fake logged as "init PID" (its worker's), waiting up to 20 s for it: under
# ASan, beside other tests on 2 cores, planning 4,000 ids and starting the worker took over 5.
logged_pid() {
  for _ in $(seq 200); do
    pid=$(awk -v what="$2" '$1 == what { print $2; exit }' "$1" 2>/dev/null)
    [ -n "$pid" ] && { echo "$pid"; return 0; }
    sleep 0.1
  done
  return 1
}

# 1. The worker's init prints 200 KB while 4,000 ids wait to be sent: no deadlock.
timeout 20 "$stub" run -q "${many[@]}" --adapter "$prints_in_worker" >"$work/prints.log" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "an init that prints 200 KB with 4000 ids queued: exit $rc (124: deadlocked): $(tail -3 "$work/prints.log")"
grep -q '^4000 scenarios: 4000 passed' "$work/prints.log" || fail "not every scenario passed: $(tail -3 "$work/prints.log")"
echo "an init printing 200 KB beside 4000 queued ids: no deadlock"

# 2. The worker's init hangs: SIGTERM ends the run at once, with every scenario in the report.
log="$work/hang.pids"
FAKE_ADAPTER_LOG="$log" "$stub" run "${many[@]}" --adapter "$hangs_in_worker" --junit "$work/hang.xml" \
  >"$work/hang.log" 2>&1 &
pid=$!
worker=$(logged_pid "$log" init) || fail "the worker's init never ran"
kill -TERM "$pid"
ended_within "$pid" 50 || { kill -KILL "$pid"; fail "SIGTERM did not end a run whose worker hangs in its init"; }
wait "$pid"
rc=$?
[ $rc -eq 143 ] || fail "SIGTERM while the worker's init hangs: exit $rc, expected 143: $(tail -3 "$work/hang.log")"
[ "$(grep -c '<testcase' "$work/hang.xml")" = 4000 ] || fail "the JUnit report does not list the 4000 scenarios"
for _ in $(seq 100); do gone "$worker" && break; sleep 0.1; done  # an ASan process takes seconds to go
gone "$worker" || { kill -KILL "$worker"; fail "the worker hung in its init outlived the run"; }
echo "SIGTERM while the worker's init hangs: exit 143, 4000 testcases, the worker gone"

# 3. The supervisor dies by SIGKILL while the worker's init hangs: the worker dies with it.
log="$work/orphan.pids"
FAKE_ADAPTER_LOG="$log" "$stub" run "${many[@]}" --adapter "$hangs_in_worker" >"$work/orphan.log" 2>&1 &
pid=$!
worker=$(logged_pid "$log" init) || fail "the worker's init never ran"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
for _ in $(seq 100); do gone "$worker" && break; sleep 0.1; done  # an ASan process takes seconds to go
gone "$worker" || { kill -KILL "$worker"; fail "a worker hung in its init outlived a supervisor killed by SIGKILL"; }
echo "a supervisor killed by SIGKILL takes its worker, hung in its init, with it"
