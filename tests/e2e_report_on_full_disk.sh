#!/usr/bin/env bash
# A report that cannot be written (a full disk, here a file-size limit) never leaves the
# previous run's report where CI reads this run's: the file holds the "not written"
# marker, or, where not even that fits, there is no file (issue 42, item 6). The run says
# "1 report not written" and exits 1 either way.
# Usage: e2e_report_on_full_disk.sh HOSTCB_STUB WORK_DIR
set -uo pipefail
stub="$1" work="$2"
rm -rf "$work" && mkdir -p "$work"
cd "$work" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
# LIMIT_KB REPORT-OPTION: a run of 30 passes under a file-size limit (SIGXFSZ ignored, so a
# write past it fails with EFBIG as on a full disk) over a report holding an old green run.
run_limited() {
  cp "$work/previous$2" "$work/r.out"
  (trap '' XFSZ; ulimit -f "$1"; exec "$stub" run -q -f 'stub/behave=pass/*' --axis copy=1-30 "$2" "$work/r.out") \
    >"$work/log" 2>&1
}
# The previous run's reports: green.
"$stub" run -q -f 'stub/behave=pass/*' --axis copy=1-3 --junit "$work/previous--junit" --json "$work/previous--json" \
  >"$work/log" 2>&1 || fail "the previous run: $(cat "$work/log")"
for option in --junit --json; do
  run_limited 1 "$option"  # 1 KiB: not even the marker fits
  rc=$?
  [ $rc -eq 1 ] && grep -q '1 report not written' "$work/log" || fail "$option, marker too large: exit $rc: $(cat "$work/log")"
  [ ! -e "$work/r.out" ] || fail "$option: the previous run's report was left in place: $(head -c 300 "$work/r.out")"
  run_limited 4 "$option"  # 4 KiB: the marker fits, the report of 30 does not
  rc=$?
  [ $rc -eq 1 ] || fail "$option, report too large: exit $rc: $(cat "$work/log")"
  grep -q 'has not written its results' "$work/r.out" || fail "$option: not the marker: $(head -c 200 "$work/r.out")"
done
echo "a report that cannot be written leaves the marker or no file, never the previous run's"
