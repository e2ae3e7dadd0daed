#!/usr/bin/env bash
# Sets up, builds and runs every test: the harness's own Catch2 tests, the end-to-end CLI
# tests, and one CTest test per scenario (skipped, with exit code 77, without a GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir "${HOSTCB_BUILD_DIR:-build}" --output-on-failure -j "$(nproc)"
