#!/usr/bin/env bash
# The nightly job on one GPU machine. For each CUDA toolkit it is given or finds, builds
# hostcb, runs the scenario matrix on every visible GPU, stores the results under
#   OUT/DATE/HOST/DRIVER/cuda-X.Y.{json,xml,log}
# and merges everything of that date (every host that writes into OUT) into
#   OUT/DATE/matrix.{md,html,json}
# against the newest earlier date's matrix.json, so the page says what changed overnight.
#
#   scripts/nightly.sh [-o OUT] [-t TOOLKIT]... [-e EXPECTATIONS] [-- hostcb run args...]
#     -o OUT            results folder (default: hostcb-nightly)
#     -t TOOLKIT        a CUDA toolkit root (repeatable); default: every /usr/local/cuda-*
#                       with bin/nvcc, else /usr/local/cuda. A root with hostcb-cuda12.cmake
#                       (scripts/cuda12-toolkit.sh) is configured through it.
#     -e EXPECTATIONS   known behaviour (docs/nightly.md, "Expectations"); default the
#                       shipped expectations/known-layer-bugs.jsonc, -e '' for none
# Exit: 0 every run passed (xfail allowed), 1 a run failed or a build broke, 77 no GPU.
set -uo pipefail
cd "$(dirname "$0")/.."
out=hostcb-nightly expectations="$PWD/expectations/known-layer-bugs.jsonc" toolkits=()
while getopts "o:t:e:" opt; do
  case "$opt" in
    o) out="$OPTARG" ;;
    t) toolkits+=("$OPTARG") ;;
    e) expectations="${OPTARG:+$(realpath "$OPTARG")}" ;;
    *) sed -n '2,18p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ ${#toolkits[@]} -eq 0 ]; then
  for t in /usr/local/cuda-*; do [ -x "$t/bin/nvcc" ] && toolkits+=("$t"); done
  [ ${#toolkits[@]} -eq 0 ] && toolkits=(/usr/local/cuda)
fi

date_dir="$(date -u +%Y-%m-%d)"
host="$(hostname -s)"
driver="$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
[ -z "$driver" ] && driver="$(sed -n 's/.*Kernel Module[^0-9]*\([0-9][0-9.]*\).*/\1/p' /proc/driver/nvidia/version 2>/dev/null)"
driver="${driver:-no-driver}"
runs="$out/$date_dir/$host/$driver"
mkdir -p "$runs"
echo "nightly: $date_dir on $host, driver $driver, toolkits: ${toolkits[*]}"

worst=0
for toolkit in "${toolkits[@]}"; do
  version="$("$toolkit/bin/nvcc" --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p')"
  build="build-nightly/cuda-$version"
  args=(-S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=OFF)
  if [ -f "$toolkit/hostcb-cuda12.cmake" ]; then
    args+=(-C "$toolkit/hostcb-cuda12.cmake")
  else
    args+=(-DCUDAToolkit_ROOT="$toolkit" -DCMAKE_CUDA_COMPILER="$toolkit/bin/nvcc")
  fi
  if ! { cmake "${args[@]}" && cmake --build "$build" --target hostcb -j "$(nproc)"; } >"$runs/cuda-$version.build.log" 2>&1; then
    echo "nightly: CUDA $version: build failed, see $runs/cuda-$version.build.log"
    worst=1
    continue
  fi
  run_args=(run --device all --json "$runs/cuda-$version.json" --junit "$runs/cuda-$version.xml")
  if [ -n "$expectations" ]; then run_args+=(--expectations "$expectations"); else run_args+=(--no-expectations); fi
  "$build/hostcb" "${run_args[@]}" "$@" >"$runs/cuda-$version.log" 2>&1
  rc=$?
  echo "nightly: CUDA $version: exit $rc, $(grep -E '^[0-9]+ scenarios' "$runs/cuda-$version.log" | tail -n 1)"
  case "$rc" in
    0) ;;
    77) [ "$worst" = 0 ] && worst=77 ;;
    *) worst=1 ;;
  esac
done

# Merge every host's results of this date, against the newest earlier matrix.
shopt -s nullglob
results=("$out/$date_dir"/*/*/cuda-*.json)
previous=""
for d in $(ls -1d "$out"/????-??-?? 2>/dev/null | sort -r); do
  [ "$(basename "$d")" \< "$date_dir" ] && [ -f "$d/matrix.json" ] && { previous="$d/matrix.json"; break; }
done
hostcb="$(ls -1d build-nightly/cuda-*/hostcb 2>/dev/null | tail -n 1)"
if [ ${#results[@]} -gt 0 ] && [ -n "$hostcb" ]; then
  "$hostcb" report "${results[@]}" ${previous:+--previous "$previous"} --markdown "$out/$date_dir/matrix.md" \
    --html "$out/$date_dir/matrix.html" --json "$out/$date_dir/matrix.json" || worst=1
  echo "nightly: matrix in $out/$date_dir/matrix.html${previous:+ (against $previous)}"
fi
exit "$worst"
