#!/usr/bin/env bash
# The run's console end to end through the stub's CPU-only families: --fail-fast, --quiet,
# the verdict line, bare family filters.
# Usage: e2e_cli.sh HOSTCB_STUB WORK_DIR
set -u
stub="$1" work="$2"
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

# --fail-fast: the failure ends the run; what comes after it is skipped with the reason.
"$stub" run -x --filter 'stub/behave=fail/*:stub/behave=slow/*' --json "$work/ff.json" >"$work/ff.log" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "--fail-fast after a failure: exit $rc, expected 1"
grep -q '"reason": "not run: --fail-fast stopped the run at the first failure"' "$work/ff.json" ||
  fail "--fail-fast: the scenario after the failure is not skipped with the reason: $(cat "$work/ff.log")"
grep -q '^exit 1: 1 failed$' "$work/ff.log" || fail "no verdict line 'exit 1: 1 failed': $(cat "$work/ff.log")"
# Without it, the same selection runs both.
"$stub" run --filter 'stub/behave=fail/*:stub/behave=slow/*' --json "$work/all.json" >"$work/all.log" 2>&1
grep -q '"passed": 1' "$work/all.json" || fail "without --fail-fast the slow scenario must run"

# --quiet: failures and the summary, no line per passing scenario.
"$stub" run -q --filter 'stub/behave=pass/*:stub/behave=fail/*' >"$work/q.log" 2>&1
grep -q 'PASSED' "$work/q.log" && fail "--quiet printed a passing scenario: $(cat "$work/q.log")"
grep -q 'FAILED  stub/behave=fail/copy=1' "$work/q.log" || fail "--quiet hid the failure: $(cat "$work/q.log")"
grep -q '^2 scenarios: 1 passed, 1 failed' "$work/q.log" || fail "--quiet hid the summary"

# A passing run ends with exit 0 and its verdict; a bare family name selects the family.
"$stub" run --filter stub_forward >"$work/bare.log" 2>&1
rc=$?
[ $rc -eq 77 ] || fail "stub_forward without adapters only skips: exit $rc, expected 77"
grep -q '^exit 77: nothing ran: excluded: a built-in layer calls CUDA$' "$work/bare.log" ||
  fail "no 'exit 77: nothing ran' verdict: $(cat "$work/bare.log")"
"$stub" run --filter 'stub/behave=pass/*' >"$work/pass.log" 2>&1 || fail "a passing run must exit 0"
grep -q '^exit 0: every scenario that ran passed (1 passed)$' "$work/pass.log" || fail "no exit 0 verdict: $(cat "$work/pass.log")"
echo "cli: --fail-fast, --quiet, verdict lines and bare family filters behave"
