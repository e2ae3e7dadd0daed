#!/usr/bin/env bash
# Issue 36's expectations end to end through the stub (no GPU needed):
#   list --expectations marks each scenario with the entry that applies to it and says, per
#   entry, how many of the listed scenarios it marks or why it applies to none (text and JSON)
#   run reads the shipped file by default, found beside the binary (BIN/../share/hostcb/ in
#   an install or the wheel), names it on stderr when one of its entries may apply, and reads
#   none with --no-expectations or HOSTCB_EXPECTATIONS set empty; HOSTCB_EXPECTATIONS=FILE
#   reads FILE, and --expectations FILE wins over both
# Usage: e2e_expectations_shipped.sh HOSTCB_STUB FAKE_ADAPTER FIXTURES_DIR WORK_DIR
set -u
stub="$1" fake="$2" fixtures="$3" work="$4"
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
unset HOSTCB_EXPECTATIONS

# list --expectations: an entry of two ids, one narrowed by an axis range, one for a layer not loaded.
preview="$fixtures/list_preview.jsonc"
"$stub" list --filter 'stub/behave=pass/*:stub/behave=fail/*:stub/behave=crash/*' --axis copy=1,2 --expectations "$preview" \
  >"$work/list.out" 2>"$work/list.err" || fail "list --expectations: exit $?: $(cat "$work/list.err")"
tab=$'\t'
for line in "stub/behave=fail/copy=1${tab}(expected to end failed or error: $preview:6)" \
            "stub/behave=crash/copy=2${tab}(expected to end failed or error: $preview:6)" \
            "stub/behave=pass/copy=1${tab}(expected to end failed: $preview:7)" \
            "stub/behave=pass/copy=2"; do
  grep -qxF "$line" "$work/list.out" || fail "list --expectations does not print '$line': $(cat "$work/list.out")"
done
[ "$(wc -l <"$work/list.out")" = 6 ] || fail "list --expectations printed other than the 6 ids: $(cat "$work/list.out")"
for line in "6 scenarios (0 excluded, 0 known-bad controls)" \
            "$preview:6: applies to 4 of these scenarios (stub/behave=fail/*, stub/behave=crash/*)" \
            "$preview:7: applies to 1 of these scenarios (stub/behave=pass/*)" \
            "$preview:8: applies to none: no loaded layer reports cuda-bindings (stub/*)"; do
  grep -qxF "$line" "$work/list.err" || fail "list --expectations does not say '$line': $(cat "$work/list.err")"
done
grep -q "^2 of 3 entries apply (layers: none loaded; driver .*); they mark 5 of these scenarios$" "$work/list.err" ||
  fail "list --expectations does not sum up: $(cat "$work/list.err")"
"$stub" list --filter 'stub/behave=pass/*:stub/behave=fail/*:stub/behave=crash/*' --axis copy=1,2 --expectations "$preview" \
  --format json >"$work/list.json" 2>/dev/null || fail "list --expectations --format json: exit $?"
python3 - "$work/list.json" <<'PY' || fail "list --format json does not carry the entries and marks"
import json, sys
doc = json.load(open(sys.argv[1]))
entries = doc["expectations"]["entries"]
assert [(e["line"], e["applies"], e["scenarios"]) for e in entries] == [(6, True, 4), (7, True, 1), (8, False, 0)], entries
assert entries[0]["ids"] == ["stub/behave=fail/*", "stub/behave=crash/*"] and entries[1]["link"] == "", entries
assert entries[2]["why_not"] == "no loaded layer reports cuda-bindings", entries
marks = {s["id"]: s["expectation_line"] for s in doc["scenarios"]}
assert marks == {"stub/behave=pass/copy=1": 7, "stub/behave=pass/copy=2": None, "stub/behave=fail/copy=1": 6,
                 "stub/behave=fail/copy=2": 6, "stub/behave=crash/copy=1": 6, "stub/behave=crash/copy=2": 6}, marks
PY
"$stub" list --families --expectations "$preview" >/dev/null 2>"$work/families.err"
[ $? = 2 ] || fail "list --families --expectations should be refused"

# An install: BIN/hostcb and BIN/../share/hostcb/known-layer-bugs.jsonc (here the stub and a
# stand-in keyed on the fake adapter's fake-binding 1.2.3).
prefix="$work/prefix"
mkdir -p "$prefix/bin" "$prefix/share/hostcb"
cp "$stub" "$prefix/bin/hostcb"
cp "$fixtures/fake_binding_bugs.jsonc" "$prefix/share/hostcb/known-layer-bugs.jsonc"
shipped="$prefix/bin/../share/hostcb/known-layer-bugs.jsonc"
installed() { "$prefix/bin/hostcb" run --isolate none --filter 'stub/behave=pass/*:stub/behave=fail/*' --adapter "$fake" "$@"; }

installed >"$work/default.log" 2>&1
rc=$?
[ $rc = 0 ] || fail "the shipped file read by default should make the known failure an xfail: exit $rc: $(cat "$work/default.log")"
grep -qxF "hostcb: expectations: $shipped (the shipped default; --no-expectations or HOSTCB_EXPECTATIONS= for none)" \
  "$work/default.log" || fail "the shipped file read by default is not named: $(cat "$work/default.log")"
grep -q "XFAIL   stub/behave=fail/copy=1" "$work/default.log" || fail "no xfail by default: $(cat "$work/default.log")"
"$prefix/bin/hostcb" list --expectations shipped --filter 'stub/behave=fail/*' --adapter "$fake" >/dev/null 2>"$work/list-shipped.err" ||
  fail "list --expectations shipped: exit $?"
grep -qxF "$shipped:7: applies to 1 of these scenarios (stub/behave=fail/*)" "$work/list-shipped.err" ||
  fail "list --expectations shipped did not read the installed file: $(cat "$work/list-shipped.err")"

for off in "--no-expectations" "HOSTCB_EXPECTATIONS="; do
  if [ "$off" = --no-expectations ]; then installed --no-expectations; else HOSTCB_EXPECTATIONS= installed; fi >"$work/off.log" 2>&1
  rc=$?
  [ $rc = 1 ] || fail "$off should read no expectations, so the failure fails the run: exit $rc"
  grep -q "expectations:" "$work/off.log" && fail "$off still named an expectations file: $(cat "$work/off.log")"
done
HOSTCB_EXPECTATIONS="$fixtures/fixed_bug.jsonc" installed >"$work/variable.log" 2>&1
[ $? = 1 ] && grep -q "XPASS   stub/behave=pass/copy=1" "$work/variable.log" || fail "HOSTCB_EXPECTATIONS=FILE was not read: $(cat "$work/variable.log")"
HOSTCB_EXPECTATIONS="$fixtures/fixed_bug.jsonc" installed --expectations "$fixtures/known_stub_failures.jsonc" >"$work/given.log" 2>&1 ||
  fail "--expectations FILE should win over HOSTCB_EXPECTATIONS: exit $?: $(cat "$work/given.log")"
installed --no-expectations --expectations "$fixtures/known_stub_failures.jsonc" >/dev/null 2>"$work/both.err"
[ $? = 2 ] || fail "--no-expectations with --expectations should be refused"

# Without a loaded layer that the shipped file names, the default changes nothing and says nothing:
# the build tree's own shipped file (BUILD/share/hostcb/, a link to expectations/known-layer-bugs.jsonc).
"$stub" run --isolate none --filter 'stub/behave=fail/*' >"$work/plain.log" 2>&1
[ $? = 1 ] || fail "a failure with no layer loaded should fail the run: $(cat "$work/plain.log")"
grep -q "expectations" "$work/plain.log" && fail "the shipped default spoke without a layer it names: $(cat "$work/plain.log")"

# A broken expectations file the command line does not name (issue 42, item 10): one line that
# says whose it is and how to run without it, exit 2, nothing run.
printf '{"format": "hostcb-expectations", "format_version": 1, "expectations": [}\n' >"$work/broken.jsonc"
HOSTCB_EXPECTATIONS="$work/broken.jsonc" installed >"$work/broken-variable.out" 2>"$work/broken-variable.err"
[ $? = 2 ] && [ "$(wc -l <"$work/broken-variable.err")" = 1 ] && [ ! -s "$work/broken-variable.out" ] &&
  grep -q "broken.jsonc:1:.*(named by \$HOSTCB_EXPECTATIONS; set it empty for none" "$work/broken-variable.err" ||
  fail "a broken HOSTCB_EXPECTATIONS file: not one line naming the variable: $(cat "$work/broken-variable.err")"
cp "$work/broken.jsonc" "$prefix/share/hostcb/known-layer-bugs.jsonc"
installed >"$work/broken-shipped.out" 2>"$work/broken-shipped.err"
[ $? = 2 ] && [ "$(wc -l <"$work/broken-shipped.err")" = 1 ] &&
  grep -q "known-layer-bugs.jsonc:1:.*(the shipped default expectations, read without --expectations; --no-expectations or HOSTCB_EXPECTATIONS= runs without them)" "$work/broken-shipped.err" ||
  fail "a broken shipped file: not one line naming it as the default: $(cat "$work/broken-shipped.err")"
installed --no-expectations >/dev/null 2>&1
[ $? = 1 ] || fail "--no-expectations beside a broken shipped file should run (and fail on the known failure)"
echo "expectations: list --expectations, the shipped default and its off switches behave"
