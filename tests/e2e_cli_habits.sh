#!/usr/bin/env bash
# The CLI habits of issue 27 item 5 through the stub: --filter repeated, --maxfail N,
# --shuffle[=SEED] (printed, recorded, replayable, reports in plan order) and --allow-empty.
# Usage: e2e_cli_habits.sh HOSTCB_STUB WORK_DIR
set -uo pipefail
stub="$1" work="$2"
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
ids() { python3 -c 'import json,sys; print("\n".join(r["id"] for r in json.load(open(sys.argv[1]))["results"]))' "$1"; }

# --filter twice: positives joined, negatives joined, each applying to the whole.
"$stub" list -f 'stub/behave=pass/*-*copy=2' -f 'stub/behave=fail/*' --axis copy=1,2,3 >"$work/list" 2>/dev/null ||
  fail "two --filter options refused"
[ "$(cat "$work/list")" = "$(printf '%s\n' stub/behave=pass/copy=1 stub/behave=pass/copy=3 stub/behave=fail/copy=1 stub/behave=fail/copy=3)" ] ||
  fail "two --filter options: expected pass and fail copies 1 and 3, got: $(tr '\n' ' ' <"$work/list")"
echo "habits: --filter may be repeated, positives and negatives joined"

# --maxfail 2: the second failure stops the run, the rest are skipped with the reason.
"$stub" run -j 1 --maxfail 2 --filter 'stub/behave=fail/*' --axis copy=1,2,3,4 --json "$work/maxfail.json" >"$work/maxfail.log" 2>&1
[ $? -eq 1 ] || fail "--maxfail 2 over failures: expected exit 1"
python3 - "$work/maxfail.json" <<'PY' || fail "--maxfail 2: expected 2 failed, 2 skipped by --maxfail 2"
import json, sys
r = json.load(open(sys.argv[1]))["results"]
s = [x["status"] for x in r]
ok = s == ["failed", "failed", "skipped", "skipped"] and all("--maxfail 2" in x["reason"] for x in r[2:])
print(s, [x.get("reason") for x in r[2:]], file=sys.stderr)
sys.exit(0 if ok else 1)
PY
echo "habits: --maxfail 2 stops at the second failure"

# --shuffle=SEED: printed, in the reports' environment, the console in the run's order, the
# reports in plan order; the same seed gives the same order again.
plan=(--filter 'stub/behave=pass/*' --axis copy=1,2,3,4,5,6,7,8)
"$stub" run -j 1 "${plan[@]}" --json "$work/plain.json" >/dev/null 2>&1 || fail "the unshuffled run failed"
for k in 1 2; do
  "$stub" run -j 1 --shuffle=42 "${plan[@]}" --json "$work/shuf$k.json" --junit "$work/shuf$k.xml" >"$work/shuf$k.log" 2>&1 ||
    fail "--shuffle=42 run failed: $(tail -3 "$work/shuf$k.log")"
  grep -E '^\[[0-9]+/' "$work/shuf$k.log" | sed -E 's/.*(stub\/[^ ]*).*/\1/' >"$work/shuf$k.order"
done
grep -q 'shuffled with seed 42 (again: --shuffle=42)' "$work/shuf1.log" || fail "--shuffle=42: the seed is not printed"
grep -q '"shuffle_seed": "42"' "$work/shuf1.json" || fail "--shuffle=42: the seed is not in the JSON environment"
grep -q 'name="shuffle_seed" value="42"' "$work/shuf1.xml" || fail "--shuffle=42: the seed is not a JUnit property"
[ "$(ids "$work/shuf1.json")" = "$(ids "$work/plain.json")" ] || fail "--shuffle: the JSON is not in plan order"
[ "$(cat "$work/shuf1.order")" = "$(ids "$work/plain.json")" ] && fail "--shuffle=42 ran in plan order"
cmp -s "$work/shuf1.order" "$work/shuf2.order" || fail "--shuffle=42 twice gave two orders"
"$stub" run -j 1 --shuffle "${plan[@]}" >"$work/random.log" 2>&1 || fail "--shuffle without a seed failed"
grep -qE 'shuffled with seed [0-9]+ \(again: --shuffle=[0-9]+\)' "$work/random.log" || fail "--shuffle: no seed printed"
"$stub" run --shuffle=x "${plan[@]}" >"$work/bad.log" 2>&1
[ $? -eq 2 ] && [ "$(wc -l <"$work/bad.log")" -eq 1 ] || fail "--shuffle=x: expected one line and exit 2: $(cat "$work/bad.log")"
echo "habits: --shuffle=SEED printed, recorded, replayable, reports in plan order"

# --allow-empty: a pattern may match nothing; an empty selection writes its reports, exit 0.
"$stub" run --allow-empty --filter 'nosuch/*' --json "$work/empty.json" --junit "$work/empty.xml" >"$work/empty.log" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "--allow-empty over nothing: exit $rc, expected 0: $(cat "$work/empty.log")"
grep -q 'exit 0: the filter selects no scenario, allowed by --allow-empty' "$work/empty.log" || fail "--allow-empty: no clear line"
[ -s "$work/empty.json" ] && [ -s "$work/empty.xml" ] || fail "--allow-empty: a report was lost"
"$stub" run --allow-empty --filter 'nosuch/*:stub/behave=pass/*' >"$work/some.log" 2>&1 ||
  fail "--allow-empty with one pattern matching: the run failed"
grep -q '1 scenarios: 1 passed' "$work/some.log" || fail "--allow-empty: the pattern that matches did not run"
echo "habits: --allow-empty runs what matches, exits 0 over nothing with its reports"

# A failure's rerun line, pasted (the stub's name for hostcb's), runs that scenario alone:
# with the run's --axis, which gave the id a value the default axes lack; in the JSON too.
"$stub" run --filter 'stub/behave=fail/*' --axis copy=7 --json "$work/rerun.json" >"$work/rerun.log" 2>&1
line="$(sed -n 's/^ *rerun: hostcb //p' "$work/rerun.log")"
[ "$line" = "run --filter stub/behave=fail/copy=7 --axis copy=7" ] || fail "the rerun line: '$line'"
python3 - "$work/rerun.json" <<'PY' || fail "the JSON result carries no rerun property"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert r["properties"]["rerun"] == "hostcb run --filter stub/behave=fail/copy=7 --axis copy=7", r["properties"]
PY
# shellcheck disable=SC2086
"$stub" $line >"$work/rerun-again.log" 2>&1
grep -q '^1 scenarios: 0 passed, 1 failed' "$work/rerun-again.log" || fail "the pasted rerun line: $(tail -n 2 "$work/rerun-again.log")"
echo "habits: a failure's rerun line runs it alone, with the run's --axis"
