#!/usr/bin/env bash
# Hardening, round three (issue 33): bad input, signals and faults as a careless or hostile
# user makes them, end to end through the stub CLI. Each section names the item it guards.
# Usage: e2e_round_three.sh HOSTCB_STUB FAKE_ADAPTER PYTHON_ADAPTER SOURCE_DIR CMAKE WORK_DIR
# (PYTHON_ADAPTER may be "": its checks are then left out.)
set -u
stub="$(realpath "$1")" fake="$(realpath "$2")" python_adapter="$3" source_dir="$4" cmake="$5" work="$6"
rm -rf "$work" && mkdir -p "$work"
# shellcheck source=e2e_checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_checks.sh"  # fail, exit_is, one_line_saying
# json FILE EXPRESSION: EXPRESSION over the document `d` (Python), printed.
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# --- 1. a host function called after its scenario ended fails that scenario in every report.
exit_is 1 "$stub" run -j 4 -f 'stub/behave=orphan/*:stub/behave=slow/*' --axis copy=1-4 --json "$work/o.json" --junit "$work/o.xml"
grep -q 'testsuite name="stub" tests="8" failures="4" errors="0"' "$work/o.xml" ||
  fail "JUnit does not fail the four orphans' scenarios: $(grep '<testsuite ' "$work/o.xml")"
[ "$(json "$work/o.json" '[r["status"] for r in d["results"] if "orphan" in r["id"]]')" = "['failed', 'failed', 'failed', 'failed']" ] &&
  [ "$(json "$work/o.json" 'd["summary"]["failed"]')" = 4 ] || fail "the JSON does not fail the orphans' scenarios"
grep -q 'found no active scenario or armed probe' "$work/o.json" || fail "the JSON does not say why the orphans' scenarios failed"
exit_is 1 "$stub" result "$work/o.json" stub/behave=orphan/copy=1
exit_is 0 "$stub" result "$work/o.json" stub/behave=slow/copy=1
exit_is 0 "$stub" report "$work/o.json" --summary "$work/o.md"
grep -q 'failed' "$work/o.md" && grep -q 'stub/behave=orphan/copy=1' "$work/o.md" || fail "report --summary is green: $(cat "$work/o.md")"
echo "round three: orphans fail their scenarios in JUnit, JSON, result and report --summary"

# --- 2. a copy of one signal counts as one: the same signal from the same process at once,
# as timeout(1) sends it (to the child, then to its whole process group). The run stops
# once and writes every report; the verdict says why.
for signal in INT TERM; do
  want=$([ "$signal" = INT ] && echo 130 || echo 143)
  "$stub" run -j 4 --timeout 30 -f 'stub/behave=hang/*:stub/behave=pass/*' --axis copy=1-4 --json "$work/copy.json" \
    >"$work/copy.log" 2>&1 &
  pid=$!
  for _ in $(seq 200); do [ "$(grep -c PASSED "$work/copy.log")" -ge 4 ] && break; sleep 0.05; done
  sleep 0.3  # the hangs are under way
  # As timeout(1) does it: the signal to the run, then at once to its process group.
  python3 -c 'import os, sys, time; pid, sig = int(sys.argv[1]), int(sys.argv[2]); os.kill(pid, sig); time.sleep(0.001); os.kill(pid, sig)' \
    $pid "$(kill -l "$signal")"
  wait $pid
  rc=$?
  [ $rc -eq "$want" ] && grep -q "exit $want: interrupted by SIG$signal" "$work/copy.log" ||
    fail "SIG$signal twice from one process: exit $rc: $(tail -3 "$work/copy.log")"
  [ "$(json "$work/copy.json" '[r["status"] for r in d["results"]].count("passed")')" = 4 ] ||
    fail "SIG$signal twice from one process: the passes were lost: $(head -c 600 "$work/copy.json")"
done
# timeout(1) itself, signalling the run and then its group: every report, every time (3 s:
# time enough for the passes, under AddressSanitizer too).
for attempt in 1 2 3; do
  timeout -s TERM 3 "$stub" run -j 4 --timeout 30 -f 'stub/behave=hang/*:stub/behave=pass/*' --axis copy=1-4 \
    --json "$work/t$attempt.json" >"$work/t.log" 2>&1
  rc=$?
  [ $rc -eq 124 ] && [ "$(json "$work/t$attempt.json" '[r["status"] for r in d["results"]].count("passed")')" = 4 ] &&
    grep -q 'exit 143: interrupted by SIGTERM' "$work/t.log" || fail "timeout(1), attempt $attempt: exit $rc: $(tail -3 "$work/t.log")"
done
# Under --isolate none a hang keeps hostcb after the first signal: the copy that follows at
# once is ignored, a second signal from the user (not a copy: a second later) ends hostcb,
# says so, and so do its reports; a SIGKILL's marker names no cause it did not see.
"$stub" run --isolate none -f 'stub/behave=hang/*' --json "$work/second.json" --junit "$work/second.xml" >"$work/second.log" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q 'run=unfinished' "$work/second.json" 2>/dev/null && break; sleep 0.05; done
sleep 0.3
kill -s INT $pid
sleep 0.1
kill -s INT $pid
sleep 0.3
kill -0 $pid 2>/dev/null || fail "a copy of SIGINT from the same process, 0.1 s after it, ended hostcb: $(cat "$work/second.log")"
sleep 1
kill -s INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] && grep -q 'hostcb: a second signal (SIGINT): ending at once' "$work/second.log" ||
  fail "a second SIGINT: exit $rc: $(tail -3 "$work/second.log")"
grep -q 'was ended by a second SIGINT before it wrote its results' "$work/second.json" &&
  grep -q 'was ended by a second SIGINT' "$work/second.xml" || fail "the reports do not say a second SIGINT ended the run"
"$stub" run -f 'stub/behave=hang/*' --timeout 60 --json "$work/killed.json" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q 'run=unfinished' "$work/killed.json" 2>/dev/null && break; sleep 0.05; done
kill -9 $pid
wait $pid 2>/dev/null
grep -q 'has not written its results' "$work/killed.json" && ! grep -q -i 'SIGKILL\|out of memory\|a second SIG' "$work/killed.json" ||
  fail "after SIGKILL the marker guesses a cause: $(grep reason "$work/killed.json")"
echo "round three: a copy of one signal is one; a second says so, in the reports too; a SIGKILL is not guessed at"

# --- 5. a standby that dies while it waits is replaced: no scenario is blamed.
mkdir -p "$work/busy"
HOSTCB_STUB_BUSY="$work/busy" "$stub" run -j 1 --timeout 3 -f 'stub/behave=hang/*:stub/behave=slow/*' \
  --json "$work/standby.json" >"$work/standby.log" 2>&1 &
pid=$!
standby=""
for _ in $(seq 100); do
  running=$(ls "$work/busy" 2>/dev/null | sed 's/^busy-//')
  workers=$(ps -o pid= --ppid $pid | tr -d ' ')
  if [ -n "$running" ] && [ "$(echo "$workers" | wc -w)" -ge 2 ]; then
    standby=$(echo "$workers" | grep -vx "$running" | head -1)
    break
  fi
  sleep 0.05
done
[ -n "$standby" ] || { kill -9 $pid; fail "no standby beside the hanging worker"; }
sleep 0.5
kill -9 "$standby"
wait $pid
[ "$(json "$work/standby.json" '{r["id"]: r["status"] for r in d["results"]}["stub/behave=slow/copy=1"]')" = passed ] ||
  fail "a standby that died while it waited was blamed on a scenario: $(grep -A2 'behave=slow' "$work/standby.log")"
echo "round three: a standby that dies idle is replaced, blaming no scenario"

# --- 6. a run of only xfails ran: exit 0, as report and result say, not 77 (all skipped).
printf '{"format": "hostcb-expectations", "format_version": 1, "expectations": [{"id": "stub/behave=fail/*", "expect": ["failed"], "reason": "known", "link": "https://example.invalid/x"}]}\n' >"$work/xfail.jsonc"
exit_is 0 "$stub" run -f 'stub/behave=fail/*' --expectations "$work/xfail.jsonc" --json "$work/xfail.json"
grep -q 'exit 0: every scenario that ran passed or failed as listed (0 passed, 1 xfail)' "$work/out" ||
  fail "an xfail-only run: $(tail -1 "$work/out")"
exit_is 0 "$stub" result "$work/xfail.json" stub/behave=fail/copy=1
echo "round three: a run of only xfails exits 0"

# --- 7. each --filter is checked by its own rules: '-' (an unset $NEG) is refused, joined or not.
exit_is 2 "$stub" run -f 'stub/behave=pass/*' -f "-"
one_line_saying "filter '-' has an empty pattern"
exit_is 2 "$stub" list -f 'stub/behave=pass/*' -f 'stub/*-'
one_line_saying "has an empty pattern"
echo "round three: a filter of several --filter is refused when one of them is"

# --- 9. a key given twice in one object is refused: which one counts would be a guess.
python3 - "$work/o.json" "$work/dup.json" <<'PY'
import sys
text = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(text.replace('"results": [', '"results": [], "results": [', 1))
PY
exit_is 2 "$stub" report "$work/dup.json"
one_line_saying 'the key "results" is given twice in one object'
exit_is 2 "$stub" result "$work/dup.json" stub/behave=orphan/copy=1
printf '{"format": "hostcb-expectations", "format_version": 1, "expectations": [{"id": "stub/*", "expect": ["failed"], "reason": "r", "link": "l"}], "expectations": []}\n' >"$work/dup.jsonc"
exit_is 2 "$stub" run -f 'stub/behave=fail/*' --expectations "$work/dup.jsonc"
one_line_saying 'the key "expectations" is given twice'
echo "round three: duplicate JSON keys are refused"

# --- 10. a reader that went away (| head) is a failed write: one line and exit 1, never SIGPIPE.
closed_stdout() {  # runs the command with its stdout a pipe nobody reads; exit 128+N for signal N
  python3 -c '
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
done = subprocess.run(sys.argv[1:], stdout=w, stderr=open(os.environ["ERR"], "w"))
sys.exit(done.returncode if done.returncode >= 0 else 128 - done.returncode)' "$@"
}
exit_is 0 "$stub" run -f 'stub/behave=pass/*' --axis copy=1-300 --json "$work/big.json"
for args in "list" "report $work/big.json" "result $work/big.json stub/behave=pass/copy=1"; do
  # shellcheck disable=SC2086
  ERR="$work/err" closed_stdout "$stub" $args
  rc=$?
  [ $rc -eq 1 ] && [ "$(grep -c 'cannot write to stdout' "$work/err")" -eq 1 ] ||
    fail "'$args' into a closed pipe: exit $rc: $(cat "$work/err")"
done
"$stub" list -f 'stub/behave=pass/*' --axis copy=1-10000 2>"$work/err" | head -1 >/dev/null
rc=${PIPESTATUS[0]}
[ $rc -eq 1 ] && grep -q 'cannot write to stdout' "$work/err" || fail "list | head -1: exit $rc: $(cat "$work/err")"
echo "round three: list, report and result into a closed pipe exit 1 with one line"

# --- 11. adapter options: a plugin without init takes none; each option once, none empty.
exit_is 2 "$stub" list --adapter "$fake@x=1"
one_line_saying "takes no options (it has no init); '@x=1' would be dropped"
if [ -n "$python_adapter" ]; then
  exit_is 2 "$stub" list --adapter "$python_adapter@module=a,module=b"
  one_line_saying "option 'module' is given twice"
  exit_is 2 "$stub" list --adapter "$python_adapter@callable=fake_binding:launch,name="
  one_line_saying "option 'name' has an empty value"
fi
echo "round three: adapter options are refused when dropped, repeated or empty"

# --- 12. one rule for every option: given once unless it takes a list, never empty.
for args in "--shuffle=1 --shuffle=2" "-x -x" "--timeout 5 --timeout 6" "--until-fail --until-fail"; do
  # shellcheck disable=SC2086
  exit_is 2 "$stub" run -f 'stub/behave=pass/*' $args
  one_line_saying "is given 2 times; give it once (run repeats only --filter, --axis, --adapter)"
done
for args in "--shuffle=" "--json=" "--timeout="; do
  exit_is 2 "$stub" run -f 'stub/behave=pass/*' "$args"
  one_line_saying "${args%=} is given an empty value"
done
exit_is 2 "$stub" run -f 'stub/behave=pass/*' --junit ''
one_line_saying "--junit is given an empty value"
exit_is 2 "$stub" list --format text --format json
one_line_saying "--format is given 2 times"
exit_is 0 "$stub" list -f 'stub/behave=pass/*' -f 'stub/behave=fail/*' --axis copy=1 --axis behave=pass,fail
echo "round three: repeated single-valued options and empty values are refused alike"

# --- 13. report: the same file twice is one environment; the console says what the pages say.
exit_is 1 "$stub" run -f 'stub/behave=pass/*:stub/behave=fail/*' --json "$work/a.json"
ln -s a.json "$work/a-link.json"
exit_is 0 "$stub" report "$work/a.json" "$work/a.json" "$work/./a.json" "$work/a-link.json" --markdown "$work/a.md"
grep -q '^2 scenarios in 1 environment,' "$work/a.md" || fail "one file given four times: $(head -3 "$work/a.md")"
python3 - "$work/a.json" "$work/b.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["environment"]["hostname"] = "another"
d["results"][0]["status"], d["results"][0]["reason"] = "skipped", "excluded: elsewhere"
json.dump(d, open(sys.argv[2], "w"))
PY
exit_is 0 "$stub" report "$work/a.json" "$work/b.json" --markdown "$work/ab.md"
grep -q '### What differs: 1 scenario(s)' "$work/ab.md" && grep -q 'what differs: 1 scenario(s)' "$work/err" ||
  fail "console and Markdown disagree on what differs: $(cat "$work/err"); $(grep 'What differs' "$work/ab.md")"
echo "round three: report reads a file once, and its console says what its pages say"

# --- 14. smaller ones.
# result reads what report reads: no environment is no results file.
python3 - "$work/a.json" "$work/noenv.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
del d["environment"]
json.dump(d, open(sys.argv[2], "w"))
PY
exit_is 2 "$stub" result "$work/noenv.json" stub/behave=pass/copy=1
one_line_saying 'no "environment"'
exit_is 2 "$stub" report "$work/noenv.json"
# result: a run that has not finished, and a mistyped id, each said as what it is.
exit_is 1 "$stub" result "$work/a.json" stub/behave=pas/copy=1
grep -q "did you mean 'stub/behave=pass/copy=1'?" "$work/out" || fail "a mistyped id: $(cat "$work/out")"
"$stub" run -f 'stub/behave=hang/*' --timeout 60 --json "$work/running.json" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q 'run=unfinished' "$work/running.json" 2>/dev/null && break; sleep 0.05; done
exit_is 1 "$stub" result "$work/running.json" stub/behave=hang/copy=1
kill -9 $pid
wait $pid 2>/dev/null
grep -q 'the run writing it has not finished' "$work/out" || fail "result on an unfinished run: $(cat "$work/out")"
# --maxfail: the skip reason never claims how many failures the run holds.
"$stub" run -j 4 --maxfail 2 -f 'stub/behave=fail/*' --axis copy=1-12 --json "$work/maxfail.json" >/dev/null 2>&1
python3 - "$work/maxfail.json" <<'PY' || fail "--maxfail 2 at -j 4: a skip reason claims a count"
import json, sys
r = json.load(open(sys.argv[1]))["results"]
failed = sum(x["status"] == "failed" for x in r)
reasons = {x["reason"] for x in r if x["status"] == "skipped"}
print(failed, reasons, file=sys.stderr)
sys.exit(0 if failed >= 2 and reasons == {"not run: --maxfail 2 stopped the run when 2 failures had come in"} else 1)
PY
# The version: a tree without a .git of its own inside another repository names no commit.
git init -q "$work/outer" && mkdir -p "$work/outer/vendor/hostcb" &&
  git -C "$work/outer" -c user.name=t -c user.email=t@t.invalid commit -q --allow-empty -m outer || fail "git init"
"$cmake" -DSOURCE_DIR="$work/outer/vendor/hostcb" -DOUT="$work/vendored.cpp" -DGIVEN=unknown -P "$source_dir/cmake/hostcb_git_revision.cmake"
grep -q 'return "unknown"' "$work/vendored.cpp" || fail "a vendored tree names the outer commit: $(cat "$work/vendored.cpp")"
"$cmake" -DSOURCE_DIR="$work/outer" -DOUT="$work/own.cpp" -DGIVEN=unknown -P "$source_dir/cmake/hostcb_git_revision.cmake"
grep -q "return \"$(git -C "$work/outer" rev-parse --short=12 HEAD)\"" "$work/own.cpp" || fail "a tree's own commit is not named"
echo "round three: result's inputs and messages, --maxfail's reason, the version of a vendored tree"
