#!/usr/bin/env bash
# Expectations end to end through the stub's CPU-only families (no GPU needed):
#   a listed failure becomes xfail and the run passes (exit 0); JUnit shows it as a skip
#   a listed failure that passes becomes xpass and the run fails (exit 1); JUnit: a failure
#   a malformed file stops the run before anything runs: one line with line:column, exit 2
# Usage: e2e_expectations.sh HOSTCB_STUB FIXTURES_DIR WORK_DIR [XMLLINT XSD]
set -u
stub="$1" fixtures="$2" work="$3" xmllint="${4:-}" xsd="${5:-}"
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
run() { "$stub" run --isolate none --filter 'stub/behave=pass/*:stub/behave=fail/*' "$@"; }

run --expectations "$fixtures/known_stub_failures.jsonc" --junit "$work/xfail.xml" --json "$work/xfail.json" >"$work/xfail.log" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "a known failure should leave the run green: exit $rc"; 
grep -q '"status": "xfail"' "$work/xfail.json" || fail "no xfail status in JSON"
grep -q '"xfail": 1' "$work/xfail.json" || fail "summary does not count 1 xfail"
grep -q '<skipped message="xfail: the stub fails on purpose (https://example.invalid/stub-fails); ' "$work/xfail.xml" ||
  fail "JUnit does not show the xfail as a skip with its reason"
grep -q '1 xfail, 0 xpass' "$work/xfail.log" || fail "console summary does not count the xfail"
# Expectations are applied before the console streams: the line itself says XFAIL.
grep -q '^\[2/2\] XFAIL   stub/behave=fail/copy=1' "$work/xfail.log" || fail "the console line of an xfail does not say XFAIL"
grep -q 'FAILED' "$work/xfail.log" && fail "an expected failure printed FAILED: $(cat "$work/xfail.log")"

# Warned about: an entry that names no scenario this binary could run (a typo), never one
# the run's own filter leaves out (a shipped file names every layer's bugs; a run covers one).
"$stub" run --isolate none --filter 'stub/behave=pass/*' --expectations "$fixtures/one_typo.jsonc" >"$work/typo.log" 2>&1 ||
  fail "a run with an expectations file that has a typo: exit $?"
grep -q 'one_typo.jsonc:8: warning: "stub/behave=fial/\*" matches no scenario' "$work/typo.log" ||
  fail "the typo was not warned about: $(cat "$work/typo.log")"
[ "$(grep -c warning "$work/typo.log")" = 1 ] || fail "an entry the filter leaves out was warned about: $(grep warning "$work/typo.log")"

run --expectations "$fixtures/fixed_bug.jsonc" --junit "$work/xpass.xml" --json "$work/xpass.json" >"$work/xpass.log" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "a listed failure that passes must fail the run: exit $rc"
grep -q '"status": "xpass"' "$work/xpass.json" || fail "no xpass status in JSON"
grep -q '<failure type="xpass" message="xpass: listed as failing (was broken once (https://example.invalid/fixed)) but passed' "$work/xpass.xml" ||
  fail "JUnit does not show the xpass as a failure"
grep -q '"status": "failed"' "$work/xpass.json" || fail "the unlisted failure must stay failed"
grep -q '^\[1/2\] XPASS   stub/behave=pass/copy=1' "$work/xpass.log" || fail "the console line of an xpass does not say XPASS"

if [ -n "$xmllint" ]; then
  for f in xfail xpass; do "$xmllint" --noout --schema "$xsd" "$work/$f.xml" 2>"$work/$f.schema" || fail "$f.xml breaks the schema: $(cat "$work/$f.schema")"; done
fi

# A value nested 200,000 deep (a recursive copy crashed on it): refused by the depth limit.
{ printf '{"format": "hostcb-expectations", "format_version": 1, "expectations": [{"expect": '
  printf '%200000s' '' | tr ' ' '['; printf '%200000s' '' | tr ' ' ']'; printf '}]}'; } >"$work/deep.jsonc"
for bad in malformed:8:13 unknown_key:6:22 format_number:2:3 bad_version:6:72 min_above_max:5:72 deep:1:97; do
  name="${bad%%:*}" where="${bad#*:}"
  file="$fixtures/$name.jsonc"
  [ -e "$file" ] || file="$work/$name.jsonc"
  run --expectations "$file" --junit "$work/$name.xml" >"$work/$name.out" 2>"$work/$name.err"
  rc=$?
  [ $rc -eq 2 ] || fail "$name: exit $rc, expected 2"
  [ "$(wc -l <"$work/$name.err")" -eq 1 ] || fail "$name: expected one line, got: $(cat "$work/$name.err")"
  grep -q "$name.jsonc:$where: " "$work/$name.err" || fail "$name: no $where in: $(cat "$work/$name.err")"
  [ ! -e "$work/$name.xml" ] && [ ! -s "$work/$name.out" ] || fail "$name: something ran"
  echo "refused: $(cat "$work/$name.err")"
done

# An entry about axis values the defaults lack, with a run whose --axis makes them (issue 42,
# item 9): it applies (copies 2 and 3 xfail) and no warning says it matches nothing.
printf '%s' '{"format": "hostcb-expectations", "format_version": 1, "expectations": [
  {"id": "stub/behave=fail/*", "axes": {"copy": ">=2"}, "expect": ["failed"], "reason": "r", "link": "l"}]}' \
  >"$work/widened.jsonc"
"$stub" run --isolate none --filter 'stub/behave=fail/*' --axis copy=1-3 --expectations "$work/widened.jsonc" \
  >"$work/widened.out" 2>"$work/widened.err"
grep -q '3 scenarios: 0 passed, 1 failed, 0 errors, 0 skipped, 2 xfail' "$work/widened.out" ||
  fail "--axis copy=1-3: not 1 failed, 2 xfail: $(tail -3 "$work/widened.out")"
! grep -q 'matches no scenario' "$work/widened.err" || fail "--axis copy=1-3: warned the entry matches nothing: $(cat "$work/widened.err")"
echo "expectations: xfail, xpass and refusals behave"
