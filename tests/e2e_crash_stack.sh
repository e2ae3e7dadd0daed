#!/usr/bin/env bash
# A crash report says where the worker crashed: the crashing thread's stack line ("hostcb
# stack: thread TID (NAME): innermost < caller < ..."), for a SIGSEGV and an abort, and the
# worker still dies of the signal it got. A sanitizer build keeps its own report instead.
# Usage: e2e_crash_stack.sh HOSTCB_STUB WORK_DIR
set -uo pipefail
stub="$1" work="$2"
rm -rf "$work" && mkdir -p "$work"
"$stub" run -j 1 --filter 'stub/behave=crash/*:stub/behave=abort/*' --axis copy=1 --json "$work/crash.json" \
  >"$work/crash.log" 2>&1
[ $? = 1 ] || { echo "FAIL: expected exit 1: $(tail -3 "$work/crash.log")" >&2; exit 1; }
python3 - "$work/crash.json" <<'PY'
import json, sys
bad = []
for r in json.load(open(sys.argv[1]))["results"]:
    how, reason = r["id"].split("/")[1].split("=")[1], r.get("reason", "")
    signal = {"crash": "SIGSEGV", "abort": "SIGABRT"}[how]
    if r["status"] == "error" and "Sanitizer" in reason:
        continue  # a sanitizer build: its own report, with its own stack, and its own exit
    if r["status"] != "error" or f"killed by signal {signal}" not in reason:
        bad.append(f"{r['id']}: {r['status']}: expected an error naming {signal}: {reason!r}")
    elif "hostcb stack: thread" not in reason or "hostcb::Runner::run" not in reason:
        bad.append(f"{r['id']}: no stack line from the crashing thread: {reason!r}")
for line in bad: print("FAIL:", line, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
[ $? = 0 ] || exit 1
echo "crash stack: a SIGSEGV and an abort each name where the crashing thread was"
