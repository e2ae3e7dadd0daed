#!/usr/bin/env bash
# Bad input and faults as a careless or hostile user makes them (issue 26), end to end
# through the real binaries: each check names what it guards.
# Usage: e2e_hardening.sh HOSTCB HOSTCB_STUB FAKE_ADAPTER WORK_DIR [XMLLINT XSD]
set -u
hostcb="$(realpath "$1")" stub="$(realpath "$2")" fake="$(realpath "$3")" work="$4" xmllint="${5:-}" xsd="${6:-}"
rm -rf "$work" && mkdir -p "$work"
# shellcheck source=e2e_checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_checks.sh"  # fail, exit_is, one_line_saying

# --- 1. every --repeat pass is kept: the failing pass is what report and result show.
exit_is 1 "$stub" run -j 1 -f stub_flaky --repeat 4 --json "$work/rep.json"  # one worker: the stub counts passes in it
exit_is 0 "$stub" report "$work/rep.json"
grep -q 'failed' "$work/out" || fail "report hides the failed pass: $(cat "$work/out")"
exit_is 0 "$stub" report "$work/rep.json" --json "$work/rep-matrix.json"
grep -q '"status": "failed"' "$work/rep-matrix.json" && grep -q 'pass 3 of 4; 1 failed, 3 passed' "$work/rep-matrix.json" ||
  fail "the matrix does not say which pass failed: $(cat "$work/rep-matrix.json")"
exit_is 1 "$stub" result "$work/rep.json" stub_flaky
[ "$(grep -c 'stub_flaky #' "$work/out")" -eq 4 ] || fail "result does not list every pass: $(cat "$work/out")"
grep -q 'FAILED  stub_flaky #3' "$work/out" && grep -q '^4 results for stub_flaky; the worst: failed$' "$work/out" ||
  fail "result does not name the failing pass: $(cat "$work/out")"
echo "hardening: every --repeat pass is kept by report and result"

# --- 2. an output never replaces an input.
cp "$work/rep.json" "$work/v.json"
exit_is 2 "$stub" report "$work/v.json" --markdown "$work/v.json"
one_line_saying "is the results file '$work/v.json' this command reads"
cmp -s "$work/rep.json" "$work/v.json" || fail "report replaced its input"
printf '{"format": "hostcb-expectations", "format_version": 1, "expectations": []}\n' >"$work/e.json"
cp "$work/e.json" "$work/e.keep"
ln -s e.json "$work/e-link.json"
exit_is 2 "$stub" run -f 'stub/behave=pass/*' --expectations "$work/e-link.json" --junit "$work/e.json"
one_line_saying "is the expectations file"
cmp -s "$work/e.json" "$work/e.keep" || fail "run replaced its expectations file"
cp "$fake" "$work/fake_copy.so"
exit_is 2 "$stub" run -f 'stub/behave=pass/*' --adapter "$work/fake_copy.so" --json "$work/fake_copy.so"
one_line_saying "is the adapter"
echo "hardening: outputs naming an input are refused"

# --- 3. a write to stdout that fails fails the command.
exit_is 0 "$stub" run -f 'stub/behave=pass/*' --json "$work/pass.json"
if [ -w /dev/full ]; then
  for args in "list" "report $work/pass.json" "result $work/pass.json stub/behave=pass/copy=1" "--help"; do
    # shellcheck disable=SC2086
    "$stub" $args >/dev/full 2>"$work/err"
    rc=$?
    [ $rc -eq 1 ] && grep -q 'cannot write to stdout' "$work/err" ||
      fail "'$args >/dev/full': exit $rc: $(cat "$work/err")"
  done
fi
"$stub" list >&- 2>"$work/err"
rc=$?
[ $rc -eq 1 ] && grep -q 'cannot write to stdout: Bad file descriptor' "$work/err" || fail "'list >&-': exit $rc: $(cat "$work/err")"
# A closed stdout is never reused for a report: the JSON gets JSON, the command says so.
"$stub" run -f 'stub/behave=pass/*' --json "$work/closed.json" >&- 2>"$work/err"
rc=$?
[ $rc -eq 1 ] && grep -q '"format": "hostcb-results"' "$work/closed.json" && ! grep -q 'PASSED' "$work/closed.json" ||
  fail "'run >&-': exit $rc: $(cat "$work/err")"
echo "hardening: stdout write errors fail list, report, result, run and --help"

# --- 4. a long argument is a usage error, never a crash.
exit_is 2 "$stub" list --adapter "$(head -c 30000 /dev/zero | tr '\0' a)"
echo "hardening: a 30,000-letter --adapter is refused"

# --- 5, 6. one bound on the planned combinations, counted before anything is expanded.
exit_is 2 timeout 20 "$hostcb" list -f 'replay/*' --axis replays=1-1000000
one_line_saying "the selection names more than 1000000 scenarios"
limit_memory="ulimit -v 4000000"  # AddressSanitizer reserves terabytes of shadow address space: no limit there
readelf -d "$hostcb" 2>/dev/null | grep -q libasan && limit_memory=:
( $limit_memory; exec "$hostcb" list -f replay --axis replays=1-1000 --axis streams=1-1000 ) >"$work/out" 2>"$work/err" ||
  fail "replay ids in 4 GB: $(cat "$work/err")"
[ "$(wc -l <"$work/out")" -eq 40020 ] || fail "expected 40,020 replay ids (60,000 less the oneshot controls), got $(wc -l <"$work/out")"
exit_is 2 timeout 20 "$hostcb" list -f fuzz --axis seed=1-1000000
one_line_saying "the selection names more than 1000000 scenarios"
start=$(date +%s)
exit_is 0 timeout 60 "$hostcb" list -f 'fuzz/forward=direct/*' --axis seed=1-100000
[ "$(wc -l <"$work/out")" -eq 200000 ] || fail "expected 200,000 fuzz ids (100,000 seeds, ops graph and all)"
[ $(( $(date +%s) - start )) -le 20 ] || fail "200,000 fuzz ids through a correct layer took over 20 s to plan"
exit_is 2 "$stub" run --repeat 1000000 --filter 'stub/*'
one_line_saying "1000000 passes over"
# Planning is interrupted by ^C: half a million seeds (a million programs: ops graph and all) through a known-bad layer run the model each.
"$hostcb" list -f 'fuzz/forward=oneshot/*' --axis seed=1-500000 >/dev/null 2>"$work/err" &
pid=$!
sleep 1
kill -INT $pid
for _ in $(seq 50); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
kill -0 $pid 2>/dev/null && { kill -9 $pid; fail "SIGINT did not stop planning within 5 s"; }
wait $pid
rc=$?
[ $rc -eq 130 ] && grep -q 'interrupted while planning' "$work/err" || fail "interrupted planning: exit $rc: $(cat "$work/err")"
echo "hardening: planning is bounded, fast for fuzz and interruptible"

# --- 9, 10. result reads what report reads, and refuses what report refuses: exit 2, one line.
good='{"id": "stub/x", "family": "stub", "params": {}, "status": "passed", "reason": "", "seconds": 0, "failures": [], "failures_dropped": 0, "properties": {}, "device": null, "expectation": ""}'
results_with() { printf '{"format": "hostcb-results", "format_version": %s, "environment": {"devices": [], "selected_device": 0}, "results": [%s]}\n' "$1" "$2"; }
results_with 3 "${good/\"reason\": \"\", /}" >"$work/no_reason.json"
results_with 3 "${good/passed/splendid}" >"$work/bad_status.json"
results_with 3 "${good/\"expectation\": \"\"/\"expectation\": \"\", \"iteration\": 1.5}" >"$work/bad_iteration.json"
results_with 99 "$good" >"$work/v99.json"
mkfifo "$work/fifo.json"
mkdir "$work/folder.json"
for bin in "$hostcb" "$stub"; do
  for input in no_reason bad_status bad_iteration v99 fifo folder; do
    exit_is 2 timeout 10 "$bin" result "$work/$input.json" stub/x
    one_line_saying "$input.json"
    grep -q 'internal error' "$work/err" && fail "result on $input: $(cat "$work/err")"
  done
  exit_is 2 "$bin" report "$work/bad_iteration.json"
done
echo "hardening: result refuses bad results files, FIFOs and folders with exit 2"

# --- 12. an empty filter is refused like ':' and '-'.
exit_is 2 "$stub" run --filter ''
one_line_saying "--filter is given an empty value"
echo "hardening: --filter '' is refused"

# --- 15. messages that say what is wrong.
cp "$fake" "$work/libmine.so"
( cd "$work" && exec "$stub" list --adapter libmine.so ) >"$work/out" 2>"$work/err" ||
  fail "an adapter in the current folder: $(cat "$work/err")"
grep -q 'forward=fake' "$work/out" || fail "libmine.so in the current folder was not loaded"
mkdir -p "$work/a@b"
exit_is 2 "$stub" list --adapter "$work/a@b/nope.so@o=1"
one_line_saying "adapter '$work/a@b/nope.so': "
long="$work/$(head -c 249 /dev/zero | tr '\0' r).json"  # 254 characters: legal
exit_is 0 "$stub" run -f 'stub/behave=pass/*' --json "$long"
exit_is 2 "$stub" list -f "$(printf 'no\033[2Jsuch')"
grep -q $'\033' "$work/err" && fail "a control character was echoed raw"
one_line_saying 'no\\x1b\[2Jsuch'
echo "hardening: adapters in ., '@' folders, long report names and control characters"

# --- After a SIGKILL of hostcb, the previous run's reports are not left to be read as this run's.
exit_is 0 "$stub" run -f 'stub/behave=pass/*' --json "$work/k.json" --junit "$work/k.xml"
"$stub" run -f 'stub/behave=hang/*' --timeout 60 --json "$work/k.json" --junit "$work/k.xml" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q 'run=unfinished' "$work/k.json" 2>/dev/null && break; sleep 0.05; done
kill -9 $pid
wait $pid 2>/dev/null
grep -q '"id": "hostcb/run=unfinished"' "$work/k.json" && ! grep -q 'behave=pass' "$work/k.json" ||
  fail "after SIGKILL the JSON is not marked unfinished: $(cat "$work/k.json")"
grep -q 'has not written its results' "$work/k.xml" || fail "after SIGKILL the JUnit is not marked unfinished"
if [ -n "$xmllint" ]; then "$xmllint" --noout --schema "$xsd" "$work/k.xml" 2>"$work/err" || fail "the marked JUnit: $(cat "$work/err")"; fi
exit_is 1 "$stub" result "$work/k.json" hostcb/run=unfinished
grep -q 'has not written its results' "$work/out" || fail "result does not show the marker: $(cat "$work/out")"
echo "hardening: a killed run leaves reports saying so, not the previous run's"
