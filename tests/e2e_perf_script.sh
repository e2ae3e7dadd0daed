#!/usr/bin/env bash
# scripts/perf.sh with no GPU visible: each of its eight figures reported as skipped with
# the reason, exit 0, and the file the table goes to untouched.
# Usage: e2e_perf_script.sh SOURCE_DIR HOSTCB WORK_DIR
set -uo pipefail
src="$1" hostcb="$2" work="$3"
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
printf 'before\n' >"$work/doc.md"
CUDA_VISIBLE_DEVICES="" bash "$src/scripts/perf.sh" --hostcb "$hostcb" --out "$work/out" --doc "$work/doc.md" \
  >"$work/table.md" 2>"$work/perf.log"
rc=$?
[ $rc -eq 0 ] || fail "perf.sh without a GPU: exit $rc, expected 0: $(tail -5 "$work/perf.log")"
skipped=$(grep -c '^| .* | skipped: .* | skipped: .* |' "$work/table.md")
[ "$skipped" -eq 8 ] || fail "perf.sh without a GPU: $skipped figures skipped, expected 8: $(cat "$work/table.md")"
grep -q '^<!-- perf:begin' "$work/table.md" && grep -q '^<!-- perf:end -->' "$work/table.md" || fail "no marked table"
[ "$(cat "$work/doc.md")" = before ] || fail "perf.sh without a GPU wrote its table of skips into the file"
bash "$src/scripts/perf.sh" --frobnicate >/dev/null 2>&1
[ $? -eq 2 ] || fail "perf.sh --frobnicate: expected exit 2"
echo "perf.sh: every figure skipped without a GPU, exit 0, file untouched"
