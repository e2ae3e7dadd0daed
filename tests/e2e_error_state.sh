#!/usr/bin/env bash
# No scenario reads an error state an earlier one left (issue 26, item 19): every family
# runs after each family that leaves a CUDA error on the worker's thread on purpose, in
# one worker, and must pass as it does alone. One run a leaver, -j 1 and `--repeat 2`:
# the second pass puts every family after the leaver whatever their order in the plan. Needs a GPU:
# without one the first run skips everything, and so does this test (exit 77).
# Usage: e2e_error_state.sh HOSTCB
set -uo pipefail
hostcb="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Families whose scenarios make failing CUDA calls on the worker's thread on purpose: a
# stream callback in a capture (900, then 901 at its end), instantiations CUDA refuses.
leavers="capture_contract contracts callback_fault"
# Every family of the default matrix but those that get a fresh process per scenario.
"$hostcb" list --format json >"$work/list.json" || exit 1
families=$(python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
used = {s["family"] for s in doc["scenarios"]}
print(" ".join(f["name"] for f in doc["families"] if f["name"] in used and not f["fresh_process"]))' "$work/list.json") || exit 1

# One run a leaver, the three side by side (each one worker: -j 1 runs the whole selection in
# plan order, twice, so in the second pass every scenario of every family comes after every
# one of the leaver's, in that worker).
for leaver in $leavers; do
  filter="$leaver/*"
  for family in $families; do [ "$family" = "$leaver" ] || filter="$filter:$family/*"; done
  ("$hostcb" run -q -j 1 --isolate worker --repeat 2 --filter "$filter" >"$work/$leaver.log" 2>&1
   echo $? >"$work/$leaver.rc") &
done
wait
bad=0 ran=0
for leaver in $leavers; do
  rc=$(cat "$work/$leaver.rc")
  [ "$rc" = 77 ] && continue
  ran=1
  if [ "$rc" != 0 ]; then
    echo "FAIL: after $leaver, in one worker: exit $rc"
    grep -E 'FAILED|ERROR|^exit' "$work/$leaver.log" | head -10
    bad=1
  else
    echo "ok: every family after $leaver ($(grep -m1 -E '^[0-9]+ scenarios' "$work/$leaver.log"))"
  fi
done
if [ $ran = 0 ]; then
  grep -h '^exit 77' "$work"/*.log | head -1
  echo "skipped: no scenario ran (no usable GPU)"
  exit 77
fi
exit $bad
