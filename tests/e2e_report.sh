#!/usr/bin/env bash
# `hostcb report` end to end on results files: two runs that differ only in a layer's
# versions are two columns, each labelled with its versions; an old format 2 file (describe
# text only) merges with a format 3 one, told apart by the describe text; "What differs"
# explains the differing rows in one line.
# Usage: e2e_report.sh HOSTCB_STUB INPUTS_DIR WORK_DIR
set -u
stub="$1" inputs="$2" work="$3"
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
new="$inputs/format3_cuda_bindings_13.5.0.json" old="$inputs/format2_cuda_bindings_13.3.1.json"

# The same run with only the versions map changed (the describe text is left as it was).
sed 's/"cuda-bindings": "13\.5\.0"/"cuda-bindings": "13.6.0"/' "$new" >"$work/13.6.0.json"
grep -q '"cuda-bindings": "13.6.0"' "$work/13.6.0.json" || fail "sed did not change the versions map"
[ "$(diff "$new" "$work/13.6.0.json" | grep -c '^>')" -eq 1 ] || fail "more than the versions map changed"
"$stub" report "$new" "$work/13.6.0.json" --markdown "$work/versions.md" --json "$work/versions.json" \
  2>"$work/versions.log" || fail "report: exit $?: $(cat "$work/versions.log")"
grep -q '2 environments' "$work/versions.log" || fail "one column for two layer versions: $(cat "$work/versions.log")"
grep -q '#1 580.159.04, CUDA 13.0, device 0, cuda-bindings 13.5.0, cuda-python 13.5.0 |' "$work/versions.md" ||
  fail "column 1 does not name cuda-bindings 13.5.0: $(grep '^| scenario' "$work/versions.md")"
grep -q '#2 580.159.04, CUDA 13.0, device 0, cuda-bindings 13.6.0, cuda-python 13.5.0 |' "$work/versions.md" ||
  fail "column 2 does not name cuda-bindings 13.6.0: $(grep '^| scenario' "$work/versions.md")"
grep -q '"label": "580.159.04 · CUDA 13.0 · NVIDIA H200 · gpu-h200-1 · cuda-bindings 13.6.0, cuda-python 13.5.0"' \
  "$work/versions.json" || fail "the matrix JSON's label for 13.6.0"

# Format 2 beside format 3.
"$stub" report "$old" "$new" --markdown "$work/mixed.md" 2>"$work/mixed.log" ||
  fail "report of a format 2 and a format 3 file: exit $?: $(cat "$work/mixed.log")"
grep -q '6 scenarios in 2 environments; what differs: 4 scenario(s)' "$work/mixed.log" || fail "mixed: $(cat "$work/mixed.log")"
grep -q '#1 580.159.04, CUDA 13.0, device 0, cuda.*runtime.*: Python 3.12.3; cuda-bindings 13.3.1;' "$work/mixed.md" ||
  fail "the format 2 column is not told apart by its describe text: $(grep '^| scenario' "$work/mixed.md")"
grep -q '#2 580.159.04, CUDA 13.0, device 0, cuda-bindings 13.5.0, cuda-python 13.5.0 |' "$work/mixed.md" ||
  fail "the format 3 column: $(grep '^| scenario' "$work/mixed.md")"
# The differing rows explained before the tables: replays 2 and 5 crashed under 13.3.1 only.
grep -q '^- replay\\: replays ≥ 2 \\(4 scenarios\\)\\: error in \\#1, passed in \\#2$' "$work/mixed.md" ||
  fail "no explanation line: $(grep -A3 'What differs' "$work/mixed.md")"
echo "report: layer versions label the columns; format 2 merges with format 3; the differences explained"
