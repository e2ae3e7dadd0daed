#!/usr/bin/env bash
# The figures of issue 40's table (docs/verification.md), measured side by side in one
# run, at -j 1 and at -j auto where both say something, written as a dated table into
# docs/verification.md (between the perf markers).
# Benchmarks, not tests: nothing here fails on a slow figure. Without a usable GPU every
# figure is reported as skipped, the file is left alone, and the exit code is 0.
set -uo pipefail
usage() {
  cat <<'USAGE'
Usage: scripts/perf.sh [--hostcb PATH] [--out DIR] [--wheels DIR] [--doc FILE] [--no-write]
  --hostcb PATH  the hostcb binary (default build/hostcb)
  --out DIR      logs and reports of every measured run (default perf-results)
  --wheels DIR   cuda-bindings wheels, one folder per version (scripts/layers.sh --wheels):
                 the layers figure; without it that figure is skipped
  --doc FILE     where the table goes (default docs/verification.md)
  --no-write     print the table only; leave the file alone
Figures: the default matrix; the self-test and self-test --full; one cuda-bindings module
(the image's), every family, reduced axes; the crashes of captured graphs through it; the
numba-cuda xfails that never call back; layers.sh over the wheels and the image's layers,
reduced axes (as scripts/gpu-verify.sh runs it); and the 60 crashes of the oneshot controls.
Each is the wall time of one run, with its exit code and its counts line; -j 1 where the
pool's worth shows, -j auto everywhere.
Exit: 0 measured or skipped, 2 usage.
USAGE
}
root="$(cd "$(dirname "$0")/.." && pwd)"
hostcb="$root/build/hostcb" out="perf-results" wheels="" write=1 doc="$root/docs/verification.md"
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --hostcb) hostcb="${2:?--hostcb needs a path}"; shift 2 ;;
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    --wheels) wheels="${2:?--wheels needs a folder}"; shift 2 ;;
    --doc) doc="${2:?--doc needs a file}"; shift 2 ;;
    --no-write) write=0; shift ;;
    *) echo "perf.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ -x "$hostcb" ] || { echo "perf.sh: no hostcb at $hostcb (build first, or --hostcb)" >&2; exit 2; }
mkdir -p "$out" && out="$(cd "$out" && pwd)"
rows=()

# seconds LOG CMD...: runs CMD, output in LOG; prints "SECONDS EXIT COUNTS".
seconds() {
  local log="$1" start end rc counts
  shift
  start=$(date +%s%N)
  "$@" >"$log" 2>&1
  rc=$?
  end=$(date +%s%N)
  counts="$(grep -m1 -oE '[0-9]+ scenarios: [^.]*|[0-9]+ of [0-9]+ known-bad controls caught|tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | head -1)"
  printf '%s|%s|%s\n' "$(awk "BEGIN { printf \"%.2f\", ($end - $start) / 1e9 }")" "$rc" "${counts:-see $log}"
}
# figure NAME GOAL CMD...: CMD at -j 1 and -j auto (the word JOBS in CMD becomes -j 1 or
# -j auto; NJOBS becomes -j 1 or -j CORES, for a tool without "auto").
figure() {
  local name="$1" goal="$2" j one auto
  shift 2
  for j in 1 auto; do
    local cmd=()
    for arg in "$@"; do
      case "$arg" in
        JOBS) cmd+=(-j "$j") ;;
        NJOBS) cmd+=(-j "$([ "$j" = 1 ] && echo 1 || nproc)") ;;
        *) cmd+=("$arg") ;;
      esac
    done
    local result
    result="$(seconds "$out/${name// /_}-j$j.log" "${cmd[@]}")"
    [ "$j" = 1 ] && one="$result" || auto="$result"
  done
  rows+=("| $name | ${one%%|*} s (exit $(echo "$one" | cut -d'|' -f2); $(echo "$one" | cut -d'|' -f3)) | ${auto%%|*} s (exit $(echo "$auto" | cut -d'|' -f2); $(echo "$auto" | cut -d'|' -f3)) | $goal |")
  echo "perf: ${rows[-1]}" >&2
}
# figure_auto NAME GOAL CMD...: CMD at -j auto only (JOBS, NJOBS as above).
figure_auto() {
  local name="$1" goal="$2" cmd=() result
  shift 2
  for arg in "$@"; do
    case "$arg" in
      JOBS) cmd+=(-j auto) ;;
      NJOBS) cmd+=(-j "$(nproc)") ;;
      *) cmd+=("$arg") ;;
    esac
  done
  result="$(seconds "$out/${name// /_}-jauto.log" "${cmd[@]}")"
  rows+=("| $name | - | ${result%%|*} s (exit $(echo "$result" | cut -d'|' -f2); $(echo "$result" | cut -d'|' -f3)) | $goal |")
  echo "perf: ${rows[-1]}" >&2
}
skip() { rows+=("| $1 | skipped: $3 | skipped: $3 | $2 |"); echo "perf: $1: skipped: $3" >&2; }

# A usable GPU? The environment of one replay scenario's run says.
"$hostcb" run --filter 'replay/*' --axis replays=1 --json "$out/probe.json" -q >"$out/probe.log" 2>&1
gpu="$(python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["environment"]; print("yes" if e["gpu_usable"] else e["gpu_unusable_reason"] or "no GPU")' "$out/probe.json" 2>/dev/null || echo "hostcb could not run a scenario (see $out/probe.log)")"

reduced=(--axis replays=2 --axis callbacks=5 --axis calls=5 --axis streams=16)
names=("default matrix" "self-test (one control a check and family)" "self-test --full"
       "cuda-bindings (the image's), runtime module, every family, reduced axes"
       "captured graphs launched twice through it (each crashes before 13.5.0)"
       "numba-cuda's device_fault xfails (its add_callback raises)"
       "layers.sh: cuda-bindings wheels x 2 modules + the image's layers, reduced axes"
       "60 crashes (oneshot controls, replay)")
goals=("<= 8 s; -j 1 at least 3x" "<= 30 s" "<= 120 s" "<= 20 s" "<= 0.3 s a crash" "<= 1 s each" "<= 90 s" "<= 2 s")
if [ "$gpu" != yes ]; then
  for k in "${!names[@]}"; do skip "${names[$k]}" "${goals[$k]}" "no usable GPU"; done
else
  figure "${names[0]}" "${goals[0]}" "$hostcb" run -q JOBS --junit "$out/matrix.xml"
  figure "${names[1]}" "${goals[1]}" "$hostcb" self-test JOBS
  figure_auto "${names[3]}" "${goals[3]}" "$hostcb" run -q JOBS --adapter cuda_bindings:runtime \
    --axis forward=cuda_bindings_runtime "${reduced[@]}" --no-expectations
  figure_auto "${names[4]}" "${goals[4]}" "$hostcb" run -q JOBS --adapter cuda_bindings:runtime \
    --filter 'replay/*forward=cuda_bindings_runtime/build=capture*' --axis replays=2 --no-expectations
  figure_auto "${names[5]}" "${goals[5]}" "$hostcb" run -q JOBS --adapter numba:add_callback \
    --filter 'device_fault/*forward=numba_add_callback*' --no-expectations
  if [ -n "$wheels" ]; then
    figure_auto "${names[6]}" "${goals[6]}" bash "$root/scripts/layers.sh" -j auto --hostcb "$hostcb" --out "$out/layers" \
      --wheels "$wheels" cupy-cuda13x numba-cuda cuda-core -- "${reduced[@]}"
  else
    skip "${names[6]}" "${goals[6]}" "no --wheels folder given"
  fi
  figure "${names[7]}" "${goals[7]}" "$hostcb" run -q JOBS --controls --filter 'replay/*forward=oneshot*'
  # The longest last: a run cut short still has the others.
  figure_auto "${names[2]}" "${goals[2]}" "$hostcb" self-test --full JOBS
fi

machine="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
table="$(
  echo "<!-- perf:begin (scripts/perf.sh writes this block) -->"
  echo "Measured by \`scripts/perf.sh\`, $(date -u +%Y-%m-%d), $(hostname), ${machine:-no GPU}, $(nproc) cores, hostcb $("$hostcb" --version 2>/dev/null | head -1)$([ "$gpu" = yes ] || echo " ($gpu)"):"
  echo
  echo "| work | -j 1 | -j auto | goal |"
  echo "|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
  echo "<!-- perf:end -->"
)"
echo "$table"
if [ "$gpu" = yes ] && [ "$write" = 1 ]; then
  python3 - "$doc" "$table" <<'PY'
import re, sys
path, table = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
block = re.compile(r"<!-- perf:begin.*?<!-- perf:end -->", re.S)
text = block.sub(lambda _: table, text) if block.search(text) else text.rstrip("\n") + "\n\n## Performance\n\n" + table + "\n"
open(path, "w", encoding="utf-8").write(text)
PY
  echo "perf.sh: the table is in $doc" >&2
fi
exit 0
