#!/usr/bin/env bash
# The long GPU check (scripts/gpu-verify.sh --long): sanitizers, overhead, adapters. Builds natively
# and records, in the folder given (default gpu-verify/):
#   ctest.log      every test, the per-scenario ones included
#   matrix.*       the default matrix (console log, JUnit, JSON) and its wall time
#   middle.xml     the same matrix with a crashing and a hanging control in the middle
#   selftest.log   every known-bad control and whether it was caught
#   overhead.log   the harness's cost per launch against a bare host function
#   sanitize.log   the default matrix under compute-sanitizer memcheck (device faults left out)
#   asan.log       with HOSTCB_ASAN=1: an ASan+UBSan build, the oneshot control under it
#   adapters.*     every family through the example adapter and, where built, the
#                  cuda.bindings adapters (runtime and driver), with JUnit and JSON
#   matrix-j1.log, selftest-j1.log   the same with one worker: the counts must be equal
#   perf/, perf.log  scripts/perf.sh: issue 25's figures at -j 1 and -j auto (the table goes
#                  into docs/verification.md; with HOSTCB_LAYER_WHEELS, the layers figure too)
#   layers/        with HOSTCB_LAYER_WHEELS=DIR (one folder of cuda-bindings wheels per
#                  version): scripts/layers.sh over them with the shipped known layer bugs
#   python/        with HOSTCB_PY_WHEELS=DIR (scripts/device-wheels.sh's folder):
#                  scripts/python-gpu-check.sh (needs HOSTCB_BUILD_DIR=build)
# Needs no network. Set HOSTCB_CMAKE_ARGS for extra configure arguments.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${1:-gpu-verify}"
mkdir -p "$out"
build="${HOSTCB_BUILD_DIR:-build-gpu}"
hostcb="$build/hostcb"
summary="$out/summary.log"
note() { echo "$*" | tee -a "$summary"; }
# timed LOG CMD...: runs CMD with its output in LOG; prints "exit-code wall-seconds".
timed() {
  local log="$1" start end rc
  shift
  start=$(date +%s%N)
  "$@" >"$log" 2>&1
  rc=$?
  end=$(date +%s%N)
  echo "$rc $(( (end - start) / 1000000 ))e-3"
}

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$summary"
if [ "${HOSTCB_ASAN:-0}" = 1 ]; then
  cmake --preset asan -DHOSTCB_REQUIRE_XMLLINT=OFF ${HOSTCB_CMAKE_ARGS:-} >"$out/asan.log" 2>&1 &&
    cmake --build --preset asan -j 8 >>"$out/asan.log" 2>&1 &
  asan_build=$!
fi
{ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${HOSTCB_CMAKE_ARGS:-} &&
  cmake --build "$build" -j 8; } >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }

ctest --test-dir "$build" --output-on-failure -j 8 >"$out/ctest.log" 2>&1
note "ctest exit $?: $(grep -E 'tests passed|tests failed' "$out/ctest.log")"

read rc wall < <(timed "$out/matrix.log" "$hostcb" run --junit "$out/matrix.xml" --json "$out/matrix.json")
note "default matrix: exit $rc, wall ${wall} s: $(grep -E '^[0-9]+ scenarios' "$out/matrix.log")"

# The default matrix again, with a crashing and a hanging control placed in the middle
# (callback_fault runs right after replay).
middle='replay/*:callback_fault/*fault=calls_cuda:callback_fault/api=runtime/forward=direct/fault=crashes:callback_fault/api=runtime/forward=direct/fault=blocks:stream_callback/*:capture_contract/*:device_fault/*'
middle+='-*forward=oneshot*replays=2/*:*forward=oneshot*replays=5/*:*forward=oneshot*replays=100/*:callback_fault/*forward=oneshot*'
read rc wall < <(timed "$out/middle.log" "$hostcb" run --controls --filter "$middle" --junit "$out/middle.xml")
note "matrix with a crash and a hang in the middle: exit $rc, wall ${wall} s: $(grep -E '^[0-9]+ scenarios' "$out/middle.log")"
grep -E "ERROR|FAILED" "$out/middle.log" | head -4 | tee -a "$summary"
note "  testcases in middle.xml: $(grep -c '<testcase' "$out/middle.xml"), listed: $("$hostcb" list --controls --filter "$middle" | wc -l)"

"$hostcb" self-test >"$out/selftest.log" 2>&1
note "self-test exit $?: $(tail -n 1 "$out/selftest.log")"

# One worker (-j 1) gives the counts the pool (-j auto, the default) gave.
read rc wall < <(timed "$out/matrix-j1.log" "$hostcb" run -j 1)
note "default matrix at -j 1: exit $rc, wall ${wall} s: $(grep -E '^[0-9]+ scenarios' "$out/matrix-j1.log")"
"$hostcb" self-test -j 1 >"$out/selftest-j1.log" 2>&1
note "self-test at -j 1 exit $?: $(tail -n 1 "$out/selftest-j1.log")"
bash scripts/perf.sh --hostcb "$hostcb" --out "$out/perf" ${HOSTCB_LAYER_WHEELS:+--wheels "$HOSTCB_LAYER_WHEELS"} \
  >"$out/perf.log" 2>&1
note "scripts/perf.sh exit $?"
if [ -n "${HOSTCB_LAYER_WHEELS:-}" ]; then
  bash scripts/layers.sh -j auto --hostcb "$hostcb" --out "$out/layers" --wheels "$HOSTCB_LAYER_WHEELS" \
    -- --axis replays=2 --axis callbacks=5 --axis calls=5 --axis streams=16 >"$out/layers.log" 2>&1
  note "layers.sh with the shipped known layer bugs: exit $?"
  tee -a "$summary" <"$out/layers/summary.txt"
fi
if [ -n "${HOSTCB_PY_WHEELS:-}" ]; then
  bash scripts/python-gpu-check.sh "$out/python" "$HOSTCB_PY_WHEELS" >"$out/python.log" 2>&1
  note "python-gpu-check exit $?"
  tee -a "$summary" <"$out/python/summary.txt"
fi

"$hostcb" overhead --launches "${HOSTCB_OVERHEAD_LAUNCHES:-20000}" --rounds 9 >"$out/overhead.log" 2>&1
cat "$out/overhead.log" | tee -a "$summary"

if [ "${HOSTCB_ADAPTERS:-1}" = 1 ]; then
  "$hostcb" run --adapter "$build/libhostcb_example_adapter.so" --filter '*forward=example*' \
    >"$out/adapters-example.log" 2>&1
  note "every family through the example adapter: exit $?: $(grep -E '^[0-9]+ scenarios' "$out/adapters-example.log")"
  if [ -e "$build/libhostcb_python_runtime.so" ]; then
    "$hostcb" run --adapter "$build/libhostcb_python_runtime.so" --adapter "$build/libhostcb_python_driver.so" \
      --filter '*forward=cuda_bindings*' --junit "$out/adapters.xml" --json "$out/adapters.json" \
      >"$out/adapters.log" 2>&1
    note "every family through the cuda.bindings adapters: exit $?: $(grep -E '^[0-9]+ scenarios' "$out/adapters.log")"
    grep -oE '"adapter\.[a-z_]+\.describe" value="[^"]*"' "$out/adapters.xml" | sort -u | tee -a "$summary"
  fi
fi

if [ "${HOSTCB_SANITIZE:-1}" = 1 ] && command -v compute-sanitizer >/dev/null; then
  # Memory errors only, then again listing the CUDA API errors by kind: the contract
  # scenarios provoke some on purpose (capture_contract 900/901, calls_cuda 800).
  compute-sanitizer --tool memcheck --report-api-errors no --target-processes all \
    "$hostcb" run --filter '-device_fault/*' >"$out/sanitize.log" 2>&1
  note "compute-sanitizer memcheck (memory errors) exit $?: $(grep -E '^[0-9]+ scenarios' "$out/sanitize.log")"
  grep -h "ERROR SUMMARY" "$out/sanitize.log" | sort | uniq -c | tee -a "$summary"
  compute-sanitizer --tool memcheck --target-processes all "$hostcb" run --filter '-device_fault/*' \
    >"$out/sanitize-api.log" 2>&1
  note "compute-sanitizer memcheck with API errors reported: exit $?"
  grep -h "ERROR SUMMARY" "$out/sanitize-api.log" | sort | uniq -c | tee -a "$summary"
  grep -hoE "Program hit [A-Za-z_]+ \(error [0-9]+\) due to \"[^\"]*\" on CUDA API call to [A-Za-z_]+" \
    "$out/sanitize-api.log" | sort | uniq -c | tee -a "$summary"
fi

if [ "${HOSTCB_ASAN:-0}" = 1 ]; then
  wait "$asan_build" || { note "asan build failed"; tail -20 "$out/asan.log"; exit 1; }
  export ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=0
  build-asan/hostcb run >>"$out/asan.log" 2>&1
  note "ASan+UBSan build, default matrix: exit $?: $(grep -E '^[0-9]+ scenarios' "$out/asan.log" | tail -1)"
  build-asan/hostcb run --controls --filter 'replay/api=runtime/forward=oneshot/build=capture_global/replays=2/sync=each' \
    >>"$out/asan.log" 2>&1
  note "ASan+UBSan build, oneshot control: exit $?"
  grep -E "ERROR|sanitizer:|heap-use-after-free|READ of size|freed by thread|#[0-3] " "$out/asan.log" | head -14 | tee -a "$summary"
fi
