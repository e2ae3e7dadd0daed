#!/usr/bin/env bash
# Four workers side by side (run -j 4) through the real binary and the stub's CPU-only
# families: each guarantee the sequential run gives still holds. Reports in plan order and
# equal to -j 1's apart from times; the four really run at once; a scenario that needs the
# device to itself runs with nothing beside it; crashes and timeouts blamed on their own
# scenario; orphans counted from every worker; --fail-fast stops the other workers at once;
# alone ones do not restart the pool; a standby worker saves a cold start. (SIGINT and
# SIGTERM at -j 4: e2e_signals.sh.)
# Usage: e2e_pool.sh HOSTCB_STUB WORK_DIR
set -uo pipefail
stub="$1" work="$2"
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
copies=1,2,3,4,5,6

# Plan order, and the same reports as -j 1: slow scenarios first, so that the fast ones
# after them finish first with four workers.
for j in 1 4; do
  "$stub" run -j $j --filter 'stub/behave=slow/*:stub/behave=pass/*:stub/behave=fail/*' --axis copy=$copies \
    --junit "$work/order$j.xml" --json "$work/order$j.json" >"$work/order$j.log" 2>&1
  [ $? -eq 1 ] || fail "-j $j over passes and failures: expected exit 1: $(tail -3 "$work/order$j.log")"
  # Times, the start and the command line are all that may differ.
  sed -E -e 's/(time|timestamp)="[^"]*"/\1=""/g' -e 's/"(seconds|started|command_line)": .*/"\1": ""/' \
    -e '/name="command_line"/d' "$work/order$j.xml" >"$work/order$j.xml.cmp"
  sed -E -e 's/"(seconds|started|command_line)": .*/"\1": ""/' "$work/order$j.json" >"$work/order$j.json.cmp"
  grep -E '^\[[0-9]+/' "$work/order$j.log" | sed -E 's/\([0-9.]+ s\)//' >"$work/order$j.console"
done
cmp -s "$work/order1.json.cmp" "$work/order4.json.cmp" || fail "-j 4's JSON differs from -j 1's: $(diff "$work/order1.json.cmp" "$work/order4.json.cmp" | head -20)"
cmp -s "$work/order1.xml.cmp" "$work/order4.xml.cmp" || fail "-j 4's JUnit differs from -j 1's: $(diff "$work/order1.xml.cmp" "$work/order4.xml.cmp" | head -20)"
cmp -s "$work/order1.console" "$work/order4.console" || fail "-j 4's console lines differ from -j 1's: $(diff "$work/order1.console" "$work/order4.console" | head)"
echo "pool: -j 4 reports in plan order, equal to -j 1's apart from times"

# They really run side by side: each of four waits until all four have started.
mkdir -p "$work/meet"
HOSTCB_STUB_MEET="$work/meet" "$stub" run -j 4 --filter 'stub/behave=meet/*' --axis copy=1,2,3,4 >"$work/meet.log" 2>&1 ||
  fail "-j 4 did not run four scenarios at once: $(grep -A2 FAILED "$work/meet.log" | head)"
echo "pool: -j 4 runs four scenarios at once"

# A scenario that needs the device to itself (a fresh process, like device_fault) runs
# with nothing beside it, between the scenarios around it in the plan; list says so.
mkdir -p "$work/busy"
HOSTCB_STUB_BUSY="$work/busy" "$stub" run -j 4 --filter 'stub/behave=slow/*:stub_fresh:stub_seeded' --axis copy=1,2,3,4 \
  --json "$work/alone.json" >"$work/alone.log" 2>&1 ||
  fail "a scenario that runs alone ran beside another: $(grep -A2 -E 'FAILED|ERROR' "$work/alone.log" | head)"
"$stub" list --filter stub_fresh 2>/dev/null | grep -q $'\t(runs alone: ' || fail "list does not say that stub_fresh runs alone"
"$stub" list --filter 'stub/behave=pass/*' 2>/dev/null | grep -q 'runs alone' && fail "list says a shareable scenario runs alone"
echo "pool: a fresh-process scenario runs with nothing beside it, and list says so"

# Shuffled among shared scenarios, the alone ones do not cut the pool: every shared
# scenario of a -j 1 run goes to one worker, each alone one to a fresh worker of its own.
for seed in 1 2 3; do
  rm -rf "$work/processes" && mkdir -p "$work/processes"
  HOSTCB_STUB_PROCESSES="$work/processes" "$stub" run -j 1 --shuffle=$seed --filter 'stub/behave=pass/*:stub_fresh' \
    --axis copy=1-8 >"$work/processes.log" 2>&1 || fail "shuffled shared and alone scenarios: $(tail -3 "$work/processes.log")"
  shared=$(find "$work/processes" -name 'shared-*' | wc -l) alone=$(find "$work/processes" -name 'alone-*' | wc -l)
  [ "$shared" = 1 ] && [ "$alone" = 8 ] ||
    fail "--shuffle=$seed -j 1: the shared scenarios ran in $shared workers (expected 1), the alone ones in $alone (expected 8)"
done
echo "pool: scenarios that run alone do not restart the pool of the shared ones, in any order"

# Crashes and timeouts, four workers at once: each blamed on its own scenario, with its
# launch and only its own output; the scenarios beside them unharmed.
"$stub" run -j 4 --timeout 1 --filter 'stub/behave=pass/*:stub/behave=fail/*:stub/behave=crash/*:stub/behave=hang/*' \
  --axis copy=1,2,3,4 --json "$work/blame.json" >"$work/blame.log" 2>&1
python3 - "$work/blame.json" <<'PY' || fail "crash or timeout blamed wrongly with -j 4 (see above)"
import json, sys
results = json.load(open(sys.argv[1]))["results"]
bad = []
for r in results:
    how, reason = r["id"].split("/")[1].split("=")[1], r.get("reason", "")
    want = {"pass": "passed", "fail": "failed", "crash": "error", "hang": "error"}[how]
    if r["status"] != want: bad.append(f"{r['id']}: {r['status']}, expected {want}")
    if how == "crash" and ("at launch 2 of 5" not in reason or "stub: about to crash" not in reason or "failed on purpose" in reason):
        bad.append(f"{r['id']}: crash reason {reason!r}")
    if how == "hang" and "timed out at launch 3 of 5 after 1 s" not in reason:
        bad.append(f"{r['id']}: hang reason {reason!r}")
if len(results) != 16: bad.append(f"{len(results)} results, expected 16")
for line in bad: print(line, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
echo "pool: crashes and timeouts in four workers each blamed on its own scenario"

# Orphan host-function calls in every worker are counted.
"$stub" run -j 4 --filter 'stub/behave=orphan/*:stub/behave=slow/*' --axis copy=1,2,3,4 >"$work/orphans.log" 2>&1
[ $? -eq 1 ] || fail "orphans in four workers: the run must fail"
grep -q '^.*4 callback event(s) found no active scenario or armed probe' "$work/orphans.log" ||
  fail "orphans of four workers not all counted: $(grep -i 'callback event' "$work/orphans.log")"
echo "pool: orphans from four workers are all counted"

# --fail-fast: the first failure to arrive stops the workers beside it at once (their
# hangs are skipped, not timed out), whatever comes before it in the plan.
start=$(date +%s)
"$stub" run -j 4 -x --timeout 30 --axis behave=hang,fail --axis copy=1,2,3 --filter 'stub/*' \
  --json "$work/ff.json" >"$work/ff.log" 2>&1
rc=$? took=$(($(date +%s) - start))
[ $rc -eq 1 ] || fail "--fail-fast with -j 4: exit $rc, expected 1"
python3 - "$work/ff.json" <<'PY' || fail "--fail-fast with -j 4 did not stop the other workers at once"
import json, sys
results = json.load(open(sys.argv[1]))["results"]
status = {r["id"]: (r["status"], r.get("reason", "")) for r in results}
bad = [f"{i}: {s}" for i, (s, why) in status.items()
       if "behave=hang" in i and not (s == "skipped" and "--fail-fast" in why)]
if sum(s == "failed" for s, _ in status.values()) < 1: bad.append("no failure reported")
for line in bad: print(line, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
[ "$took" -lt 20 ] || fail "--fail-fast with -j 4 took $took s: the hangs beside the failure were not stopped"
echo "pool: --fail-fast stops every worker at the first failure"


# A standby worker: once a worker runs a scenario, the next one is started, so a crash
# costs a switch, not a cold start. Workers here take 0.6 s to start (as a CUDA context and
# a layer's import do); three passes of (a crash, then two 300 ms scenarios) in one worker
# at a time: with a standby the crashes of passes 2 and 3 find the next worker ready,
# without one each waits for a start (1.2 s in all).
time_run() {
  local start end
  start=$(date +%s%N)
  HOSTCB_STUB_WORKER_START_S=0.6 "$stub" run -j 1 --repeat 3 --filter 'stub/behave=slow/*:stub/behave=crash/copy=1' \
    --axis copy=1,2 "$@" --json "$work/standby$#.json" >"$work/standby$#.log" 2>&1
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}
with=$(time_run) without=$(time_run --no-standby)
grep -q "\"error\": 3" "$work/standby0.json" && grep -q "\"passed\": 6" "$work/standby0.json" ||
  fail "standby run: expected 3 crashes and 6 passes: $(tail -3 "$work/standby0.log")"
echo "pool: 3 crashes with a 0.6 s worker start: $with ms with a standby, $without ms without"
[ $((without - with)) -ge 700 ] || fail "a standby worker saved $((without - with)) ms over 3 crashes of 0.6 s starts (expected 700 or more)"

# The progress line: on a terminal only, how many are done and running, wiped before each
# result line; never in a log.
if command -v script >/dev/null; then
  script -qec "'$stub' run -j 2 --filter 'stub/behave=slow/*' --axis copy=1,2,3,4" /dev/null >"$work/tty.out" 2>&1
  grep -q $'\r\033\[K\[1/4 done; [1-3] more started\] stub/behave=slow/copy=' "$work/tty.out" ||
    fail "no progress line on a terminal: $(od -c "$work/tty.out" | head -5)"
  grep -q $'\r\033\[K\[4/4 done; 0 more started\]' "$work/tty.out" || fail "the progress line does not reach 4/4 done"
  # Each result line starts where the wiped progress line was, and ends its own line.
  grep -q $'\r\033\[K\033\[[0-9]*m\[4/4\] PASSED  stub/behave=slow/copy=4 ([0-9.]* s)\033\[m\r$' "$work/tty.out" ||
    fail "a result line is not wiped clear of the progress line: $(tr -d '\r' <"$work/tty.out" | cat -v | head -3)"
  grep -q $'\r' "$work/order4.log" && fail "a progress line in a log that is not a terminal"
  echo "pool: a progress line on a terminal, none in a log"
fi
