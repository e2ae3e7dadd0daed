#!/usr/bin/env bash
# Every mutation in tests/mutations/ still applies: its find text occurs exactly once in the
# file it names (scripts/mutation-test.sh --list; nothing is built). A patch the code moved
# away from is stale, which the full mutation run (too long for CI) would only report later.
# Prints the stale or malformed mutations, each with why, and exits 1; exits 0 when none is.
set -uo pipefail
root="${1:-$(dirname "$0")/..}"
listing="$(bash "$root/scripts/mutation-test.sh" --list 2>&1)"
rc=$?
# A line per mutation: NAME, padded, then its description, or "stale: why" / "malformed: why"
# (a description may itself say "stale": only the state after the name counts).
bad="$(grep -E '^[^ ]+ +(stale|malformed): ' <<<"$listing")"
if [ $rc -ne 0 ] || [ -n "$bad" ]; then
  echo "check_mutations_apply: mutations that no longer apply (re-point them: tests/mutations/README.md):" >&2
  if [ -n "$bad" ]; then echo "$bad" >&2; else echo "$listing" | tail -n 5 >&2; fi
  exit 1
fi
tail -n 1 <<<"$listing"
