#!/usr/bin/env bash
# scripts/dashboard.cmake against a fake CDash on 127.0.0.1 (fake_cdash.py), with the
# stand-in project in project/ as the source so each run takes seconds:
#   1. normal: Configure, Build, Test and Done arrive, well-formed, one build name
#      ending in the CUDA version configure used (an nvcc on PATH that claims 99.9 must
#      not leak into it), the token sent as a Bearer header and never printed, GPU
#      scenarios "notrun" with hostcb's reason and their labels; the script passes.
#   2. the server answers HTTP 200 with <status>ERROR</status>: the script fails.
#   3. the server refuses (HTTP 401): the script fails.
#   4. a broken build: everything is still submitted, the script fails.
#   5. a failed configure (a -C file that does not exist): Configure and Done are still
#      submitted, the script fails.
#
#   e2e_dashboard.sh SOURCE_ROOT HOSTCB_EXE CUDA_COMPILER CUDA_VERSION WORK_DIR
set -u
src=$1 hostcb=$2 nvcc=$3 cuda_version=$4 work=$5
here="$src/tests/dashboard"
python=${PYTHON:-python3}
ctest_exe=${CTEST:-ctest}
rm -rf "$work" && mkdir -p "$work/bin"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# An nvcc on PATH that is not the one configure uses.
printf '#!/bin/sh\necho "Cuda compilation tools, release 99.9, V99.9.0"\n' > "$work/bin/nvcc"
chmod +x "$work/bin/nvcc"
export PATH="$work/bin:$PATH"

server_pid=""
stop_server() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  server_pid=""
}
trap stop_server EXIT
# start_server NAME ARGS...: a fresh fake CDash recording into $work/NAME; sets $port.
start_server() {
  local name=$1; shift
  stop_server
  "$python" "$here/fake_cdash.py" --port-file "$work/$name.port" --record "$work/$name" --lifetime 120 "$@" \
    2> "$work/$name.server.log" &
  server_pid=$!
  for _ in $(seq 100); do [ -s "$work/$name.port" ] && break; sleep 0.1; done
  port=$(cat "$work/$name.port" 2>/dev/null) || { fail "$name: the fake CDash did not start"; return 1; }
}
# dashboard NAME BUILD_DIR ARGS...: runs the real script; its exit code in $rc, output in $work/NAME.out.
dashboard() {
  local name=$1 build=$2; shift 2
  timeout 120 "$ctest_exe" -S "$src/scripts/dashboard.cmake" \
    -DCTEST_SOURCE_DIRECTORY="$here/project" -DCTEST_BINARY_DIRECTORY="$work/$build" -DCTEST_SITE=fake-site \
    "-DHOSTCB_CDASH_URL=http://127.0.0.1:$port/submit.php?project=hostcb" "$@" -VV > "$work/$name.out" 2>&1
  rc=$?
  echo "-- $name: ctest -S exited $rc"
}
fixture_args="-DCMAKE_CUDA_COMPILER=$nvcc;-DHOSTCB_EXE=$hostcb"
check() { "$python" "$here/check_submission.py" "$@" || fail "check_submission $*"; }

# 1. normal
token="fake-token-$$-not-for-print"
start_server normal --token "$token"
HOSTCB_CDASH_AUTH_TOKEN="$token" dashboard normal build "-DHOSTCB_CMAKE_ARGS=$fixture_args"
[ "$rc" = 0 ] || { fail "normal: the script failed"; tail -30 "$work/normal.out"; }
check "$work/normal" --parts Configure,Build,Test,Done --auth "--build-suffix=-cuda$cuda_version" --not-in-build=99.9 \
  --passed unit:passes --skipped scenario:replay,scenario:ordering
grep -q "$token" "$work/normal.out" && fail "normal: the token was printed"

# 2. ERROR in an HTTP 200 reply (same build folder: configure is cached)
start_server error --answer error
dashboard error build "-DHOSTCB_CMAKE_ARGS=$fixture_args"
[ "$rc" != 0 ] || fail "error: the script passed although CDash answered ERROR"
grep -q "submission failed" "$work/error.out" || fail "error: no 'submission failed' message"
check "$work/error" --parts Configure,Build,Test,Done

# 3. HTTP 401
start_server refused --answer refuse
dashboard refused build "-DHOSTCB_CMAKE_ARGS=$fixture_args"
[ "$rc" != 0 ] || fail "refused: the script passed although CDash refused"

# 4. a broken build: still submitted, then red
start_server broken_build
dashboard broken_build build "-DHOSTCB_CMAKE_ARGS=$fixture_args;-DFIXTURE_BREAK_BUILD=ON"
[ "$rc" != 0 ] || fail "broken_build: the script passed"
check "$work/broken_build" --parts Configure,Build,Test,Done
grep -q "build (.*) or tests (.*) failed" "$work/broken_build.out" || fail "broken_build: no failure message"

# 5. a failed configure, in a fresh folder: Configure and Done still arrive, then red
start_server broken_configure
dashboard broken_configure build-broken "-DHOSTCB_CMAKE_ARGS=-C;$work/no-such-toolkit/hostcb-cuda12.cmake"
[ "$rc" != 0 ] || fail "broken_configure: the script passed"
check "$work/broken_configure" --parts Configure,Done --build-suffix=-cudaunknown
grep -q "configure failed" "$work/broken_configure.out" || fail "broken_configure: no failure message"

stop_server
echo "e2e_dashboard: $failures failure(s)"
[ "$failures" = 0 ]
