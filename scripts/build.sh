#!/usr/bin/env bash
# Sets up (scripts/setup.sh), configures and builds hostcb into ${HOSTCB_BUILD_DIR:-build}.
# Extra arguments go to cmake's configure step (e.g. -DCMAKE_CUDA_ARCHITECTURES=80).
set -euo pipefail
cd "$(dirname "$0")/.."

[ "${HOSTCB_SKIP_SETUP:-0}" = 1 ] || bash scripts/setup.sh
if ! command -v nvcc >/dev/null 2>&1; then
  export CUDACXX="${CUDACXX:-/usr/local/cuda/bin/nvcc}"
fi

build_dir="${HOSTCB_BUILD_DIR:-build}"
# On a machine with a GPU, a new build is for its GPUs alone (CMake's native): the device
# code of one architecture instead of every major one (a 60 s build on the H200 instead of
# 83 s). CUDAARCHS, or -DCMAKE_CUDA_ARCHITECTURES=... among the arguments, decides instead.
if [ -z "${CUDAARCHS:-}" ] && [[ " $* " != *CMAKE_CUDA_ARCHITECTURES* ]] && [ ! -f "$build_dir/CMakeCache.txt" ] &&
  nvidia-smi -L >/dev/null 2>&1; then
  echo "hostcb build: for this machine's GPUs only (CUDAARCHS=native; set CUDAARCHS to build for others)" >&2
  export CUDAARCHS=native
fi
extra=()
if ! command -v xmllint >/dev/null 2>&1; then
  # Only the JUnit schema tests need it: they are then listed as skipped, with the reason.
  echo "hostcb build: xmllint not found (libxml2-utils): the JUnit schema tests will be skipped" >&2
  extra+=(-DHOSTCB_REQUIRE_XMLLINT=OFF)
fi
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${extra[@]}" "$@" >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
