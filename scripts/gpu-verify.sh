#!/usr/bin/env bash
# The one-call GPU check: what maintainers run on a GPU machine before calling a GPU
# feature done, made to fit one call of a lent machine (the goal: every step, the build
# included, within 6 minutes on a fresh H200; each step's limit below stops one that runs
# longer, and says so). Needs no network.
#
# Usage: scripts/gpu-verify.sh [OUT]        (default OUT gpu-verify)
#        scripts/gpu-verify.sh --long [OUT] the long check (scripts/gpu-verify-long.sh):
#                                           sanitizers, overhead, adapters, perf
#
# Steps, each under its own time limit (one that runs out is named and the next starts):
#   test      the README's test command, `bash scripts/test.sh` (set up, build, ctest -j nproc)
#   matrix    the README's matrix command, `bash scripts/run-matrix.sh` (-j auto)
#   orders    the default matrix at -j 1 and in two shuffled orders, the three side by side
#             (a line each: j1, shuffle1, shuffle2); then
#             scripts/same-verdicts.py: every id has one status in all four runs
#   selftest  every known-bad control, caught by the check it exists for
#   mixed     the fuzz controls of every known-bad layer (some fault the device) with the
#             correct layers' programs among them: each correct layer's ids end as they do
#             in a run of their own
#   layers    scripts/layers.sh -j auto with the shipped known layer bugs, over each folder
#             of $HOSTCB_LAYER_WHEELS (one per cuda-bindings version) and the image's CuPy,
#             numba-cuda and cuda-core, with reduced axes, over replay, lifetime,
#             device_fault and stream_callback (the nightly runs every family: on the
#             H200 a crash through a Python layer costs a new worker, 0.2-2.5 s)
#   python    scripts/python-gpu-check.sh with $HOSTCB_PY_WHEELS over three families through
#             cuda_bindings:runtime: pytest (-n 0 and -n 4) and hostcb agree
# OUT/summary.log has one line per step (printed as it goes); OUT.tar.gz holds OUT.
# HOSTCB_VERIFY_SKIP="layers python" leaves steps out (`test`: only its build runs); HOSTCB_VERIFY_LIMITS="test=300 orders=60"
# sets steps' limits in seconds. Exit 0 when every step that ran passed, 1 otherwise.
set -uo pipefail
if [ "${1:-}" = --long ]; then shift; exec bash "$(dirname "$0")/gpu-verify-long.sh" "$@"; fi
case "${1:-}" in -h | --help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; -*) echo "gpu-verify.sh: unknown option $1" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.."
out="${1:-gpu-verify}"
rm -rf "$out" && mkdir -p "$out"
hostcb=build/hostcb
summary="$out/summary.log"
failed=0
note() { echo "$*" | tee -a "$summary"; }

# The limits, in seconds: above each step's time on an H200 (docs/verification.md,
# 2026-12-05, every step passed in 374 s: test 154 s, matrix 16 s, orders 18 s, selftest
# 13 s, mixed 7 s, layers 90 s, python 73 s); their sum the 10 minutes of one call.
declare -A limit=([test]=200 [matrix]=30 [orders]=40 [selftest]=30 [mixed]=30
                  [layers]=120 [python]=120)
began=$(date +%s)
for setting in ${HOSTCB_VERIFY_LIMITS:-}; do limit[${setting%%=*}]=${setting#*=}; done
skipped() { [[ " ${HOSTCB_VERIFY_SKIP:-} " == *" $1 "* ]]; }

# step NAME CMD...: runs CMD under NAME's limit, its output in OUT/NAME.log; sets $rc and
# notes the exit code and wall time (124: it ran out of time).
step() {
  local name="$1" start
  shift
  start=$(date +%s%N)
  timeout -k 5 "${limit[$name]}" "$@" >"$out/$name.log" 2>&1
  rc=$?
  wall=$(( ($(date +%s%N) - start) / 1000000 ))
  wall="$((wall / 1000)).$(printf %03d $((wall % 1000))) s"
  [ "$rc" = 124 ] && note "$name: STOPPED at its limit of ${limit[$name]} s"
}
# verdict NAME OK DETAIL: the step's summary line; a step that is not OK fails the check.
verdict() {
  if [ "$2" = 0 ]; then note "$1: ok ($wall): $3"; else note "$1: FAILED ($wall): $3"; failed=1; fi
}
counts() { grep -m1 -E '^[0-9]+ scenarios' "$1" || echo "no summary line (see $(basename "$1"))"; }

note "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n 1); $(git log -1 --format='%h %s' 2>/dev/null | cut -c1-72)"

# 1. The README's two commands (with `test` left out, only the build it starts with).
if skipped test; then
  limit[build]=${limit[test]}
  step build bash scripts/build.sh
  verdict build "$rc" "$(tail -n 1 "$out/build.log")"
else
  step test bash scripts/test.sh
  verdict test "$rc" "$(grep -E '^[0-9]+% tests passed' "$out/test.log" || tail -n 1 "$out/test.log")$(
    grep -m1 -oE 'Total Test time \(real\) = +[0-9.]+ sec' "$out/test.log" | sed 's/.*= */; ctest /')"
  grep -E '\*\*\*(Failed|Timeout|Exception)|Not Run' "$out/test.log" | head -n 20 | tee -a "$summary"
fi
[ -x "$hostcb" ] || { note "no $hostcb: nothing more can run"; tar czf "$out.tar.gz" "$out"; exit 1; }
export HOSTCB_OUT="$out/matrix"
step matrix bash scripts/run-matrix.sh
verdict matrix "$rc" "$(counts "$out/matrix.log")"

# 2. The same verdicts whatever the order and the workers.
# The three side by side: each verdict must also hold whatever runs beside it (device
# faults still take their turns on the GPU one at a time, across the three).
step orders bash -c '
  "$1" run -j 1 --json "$2/j1.json" >"$2/j1.log" 2>&1 &
  "$1" run --shuffle=1 --json "$2/shuffle1.json" >"$2/shuffle1.log" 2>&1 &
  "$1" run --shuffle=2 --json "$2/shuffle2.json" >"$2/shuffle2.log" 2>&1 &
  wait' orders "$hostcb" "$out"
for run in j1 shuffle1 shuffle2; do
  ok=1
  grep -qE '^exit 0' "$out/$run.log" && ok=0
  verdict "$run" "$ok" "$(counts "$out/$run.log")"
done
wall="-"
python3 scripts/same-verdicts.py "$out/matrix/hostcb.json" "$out/j1.json" "$out/shuffle1.json" "$out/shuffle2.json" \
  >"$out/same-verdicts.log" 2>&1
verdict same-verdicts $? "$(tail -n 1 "$out/same-verdicts.log")"

# 3. Every control caught by its own check.
step selftest "$hostcb" self-test
verdict selftest "$rc" "$(tail -n 1 "$out/selftest.log")"

# 4. Broken layers' faults among correct layers' programs: the correct ones as alone.
fuzz=(--filter 'fuzz/*' --axis seed=1-12 --axis ops=graph,all)
step mixed "$hostcb" run --controls "${fuzz[@]}" --json "$out/mixed.json"
mixed_rc=$rc
timeout -k 5 "${limit[mixed]}" "$hostcb" run "${fuzz[@]}" --axis forward=direct,graph_owned --json "$out/alone.json" \
  >"$out/alone.log" 2>&1
alone_rc=$?
ok=$(( mixed_rc > 1 || alone_rc != 0 ))
for layer in direct graph_owned; do
  python3 scripts/same-verdicts.py --ids "fuzz/forward=$layer/*" "$out/alone.json" "$out/mixed.json" \
    >>"$out/same-verdicts-mixed.log" 2>&1 || ok=1
done
verdict mixed "$ok" "controls and correct layers exit $mixed_rc ($(counts "$out/mixed.log")); correct layers alone exit $alone_rc; $(grep -c DIFFERS "$out/same-verdicts-mixed.log") correct-layer ids differ"

# 5. The real layers with the shipped known bugs: green, the measured bugs as xfail.
if ! skipped layers; then
  specs=(cupy-cuda13x numba-cuda cuda-core)
  step layers bash scripts/layers.sh -j auto --out "$out/layers" ${HOSTCB_LAYER_WHEELS:+--wheels "$HOSTCB_LAYER_WHEELS"} \
    "${specs[@]}" -- --axis replays=2 --axis callbacks=5 --axis calls=5 --axis streams=16 \
    --filter 'replay/*:lifetime/*:device_fault/*:stream_callback/*' 
  verdict layers "$rc" "layers.sh exit $rc"
  [ -f "$out/layers/summary.txt" ] && sed 's/^/  /' "$out/layers/summary.txt" | tee -a "$summary"
fi

# 6. The Python side: pytest and hostcb agree.
if ! skipped python && [ -n "${HOSTCB_PY_WHEELS:-}" ]; then
  # Three families through the layer (64 scenarios, launches twice where it replays): the
  # crashes of cuda-bindings before 13.5.0 and the shared faults are in them.
  f=cuda_bindings_runtime
  step python bash scripts/python-gpu-check.sh "$out/python" "$HOSTCB_PY_WHEELS" cuda_bindings:runtime \
    "replay/*forward=$f/*/replays=2/*:device_fault/*forward=$f/*:stream_callback/*forward=$f/*"
  verdict python "$rc" "python-gpu-check exit $rc"
  [ -f "$out/python/summary.txt" ] && sed 's/^/  /' "$out/python/summary.txt" | tee -a "$summary"
fi

note "gpu-verify: $([ $failed = 0 ] && echo 'every step passed' || echo 'FAILED') in $(($(date +%s) - began)) s; logs in $out.tar.gz"
tar czf "$out.tar.gz" --exclude='*/venv' --exclude='*/tools' --exclude='*/newer' --exclude='*/dist' "$out" 2>/dev/null
exit "$failed"
