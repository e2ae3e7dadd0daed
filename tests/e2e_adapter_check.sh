#!/usr/bin/env bash
# An adapter's check in a test process, through the real binary (issue 26, item 7): SIGTERM
# while its init hangs ends hostcb at once with 143 and no child left behind; an init that
# starts a background process holds neither the check nor a worker, and what it started
# in the check child and in a worker is gone afterwards.
# Usage: e2e_adapter_check.sh HOSTCB_STUB WORK_DIR INIT_HANGS INIT_FORKS
set -uo pipefail
stub="$1" work="$2" hangs="$3" forks="$4"
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
gone() { [ ! -e "/proc/$1" ] || grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
gone_soon() { for _ in $(seq 20); do gone "$1" && return 0; sleep 0.05; done; return 1; }  # SIGKILL takes a moment
ended_within() {  # PID, tenths of a second
  for _ in $(seq "$2"); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
  ! kill -0 "$1" 2>/dev/null
}

# 1. SIGTERM while the check's init hangs.
log="$work/hangs.log"
FAKE_ADAPTER_LOG="$log" "$stub" list --adapter "$hangs" >"$work/hangs.out" 2>"$work/hangs.err" &
pid=$!
for _ in $(seq 50); do grep -qs '^init ' "$log" && break; sleep 0.1; done
child=$(awk '$1 == "init" { print $2; exit }' "$log" 2>/dev/null)
[ -n "$child" ] || { kill -KILL "$pid"; fail "the check's init never ran"; }
kill -TERM "$pid"
ended_within "$pid" 50 || { kill -KILL "$pid" "$child"; fail "SIGTERM did not end hostcb while an adapter's init hung in its check"; }
wait "$pid"
rc=$?
[ $rc -eq 143 ] || fail "SIGTERM during the check: exit $rc, expected 143: $(cat "$work/hangs.err")"
grep -q "interrupted while its init ran in a test process" "$work/hangs.err" || fail "no line saying so: $(cat "$work/hangs.err")"
gone_soon "$child" || { kill -KILL "$child"; fail "the check's child outlived hostcb"; }
echo "SIGTERM during an adapter's hanging init: exit 143, the check's child gone"

# 2. An init that starts a process which sleeps 20 s with every descriptor it inherited:
# `list` and a run (its worker loads the adapter too) finish at once. Left running after:
# only what hostcb's own, in-process init started; the fake logs "forked CHILD PARENT".
for what in "list" "run --filter stub/behave=pass/*"; do
  log="$work/forks.log"
  rm -f "$log"
  SECONDS=0
  # shellcheck disable=SC2086
  FAKE_ADAPTER_LOG="$log" "$stub" $what --adapter "$forks" >"$work/forks.out" 2>&1 &
  pid=$!
  ended_within "$pid" 50 || fail "$what with an adapter whose init starts a background process: still running after 5 s"
  wait "$pid"
  rc=$?
  took=$SECONDS
  [ $rc -eq 0 ] || fail "$what with a forking init: exit $rc: $(tail -3 "$work/forks.out")"
  [ "$(grep -c '^forked ' "$log")" -ge 2 ] || fail "$what: the fake's init did not run in a child and in hostcb"
  while read -r _ forked parent; do
    if [ "$parent" = "$pid" ]; then  # started by hostcb's own init: hostcb's, as for any library
      kill -KILL "$forked" 2>/dev/null
    elif ! gone_soon "$forked"; then
      kill -KILL "$forked"
      fail "$what: a process the adapter's init started in a check child or a worker was left running"
    fi
  done < <(grep '^forked ' "$log")
  echo "$what with an init that starts a background process: done in about $took s, nothing it started in a child left behind"
done
