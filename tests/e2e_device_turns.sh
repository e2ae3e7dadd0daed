#!/usr/bin/env bash
# Turns on the device across hostcb processes (runner/device_turn.hpp): two runs at once
# share one (stand-in) device; one runs scenarios that must have it to themselves
# (stub_fresh: each fails if another process's body runs while it does), the other keeps
# four workers busy (stub/behave=slow, 300 ms each). With turns, every scenario of both
# passes: the supervisor alone keeps a scenario alone in its own run only.
# Usage: e2e_device_turns.sh HOSTCB_STUB WORK_DIR
set -uo pipefail
stub="$1" work="$2"
rm -rf "$work" && mkdir -p "$work/locks" "$work/busy"
fail() { echo "FAIL: $*" >&2; exit 1; }
export HOSTCB_LOCK_DIR="$work/locks" HOSTCB_STUB_BUSY="$work/busy"

"$stub" run -q -j 4 --filter 'stub/behave=slow/*' --axis copy=1-24 >"$work/busy.log" 2>&1 &
busy=$!
sleep 0.3  # the busy run is under way
"$stub" run -q -j 2 --filter 'stub_fresh/*' --axis copy=1-6 >"$work/alone.log" 2>&1
alone_rc=$?
wait "$busy"
busy_rc=$?
[ $alone_rc -eq 0 ] || fail "a scenario that runs alone ran beside another process's (exit $alone_rc): $(grep -m2 -E 'FAILED|ERROR' "$work/alone.log")"
[ $busy_rc -eq 0 ] || fail "the busy run: exit $busy_rc: $(tail -3 "$work/busy.log")"
grep -q '^6 scenarios: 6 passed' "$work/alone.log" || fail "not 6 passed: $(tail -2 "$work/alone.log")"
grep -q '^24 scenarios: 24 passed' "$work/busy.log" || fail "not 24 passed: $(tail -2 "$work/busy.log")"
[ -e "$work/locks/hostcb-turn-cpu-stand-in.turn" ] || fail "no turn file was made in HOSTCB_LOCK_DIR"
echo "a scenario that runs alone waits for, and holds off, another process's scenarios"

# A lock folder that is none (missing, a file) is one line naming HOSTCB_LOCK_DIR and exit 2,
# before anything runs: a run without turns would let a neighbour's fault decide verdicts.
for bad in "$work/missing" "$work/locks/hostcb-turn-cpu-stand-in.turn"; do
  HOSTCB_LOCK_DIR="$bad" "$stub" run -f 'stub_fresh/*' >"$work/out" 2>"$work/err"
  rc=$?
  [ $rc -eq 2 ] || fail "HOSTCB_LOCK_DIR=$bad: exit $rc, expected 2: $(head -c 300 "$work/err")"
  [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "HOSTCB_LOCK_DIR=$bad: the folder for the GPU's lock files" "$work/err" ||
    fail "HOSTCB_LOCK_DIR=$bad: not one line naming it: $(head -c 300 "$work/err")"
  [ ! -s "$work/out" ] || fail "HOSTCB_LOCK_DIR=$bad: something ran: $(head -c 300 "$work/out")"
done
echo "a lock folder that is none stops the run before it starts, naming HOSTCB_LOCK_DIR"
