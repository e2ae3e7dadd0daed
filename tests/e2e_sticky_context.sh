#!/usr/bin/env bash
# A scenario that leaves its context holding a sticky error (sim_leaves_fault: the CPU
# stand-in's device fault) ends in error, naming that error; its worker retires, and every
# other scenario ends as it does alone, in any order and with any workers: -j 1, -j 4 and
# three --shuffle seeds give every id the same status (issue 32 item 2). A scenario that
# fails or errs retires its worker as well: what a broken layer did to the process (a
# corrupted heap) cannot reach the next scenario.
# Usage: e2e_sticky_context.sh HOSTCB_STUB WORK_DIR SAME_VERDICTS_PY
set -uo pipefail
stub="$1" work="$2" same="$3"
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
others='sim_replay/*:sim_stream_callback/*'

"$stub" run -q -j 1 --filter "$others" --json "$work/alone.json" >"$work/alone.log" 2>&1 ||
  fail "the other scenarios alone did not all pass: $(tail -3 "$work/alone.log")"

runs=()
for how in "-j 1" "-j 4" "-j 1 --shuffle=1" "-j 1 --shuffle=2" "-j 2 --shuffle=3"; do
  name="$work/run$(echo "$how" | tr -dc 'a-z0-9').json"
  # shellcheck disable=SC2086
  "$stub" run -q $how --filter "sim_leaves_fault/*:$others" --axis copy=1-3 --json "$name" >"$name.log" 2>&1
  rc=$?
  [ $rc -eq 1 ] || fail "run $how: exit $rc, expected 1 (the three faulting scenarios' errors): $(tail -3 "$name.log")"
  runs+=("$name")
done

# Each run: the faulting scenarios in error, naming the sticky error and the retirement; the
# others as alone (all passed).
for run in "${runs[@]}"; do
  python3 - "$run" "$work/alone.json" <<'PY' || fail "$run: see above"
import json, sys
run = json.load(open(sys.argv[1]))["results"]
alone = {r["id"]: r["status"] for r in json.load(open(sys.argv[2]))["results"]}
bad = 0
for r in run:
    if r["family"] == "sim_leaves_fault":
        ok = (r["status"] == "error" and "the context holds sim_error_700" in r["reason"]
              and "worker_retired" in r["properties"])
    else:
        ok = r["status"] == alone.get(r["id"])
    if not ok:
        bad += 1
        print(f"{r['id']}: {r['status']}: {r['reason'][:200]}")
sys.exit(1 if bad else 0)
PY
done
python3 "$same" "${runs[@]}" || fail "the runs' statuses differ by id"
echo "a sticky context error retires its worker: every other id's status is its own in 5 orders"

# Failed and erred scenarios retire their workers too; passed ones do not.
rm -rf "$work/processes" && mkdir -p "$work/processes"
HOSTCB_STUB_PROCESSES="$work/processes" "$stub" run -q -j 1 --filter 'stub/behave=pass/*:stub/behave=fail/*' \
  --axis copy=1-3 --json "$work/failures.json" >"$work/failures.log" 2>&1
[ $? -eq 1 ] || fail "three passes and three failures: expected exit 1: $(tail -3 "$work/failures.log")"
workers=$(find "$work/processes" -name 'shared-*' | wc -l)
[ "$workers" = 3 ] || fail "three passes then three failures ran in $workers workers; expected 3 (each failure retires its own)"
python3 - "$work/failures.json" <<'PY' || fail "worker_retired on the wrong results (see above)"
import json, sys
bad = [r["id"] for r in json.load(open(sys.argv[1]))["results"]
       if ("worker_retired" in r["properties"]) != (r["status"] == "failed")]
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
echo "a failed scenario retires its worker; a passed one does not"
