#!/usr/bin/env bash
# scripts/layers.sh -j: layer versions and their modules run side by side, each in its own
# folder, and summary.txt keeps the plan's order whatever finished first. A fake hostcb
# stands in (no GPU, no Python layer): each of its runs waits until all four have started,
# so they pass only side by side; the wheels are two tiny fake cuda-bindings versions.
# Usage: e2e_layers_script.sh SOURCE_DIR WORK_DIR   (exit 77: no pip here)
set -uo pipefail
src="$1" work="$2"
rm -rf "$work" && mkdir -p "$work/wheels" "$work/meet"
fail() { echo "FAIL: $*" >&2; exit 1; }
python3 -m pip --version >/dev/null 2>&1 || { echo "no pip: skipped"; exit 77; }

python3 - "$src/tests" "$work/wheels" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from fake_wheel import write_wheel
for version in ("1.0", "2.0"):
    write_wheel(f"{sys.argv[2]}/{version}", "cuda-bindings", version, {f"cuda_fake_{version.replace('.', '_')}.py": ""})
PY

cat >"$work/hostcb" <<'FAKE'
#!/usr/bin/env bash
# run ... --axis forward=MODULE --json FILE: waits for the other three runs, writes FILE.
if [ "$1" = report ]; then
  while [ $# -gt 0 ]; do [ "$1" = --markdown ] && echo "# matrix" >"$2"; shift; done
  exit 0
fi
json="" module="" jobs=""
while [ $# -gt 0 ]; do
  case "$1" in --json) json="$2" ;; --axis) module="${2#forward=}" ;; -j) jobs="$2" ;; esac
  shift
done
touch "$MEET/$module-$(basename "$json")"
for _ in $(seq 100); do [ "$(ls "$MEET" | wc -l)" -ge 4 ] && break; sleep 0.05; done
[ "$(ls "$MEET" | wc -l)" -ge 4 ] || { echo "alone: the other runs did not start beside this one"; exit 1; }
[ -n "$jobs" ] || { echo "no -j given to hostcb"; exit 1; }
echo '{}' >"$json"
echo "1 scenarios: 1 passed (-j $jobs)"
FAKE
chmod +x "$work/hostcb"

MEET="$work/meet" bash "$src/scripts/layers.sh" -j 4 --hostcb "$work/hostcb" --out "$work/out" --wheels "$work/wheels" \
  >"$work/layers.log" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "layers.sh -j 4: exit $rc: $(cat "$work/out/summary.txt" 2>/dev/null) $(tail -5 "$work/layers.log")"
expected="RAN cuda_bindings_driver cuda-bindings 1.0
RAN cuda_bindings_runtime cuda-bindings 1.0
RAN cuda_bindings_driver cuda-bindings 2.0
RAN cuda_bindings_runtime cuda-bindings 2.0
MATRIX"
got="$(sed -E 's/^(RAN [^:]*|MATRIX).*/\1/' "$work/out/summary.txt")"
[ "$got" = "$expected" ] || fail "layers.sh -j 4: summary not in plan order or not all ran:
$(cat "$work/out/summary.txt")"
grep -q '1 scenarios: 1 passed (-j [1-9]' "$work/out/summary.txt" || fail "layers.sh did not give each hostcb its -j share"
bash "$src/scripts/layers.sh" -j 0 --hostcb "$work/hostcb" --wheels "$work/wheels" >/dev/null 2>&1
[ $? -eq 2 ] || fail "layers.sh -j 0: expected exit 2"
echo "layers.sh -j 4: four runs side by side, summary in plan order"
