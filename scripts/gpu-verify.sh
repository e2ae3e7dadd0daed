#!/usr/bin/env bash
# What maintainers run on a GPU machine before calling a GPU feature done: build natively,
# run every test (scenarios included), the full matrix, the known-bad controls (which must
# fail, with their messages and launch numbers) and the harness-overhead measurement.
# Logs and reports go to the folder given (default gpu-verify/). Needs no network.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${1:-gpu-verify}"
mkdir -p "$out"
build="${HOSTCB_BUILD_DIR:-build-gpu}"

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/build.log"
{ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${HOSTCB_CMAKE_ARGS:-} &&
  cmake --build "$build" -j "$(nproc)"; } >>"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }

ctest --test-dir "$build" --output-on-failure -j 8 >"$out/ctest.log" 2>&1
echo "ctest exit $?: $(grep -E 'tests passed|tests failed' "$out/ctest.log")"

"$build/hostcb" run --junit "$out/matrix.xml" --json "$out/matrix.json" >"$out/matrix.log" 2>&1
echo "matrix exit $?: $(tail -n 4 "$out/matrix.log" | head -n 1)"

"$build/hostcb" run --controls --filter 'injected/*' --junit "$out/controls.xml" >"$out/controls.log" 2>&1
echo "controls exit $? (1 expected: every control must fail):"
cat "$out/controls.log"

"$build/hostcb" overhead --launches "${HOSTCB_OVERHEAD_LAUNCHES:-20000}" --rounds 9 2>&1 | tee "$out/overhead.log"
