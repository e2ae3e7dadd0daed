#!/usr/bin/env bash
# scripts/compare-pytest-hostcb.py against pytest's JUnit as pytest 8 writes a plugin's items
# (an empty classname, the name "hostcb[LAYER]::ID"), as a family classname would, and with
# one outcome changed: it must find every item in both layouts, and the difference.
# Usage: e2e_compare_pytest.sh SOURCE_DIR
set -uo pipefail
root="$1" in="$1/tests/inputs/compare"
fail() { echo "FAIL: $*" >&2; exit 1; }
for layout in pytest-8 pytest-family-classname; do
  out=$(python3 "$root/scripts/compare-pytest-hostcb.py" "$in/results.json" "$in/$layout.xml") ||
    fail "$layout: the same outcomes were not found to agree: $out"
  grep -q '^pytest: *3 items' <<<"$out" || fail "$layout: not 3 pytest items read: $out"
done
out=$(python3 "$root/scripts/compare-pytest-hostcb.py" "$in/results.json" "$in/pytest-differs.xml")
[ $? -eq 1 ] || fail "an error pytest reports as passed was not a difference: $out"
grep -q 'replays=5: hostcb error, pytest passed' <<<"$out" || fail "the difference is not named: $out"
echo "compare-pytest-hostcb.py reads pytest's items in both layouts and names a difference"
