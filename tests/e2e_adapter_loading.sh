#!/usr/bin/env bash
# Adapter loading (D21): a path with '@' in a folder name loads; an empty path says so;
# an init that crashes is refused with one line, hostcb survives; a refused adapter whose
# init ran is torn down (inits and teardowns pair up), and one with a taken static name
# never runs its init.
# Usage: e2e_adapter_loading.sh HOSTCB_STUB WORK_DIR FAKE_OK FAKE_CRASHES FAKE_COUNTS
set -uo pipefail
stub="$1" work="$2" ok="$3" crashes="$4" counts="$5"
rm -rf "$work" && mkdir -p "$work/a@b"
fail() { echo "FAIL: $*" >&2; exit 1; }

cp "$ok" "$work/a@b/fake.so"
"$stub" list --adapter "$work/a@b/fake.so" >"$work/at.out" 2>"$work/at.err" || fail "an '@' in a folder: $(cat "$work/at.err")"
grep -q 'forward=fake' "$work/at.out" || fail "the adapter in a@b was not loaded"
# An '@' with nothing after it is refused (issue 42, item 12), naming the whole path.
"$stub" list --adapter "$work/a@b/fake.so@" >/dev/null 2>"$work/at2.err" && fail "'@' with no options was accepted"
grep -q "adapter '$work/a@b/fake.so': nothing follows its '@'" "$work/at2.err" || fail "'@' folder, '@' alone: $(cat "$work/at2.err")"

"$stub" list --adapter "" >/dev/null 2>"$work/empty.err"
code=$?
[ $code = 2 ] && grep -q -- '--adapter is given an empty value' "$work/empty.err" || fail "empty path: exit $code, $(cat "$work/empty.err")"

"$stub" run --adapter "$crashes" --json "$work/crash.json" >/dev/null 2>"$work/crash.err"
code=$?
[ $code = 2 ] || fail "an init that crashes: exit $code, expected 2: $(cat "$work/crash.err")"
[ "$(wc -l <"$work/crash.err")" = 1 ] && grep -q "crashed while being loaded and initialised in a test process" "$work/crash.err" ||
  fail "an init that crashes: $(cat "$work/crash.err")"

export FAKE_ADAPTER_LOG="$work/static.log"
"$stub" list --adapter "$counts" --adapter "$counts" >/dev/null 2>"$work/static.err"
[ $? = 2 ] && grep -q "is already loaded, as 'counted'" "$work/static.err" || fail "same library twice: $(cat "$work/static.err")"
[ "$(grep -c '^init' "$work/static.log")" = 2 ] || fail "a library loaded twice ran init again: $(cat "$work/static.log")"
# A copy of the library is another plugin with the same name ("counted", set before
# init): with options it is refused after its init ran (options may rename it), so it
# must be torn down.
cp "$counts" "$work/copy_of_counts.so"
export FAKE_ADAPTER_LOG="$work/options.log"
"$stub" list --adapter "$counts@x" --adapter "$work/copy_of_counts.so@y" >/dev/null 2>"$work/options.err"
[ $? = 2 ] && grep -q "named 'counted' is already loaded" "$work/options.err" ||
  fail "taken name with options: $(cat "$work/options.err")"
grep -q '^init y' "$work/options.log" && grep -q '^teardown y' "$work/options.log" ||
  fail "the refused adapter was not torn down: $(cat "$work/options.log")"
echo "adapter loading: '@' folders, empty path, crashing init, teardown of refused adapters"
