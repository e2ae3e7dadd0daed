#!/usr/bin/env bash
# Freed memory never reads as valid in the workers (issue 41, item 7; exec/poisoned_frees.hpp):
# stub_freed_record reads a record back after freeing it, as a layer calling through a freed
# record does. With the default poisoning it reads the poison and fails; with --no-poison, or a
# MALLOC_PERTURB_=0 the user set, it passes by luck, as such a layer does without it (under
# ASan the read itself is the error, either way).
# Usage: e2e_poisoned_frees.sh HOSTCB_STUB WORK_DIR ASAN(0|1)
set -u
stub="$1" work="$2" asan="$3"
rm -rf "$work" && mkdir -p "$work"
# shellcheck source=e2e_checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_checks.sh"  # fail, exit_is, one_line_saying
env -u MALLOC_PERTURB_ -u PYTHONMALLOC "$stub" run -v -f 'stub_freed_record/*' >"$work/on.log" 2>&1
rc=$?
[ $rc = 1 ] || fail "poisoned: exit $rc, expected 1: $(tail -3 "$work/on.log")"
if [ "$asan" = 1 ]; then
  grep -q 'heap-use-after-free' "$work/on.log" || fail "under ASan the read after free is not reported: $(tail -5 "$work/on.log")"
  echo "poisoned frees: under ASan, the read after free is ASan's error"
  exit 0
fi
grep -q 'FAILED .*stub_freed_record/read=after_free.*' "$work/on.log" &&
  grep -q 'the record read after its free holds a5a5a5a5a5a5a5a5' "$work/on.log" ||
  fail "poisoned: the freed record did not read as the poison: $(grep -A3 'stub_freed_record' "$work/on.log")"
grep -q 'MALLOC_PERTURB_ = 165' "$work/on.log" && grep -q 'PYTHONMALLOC = debug' "$work/on.log" ||
  fail "the worker's environment: $(grep -E 'MALLOC_PERTURB_|PYTHONMALLOC' "$work/on.log")"
echo "poisoned frees: on by default, the read after free fails: $(grep -o 'the record read after its free holds [0-9a-f]*' "$work/on.log")"
exit_is 0 env -u MALLOC_PERTURB_ -u PYTHONMALLOC "$stub" run -f 'stub_freed_record/*' --no-poison
echo "poisoned frees: --no-poison, the same read passes by luck"
exit_is 0 env MALLOC_PERTURB_=0 "$stub" run -f 'stub_freed_record/*'
echo "poisoned frees: a MALLOC_PERTURB_ the user set (0: off) is kept"
