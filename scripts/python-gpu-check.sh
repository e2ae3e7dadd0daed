#!/usr/bin/env bash
# The GPU machine's check of the Python side (issue 28), offline: builds the wheel from the
# tree, installs it into a venv that also sees python3's own packages (the image's
# cuda-bindings), and for the image's cuda-bindings and for the one in WHEELS/layer runs the
# layer both ways, `hostcb run` and `pytest --hostcb-layer`, and compares them
# (scripts/compare-pytest-hostcb.py); then `pytest -n 4` where pytest-xdist is importable.
# Usage: scripts/python-gpu-check.sh OUT WHEELS [LAYER [FILTER]]
#   OUT     results folder (summary.txt, the JSON and JUnit files, logs)
#   WHEELS  scripts/device-wheels.sh's folder: build/ (scikit-build-core and its needs,
#           pytest-xdist) and layer/ (cuda-bindings 13.5.0, cuda-pathfinder)
#   LAYER   default cuda_bindings:runtime (its forward name: cuda_bindings_runtime)
#   FILTER  hostcb's --filter for both (default: every scenario through the layer)
# Needs build/ from `bash scripts/build.sh` (its folder is handed to scikit-build-core).
# Exit: 0 every comparison agreed and the newer cuda-bindings passed, 1 otherwise, 2 usage.
set -uo pipefail
[ $# -ge 2 ] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$1" && out="$(cd "$1" && pwd)"
wheels="$(cd "$2" && pwd)" || exit 2
layer="${3:-cuda_bindings:runtime}"
forward="${layer%%@*}"
forward="${forward/:/_}"
filter="${4:-*forward=$forward*}"
summary="$out/summary.txt"
: >"$summary"
bad=0
note() { echo "$*" | tee -a "$summary"; }

python3 -m pip install -q --no-index --no-deps --no-compile --target "$out/tools" "$wheels"/build/*.whl ||
  { note "FAILED: installing $wheels/build"; exit 1; }
export PYTHONPATH="$out/tools${PYTHONPATH:+:$PYTHONPATH}"
bash "$root/scripts/wheel.sh" --reuse "$root/build" --out "$out/dist" >"$out/wheel.log" 2>&1 ||
  { note "FAILED: the wheel: $(tail -n 3 "$out/wheel.log")"; exit 1; }
note "wheel: $(ls "$out"/dist/hostcb-*.whl)"
python3 -m venv "$out/venv" || exit 1
py="$out/venv/bin/python"
# The venv sees python3's own packages (the image's cuda-bindings, pytest) after its own.
python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' \
  >"$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/image-packages.pth"
"$py" -m pip install -q --no-index --no-deps "$out"/dist/hostcb-*.whl || { note "FAILED: installing the wheel"; exit 1; }

# both LABEL [PYTEST-ARGS...]: hostcb run and pytest over the layer, side by side (each
# verdict holds whatever runs beside it), then compared. With RUN=LABEL2 set, pytest alone,
# compared with LABEL2's hostcb run (the -n 4 runs: hostcb's side is the image's).
both() {
  local label="$1" version rc_run=- rc_pytest joiner run_json pid=""
  shift
  version=$("$py" -c 'import importlib.metadata as m; print(m.version("cuda-bindings"))' 2>/dev/null || echo '?')
  joiner="@"
  [[ "$layer" == *@* ]] && joiner=","
  run_json="$out/run-${RUN:-$label}.json"
  if [ -z "${RUN:-}" ]; then
    "$out/venv/bin/hostcb" run -q --adapter "$layer${joiner}python=$py" --filter "$filter" \
      --json "$run_json" >"$out/run-$label.log" 2>&1 &
    pid=$!
  fi
  (cd "$out" && "$py" -m pytest "--hostcb-layer=$layer" "--hostcb-filter=$filter" -q -p no:cacheprovider --junitxml "$out/pytest-$label.xml" "$@") \
    >"$out/pytest-$label.log" 2>&1
  rc_pytest=$?
  if [ -n "$pid" ]; then
    wait "$pid"
    rc_run=$?
    note "$label (cuda-bindings $version): hostcb run exit $rc_run: $(grep -m1 -E '^[0-9]+ scenarios' "$out/run-$label.log")"
  fi
  note "$label (cuda-bindings $version): pytest $* exit $rc_pytest: $(tail -n 1 "$out/pytest-$label.log")"
  if "$py" "$root/scripts/compare-pytest-hostcb.py" "$run_json" "$out/pytest-$label.xml" "$forward" \
    >"$out/compare-$label.txt" 2>&1; then
    note "$label: pytest and hostcb run agree on every scenario${RUN:+ (hostcb run: $RUN)}"
  else
    note "$label: DIFFER: $(tail -n 5 "$out/compare-$label.txt" | tr '\n' ' ')"
    bad=1
  fi
  last_pytest_rc=$rc_pytest
}

both image
"$py" -m pip install -q --no-index --no-deps --no-compile --target "$out/newer" "$wheels"/layer/*.whl ||
  { note "FAILED: installing $wheels/layer"; exit 1; }
PYTHONPATH="$out/newer:$PYTHONPATH" both newer
[ "$last_pytest_rc" = 0 ] || { note "the newer cuda-bindings did not pass under pytest (exit $last_pytest_rc)"; bad=1; }
if "$py" -c 'import xdist' 2>/dev/null; then
  RUN=image both image-n4 -n 4
  RUN=image both image-n4-loadgroup -n 4 --dist loadgroup
else
  note "pytest-xdist is not importable: -n 4 not run"
fi
note "python-gpu-check: exit $bad"
exit "$bad"
