#!/usr/bin/env bash
# The figures of issue 25's table, each measured at -j 1 and at -j auto side by side in
# one run, written as a dated table into docs/verification.md (between the perf markers).
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
Figures: the default matrix; self-test; 10,000 fuzz seeds, direct and graph_owned; the 60
crashes of the oneshot controls through replay; layers.sh over the wheels (runtime and
driver modules, every family); CTest's GPU scenarios against hostcb run; and what a standby
worker costs when nothing crashes (-j auto with and without --no-standby).
Each is the wall time of one run, with its exit code and its counts line.
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
skip() { rows+=("| $1 | skipped: $3 | skipped: $3 | $2 |"); echo "perf: $1: skipped: $3" >&2; }

# A usable GPU? The environment of one replay scenario's run says.
"$hostcb" run --filter 'replay/*' --axis replays=1 --json "$out/probe.json" -q >"$out/probe.log" 2>&1
gpu="$(python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["environment"]; print("yes" if e["gpu_usable"] else e["gpu_unusable_reason"] or "no GPU")' "$out/probe.json" 2>/dev/null || echo "hostcb could not run a scenario (see $out/probe.log)")"

names=("default matrix" "self-test" "10,000 fuzz seeds, direct + graph_owned" "60 crashes (oneshot controls, replay)"
       "cuda-bindings wheels x runtime + driver, every family, layers.sh" "CTest on the GPU, default matrix"
       "standby cost, default matrix at -j auto")
goals=("<= 4 s" "<= 20 s" "<= 10 s" "<= 2 s" "<= 90 s" "<= 1.5x hostcb run" "about 0")
if [ "$gpu" != yes ]; then
  for k in "${!names[@]}"; do skip "${names[$k]}" "${goals[$k]}" "no usable GPU"; done
else
  figure "${names[0]}" "${goals[0]}" "$hostcb" run -q JOBS --junit "$out/matrix.xml"
  figure "${names[1]}" "${goals[1]}" "$hostcb" self-test JOBS
  figure "${names[2]}" "${goals[2]}" "$hostcb" run -q JOBS --filter 'fuzz/*' --axis seed=1-10000 --axis forward=direct,graph_owned
  figure "${names[3]}" "${goals[3]}" "$hostcb" run -q JOBS --controls --filter 'replay/*forward=oneshot*'
  if [ -n "$wheels" ]; then
    # layers.sh's own -j: its runs side by side, each hostcb with its share of the cores.
    figure "${names[4]}" "${goals[4]}" bash "$root/scripts/layers.sh" NJOBS --hostcb "$hostcb" --out "$out/layers" --wheels "$wheels"
  else
    skip "${names[4]}" "${goals[4]}" "no --wheels folder given"
  fi
  build="$(dirname "$hostcb")"
  if [ -f "$build/CTestTestfile.cmake" ]; then
    figure "${names[5]}" "${goals[5]}" ctest --test-dir "$build" -L gpu -E 'selftest|bench_smoke' NJOBS
  else
    skip "${names[5]}" "${goals[5]}" "no CTest build beside $hostcb"
  fi
  # A standby is started beside every worker; when nothing crashes it is let go unused.
  with="$(seconds "$out/standby-on.log" "$hostcb" run -q -j auto)"
  without="$(seconds "$out/standby-off.log" "$hostcb" run -q -j auto --no-standby)"
  rows+=("| ${names[6]} | --no-standby ${without%%|*} s | standby ${with%%|*} s | ${goals[6]} |")
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
