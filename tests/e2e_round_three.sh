#!/usr/bin/env bash
# Hardening, round three (issue 33): bad input, signals and faults as a careless or hostile
# user makes them, end to end through the stub CLI. Each section names the item it guards.
# Usage: e2e_round_three.sh HOSTCB_STUB FAKE_ADAPTER PYTHON_ADAPTER SOURCE_DIR CMAKE WORK_DIR
# (PYTHON_ADAPTER may be "": its checks are then left out.)
set -u
stub="$(realpath "$1")" fake="$(realpath "$2")" python_adapter="$3" source_dir="$4" cmake="$5" work="$6"
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
# exit_is CODE COMMAND...: runs it (stdout and stderr to $work/out, $work/err) and checks the code.
exit_is() {
  local want="$1"
  shift
  "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  [ "$rc" -eq "$want" ] || fail "exit $rc, expected $want: $*: $(head -c 600 "$work/err")"
}
one_line_saying() {
  [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q -- "$1" "$work/err" || fail "expected one line saying '$1': $(head -c 600 "$work/err")"
}
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

# --- 6. a run of only xfails ran: exit 0, as report and result say, not 77 (all skipped).
printf '{"format": "hostcb-expectations", "format_version": 1, "expectations": [{"id": "stub/behave=fail/*", "expect": ["failed"], "reason": "known", "link": "https://example.invalid/x"}]}\n' >"$work/xfail.jsonc"
exit_is 0 "$stub" run -f 'stub/behave=fail/*' --expectations "$work/xfail.jsonc" --json "$work/xfail.json"
grep -q 'exit 0: every scenario that ran passed or failed as listed (0 passed, 1 xfail)' "$work/out" ||
  fail "an xfail-only run: $(tail -1 "$work/out")"
exit_is 0 "$stub" result "$work/xfail.json" stub/behave=fail/copy=1
echo "round three: a run of only xfails exits 0"

