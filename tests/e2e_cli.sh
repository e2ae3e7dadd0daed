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

# hostcb result: one scenario's result from a run's JSON, its status as the exit code
# (what CTest's per-family mode runs for each scenario).
"$stub" run --filter 'stub/behave=pass/*:stub/behave=fail/*:stub/behave=crash/*' --json "$work/r.json" >/dev/null 2>&1
for case in pass:0:PASSED fail:1:FAILED crash:1:ERROR; do
  behave="${case%%:*}" rest="${case#*:}" want="${rest%%:*}" word="${rest#*:}"
  "$stub" result "$work/r.json" "stub/behave=$behave/copy=1" >"$work/r-$behave.log" 2>&1
  rc=$?
  [ $rc -eq "$want" ] || fail "result for $behave: exit $rc, expected $want"
  grep -q "$word  *stub/behave=$behave/copy=1" "$work/r-$behave.log" || fail "result for $behave does not print $word"
done
"$stub" run --filter stub_forward --json "$work/skip.json" >/dev/null 2>&1
"$stub" result "$work/skip.json" "stub_forward/forward=direct/op=launch_host_func" >"$work/r-skip.log" 2>&1
rc=$?
[ $rc -eq 77 ] || fail "result for a skipped scenario: exit $rc, expected 77"
"$stub" result "$work/r.json" "stub/behave=hang/copy=1" >"$work/r-missing.log" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "result for an id the run did not reach: exit $rc, expected 1"
"$stub" result "$work/ff.log" "stub/behave=pass/copy=1" 2>"$work/r-bad.err" >/dev/null
rc=$?
[ $rc -eq 2 ] || fail "result from a file that is not a results file: exit $rc, expected 2"
# An xfail is a pass for result (0), an xpass a failure (1), as for run.
fixtures="$(dirname "$0")/expectations"
"$stub" run --filter 'stub/behave=fail/*' --expectations "$fixtures/known_stub_failures.jsonc" --json "$work/xfail.json" >/dev/null 2>&1
"$stub" result "$work/xfail.json" stub/behave=fail/copy=1 >"$work/r-xfail.log" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q 'XFAIL' "$work/r-xfail.log" || fail "result for an xfail: exit $rc, expected 0: $(cat "$work/r-xfail.log")"
"$stub" run --filter 'stub/behave=pass/*' --expectations "$fixtures/fixed_bug.jsonc" --json "$work/xpass.json" >/dev/null 2>&1
"$stub" result "$work/xpass.json" stub/behave=pass/copy=1 >"$work/r-xpass.log" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q 'XPASS' "$work/r-xpass.log" || fail "result for an xpass: exit $rc, expected 1: $(cat "$work/r-xpass.log")"
echo "cli: hostcb result maps each status to its exit code"

# report: 1 when a report could not be written. With no file size allowed (ulimit -f 0)
# the path passes the check before the merge (an empty file is made and removed) and the
# write fails.
# (stderr through a pipe: the limit applies to files)
( trap '' XFSZ; ulimit -f 0; exec "$stub" report "$work/r.json" --markdown "$work/m.md" ) 2>&1 >/dev/null | cat >"$work/report-lost.log"
rc=${PIPESTATUS[0]}
[ $rc -eq 1 ] && grep -q "cannot write Markdown report '$work/m.md'" "$work/report-lost.log" ||
  fail "report whose output cannot be written: exit $rc, expected 1: $(cat "$work/report-lost.log")"
"$stub" report "$work/r.json" --markdown "$work/m.md" >/dev/null 2>&1 || fail "report: exit $?, expected 0"
echo "cli: report exits 1 when an output is lost"

# self-test --full over the stub's controls: one escapes (a control that passes), so it exits 1.
"$stub" self-test --full >"$work/self.log" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q '^exit 1: a known-bad control escaped' "$work/self.log" &&
  grep -q 'stub_control/case=escapes .* NO ' "$work/self.log" || fail "self-test with an escaping control: exit $rc: $(cat "$work/self.log")"
echo "cli: self-test exits 1 when a control escapes"


# --repeat -j 1 runs the selection N times in one worker, each result with its pass number;
# --until-fail stops at the pass that fails and leaves the later ones out.
"$stub" run -j 1 --repeat 10 --until-fail --filter stub_flaky --json "$work/uf.json" --junit "$work/uf.xml" >"$work/uf.log" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "--until-fail on a scenario that fails on its third pass: exit $rc, expected 1"
[ "$(grep -c '"id": "stub_flaky"' "$work/uf.json")" -eq 3 ] || fail "--until-fail: expected 3 passes in the JSON: $(cat "$work/uf.log")"
grep -q '"iteration": 3' "$work/uf.json" || fail "--until-fail: the failing pass carries no iteration 3"
grep -q 'FAILED  stub_flaky #3' "$work/uf.log" || fail "the console does not name the failing pass: $(cat "$work/uf.log")"
grep -q 'name="stub_flaky #2"' "$work/uf.xml" || fail "JUnit testcases of a repeated run are not told apart by pass"
"$stub" run --repeat 2 --filter 'stub/behave=pass/*' --json "$work/rep.json" >"$work/rep.log" 2>&1 || fail "--repeat 2 of a pass must exit 0"
[ "$(grep -c '"id": "stub/behave=pass/copy=1"' "$work/rep.json")" -eq 2 ] || fail "--repeat 2: expected two results"
echo "cli: --repeat and --until-fail behave"

# --budget: batch after batch of new seeds until the time is spent; the batch under way
# when it runs out is cut short, and what it did not reach is left out, not skipped.
"$stub" run --filter stub_seeded --budget 2 --json "$work/budget.json" >"$work/budget.log" 2>&1 ||
  fail "--budget over passing scenarios must exit 0: $(tail -3 "$work/budget.log")"
ran=$(grep -c '"id": "stub_seeded/seed=' "$work/budget.json")
[ "$ran" -gt 3 ] || fail "--budget 2 ran only $ran scenarios: no batch after the first"
grep -q '"id": "stub_seeded/seed=4"' "$work/budget.json" || fail "--budget: the second batch's seeds do not follow the first's"
grep -q '"status": "skipped"' "$work/budget.json" && fail "--budget reported a scenario it did not reach: $(grep -m1 -A3 skipped "$work/budget.json")"
echo "cli: --budget runs new seeds until its time is spent, and reports only what ran"

# An empty path is refused, not ignored: one line, exit 2, nothing run.
for option in "run --junit" "run --json" "run --expectations" "report --markdown"; do
  input=()
  [ "${option%% *}" = report ] && input=("$work/ff.json")
  # shellcheck disable=SC2086
  "$stub" $option '' "${input[@]}" >"$work/empty.out" 2>"$work/empty.err"
  rc=$?
  [ $rc -eq 2 ] || fail "$option '': exit $rc, expected 2"
  [ "$(wc -l <"$work/empty.err")" -eq 1 ] && grep -q -- "${option#* } is given an empty value" "$work/empty.err" ||
    fail "$option '': expected one line saying the path is empty, got: $(cat "$work/empty.err")"
  [ -s "$work/empty.out" ] && fail "$option '': something ran: $(cat "$work/empty.out")"
done
echo "cli: empty report and input paths are refused"
