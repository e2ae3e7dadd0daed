#!/usr/bin/env bash
# hostcb bisect over stand-in releases of a Python layer (issue 44): wheels of a fake layer
# whose launch_host_func forgets a (function, userData) after its first call from 1.2 on,
# as cuda-bindings' trampoline did; the CPU stub family stub_forward runs it three times.
# bisect must order the versions by PEP 440 (1.10 after 1.2; a folder named by its wheel's
# version), find the planted boundary in fewer runs than versions, find a fix with --all,
# and refuse bad input before anything runs.
# Usage: e2e_bisect.sh HOSTCB_STUB PYTHON_ADAPTER_LIBRARY WORK_DIR   (exit 77: no pip here)
set -uo pipefail
stub="$1" adapter_lib="$2" work="$3"
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
python3 -m pip --version >/dev/null 2>&1 || { echo "no pip: skipped"; exit 77; }

# make_wheels DIR VERSION:FOLDER:BEHAVIOUR...: one wheel of fake-released-layer a folder.
make_wheels() {
  python3 - "$(dirname "$0")" "$@" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from fake_wheel import write_wheel
root = sys.argv[2]
for spec in sys.argv[3:]:
    version, folder, behaviour = spec.split(":")
    module = f'''import ctypes
NAME = "released"
HOST_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_called = set()
_calls = [0]
def launch_host_func(stream, fn, user_data):
    _calls[0] += 1
    if {behaviour == "forgets"!r} and (fn, user_data) in _called:
        return 0  # the record was freed after its first call: nothing is called
    if {behaviour == "flaky"!r} and _calls[0] > 3:
        return 0  # right the first time in a process, then forgets every call
    _called.add((fn, user_data))
    HOST_FN(fn)(user_data)
    return 0
def versions():
    return {{"fake-released-layer": "{version}"}}
'''
    write_wheel(f"{root}/{folder}", "fake-released-layer", version, {"fake_released_layer.py": module})
PY
}
id="stub_forward/forward=released/op=launch_host_func"
adapter="$adapter_lib@module=fake_released_layer,name=released"

# 1. A regression planted at 1.2: string order would put 1.10 (a folder named "ten") first.
make_wheels "$work/regression" 1.0:1.0:calls 1.1:1.1:calls 1.2:1.2:forgets 1.10:ten:forgets 2.0rc1:2.0rc1:forgets
"$stub" bisect "$id" --wheels "$work/regression" --adapter "$adapter" --out "$work/out1" >"$work/one.log" 2>"$work/one.err"
rc=$?
[ $rc = 0 ] || fail "bisect over the regression: exit $rc: $(cat "$work/one.log" "$work/one.err")"
grep -q '^  through .*, 5 versions (oldest first): 1.0 1.1 1.2 1.10 2.0rc1$' "$work/one.log" ||
  fail "versions not in PEP 440 order: $(cat "$work/one.log")"
grep -q '^last good 1.1, first bad 1.2 (4 of 5 versions run)$' "$work/one.log" ||
  fail "no 'last good 1.1, first bad 1.2' in 4 runs: $(cat "$work/one.log")"
grep -qE '^  1\.2 +bad +failed: .*called 1 time' "$work/one.log" || fail "1.2's line does not say why: $(cat "$work/one.log")"
grep -qE '^  1\.10 +- +not run$' "$work/one.log" || fail "1.10 should not have run: $(cat "$work/one.log")"
[ -f "$work/out1/site-1.2/.hostcb-installed" ] || fail "no install of 1.2 under --out"
[ ! -e "$work/out1/site-1.10" ] || fail "1.10 was installed, though bisect did not need it"

# 2. A fix (bad, then good), every version run (--all), and the installs of a first run reused.
make_wheels "$work/fix" 1.0:a:forgets 2.0:b:calls
"$stub" bisect "$id" --wheels "$work/fix" --adapter "$adapter" --all --out "$work/out2" >"$work/two.log" 2>&1 ||
  fail "bisect --all over the fix: exit $?: $(cat "$work/two.log")"
grep -q '^last bad 1.0, first good 2.0 (2 of 2 versions run)$' "$work/two.log" || fail "no fix found: $(cat "$work/two.log")"
grep -qE '^  2\.0 +good +passed$' "$work/two.log" || fail "2.0's line: $(cat "$work/two.log")"

# 2b. A flaky release (right on its first pass in a process only) is good run once and bad
# with --repeat 2, the worst of its passes deciding.
make_wheels "$work/flaky" 1.0:1.0:calls 2.0:2.0:flaky
"$stub" bisect "$id" --wheels "$work/flaky" --adapter "$adapter" --out "$work/out2b" >"$work/twob.log" 2>&1
rc=$?
[ $rc = 1 ] && grep -qE '^  2\.0 +good +passed$' "$work/twob.log" || fail "flaky, run once: exit $rc: $(cat "$work/twob.log")"
"$stub" bisect "$id" --wheels "$work/flaky" --adapter "$adapter" --repeat 2 --out "$work/out2b" >"$work/twob.log" 2>&1
rc=$?
[ $rc = 0 ] && grep -qE '^  2\.0 +bad +failed: .*\(worst of 2 runs\)$' "$work/twob.log" &&
  grep -q '^last good 1.0, first bad 2.0' "$work/twob.log" || fail "flaky, --repeat 2: exit $rc: $(cat "$work/twob.log")"

# 3. No boundary: the ends agree (exit 1), and --all sees two changes (exit 1).
make_wheels "$work/same" 1.0:1.0:calls 1.5:1.5:forgets 2.0:2.0:calls
"$stub" bisect "$id" --wheels "$work/same" --adapter "$adapter" --out "$work/out3" >"$work/three.log" 2>&1
rc=$?
[ $rc = 1 ] && grep -q '^no boundary: the oldest and the newest version that could be judged are both good' "$work/three.log" ||
  fail "ends that agree: exit $rc: $(cat "$work/three.log")"
"$stub" bisect "$id" --wheels "$work/same" --adapter "$adapter" --all --out "$work/out3" >"$work/four.log" 2>&1
rc=$?
[ $rc = 1 ] && grep -q '^no boundary: 2 changes between the versions, not one (3 of 3 versions run)' "$work/four.log" ||
  fail "--all over two changes: exit $rc: $(cat "$work/four.log")"

# 4. Bad input: one line, exit 2, nothing installed.
usage() {  # usage EXPECTED-TEXT ARGS...
  local expected="$1"; shift
  "$stub" bisect "$@" --out "$work/usage" >"$work/usage.log" 2>&1
  local rc=$?
  [ $rc = 2 ] && [ "$(wc -l <"$work/usage.log")" = 1 ] && grep -qF "$expected" "$work/usage.log" ||
    fail "bisect $*: exit $rc, expected one line with '$expected': $(cat "$work/usage.log")"
  [ ! -e "$work/usage" ] || [ -z "$(ls -A "$work/usage")" ] || fail "bisect $*: left files though refused"
}
mkdir -p "$work/one/1.0" "$work/odd/latest" "$work/odd/1.0" "$work/deps/1.0" "$work/deps/layer_and_dep"
touch "$work/deps/layer_and_dep/fake_released_layer-2.0-py3-none-any.whl" "$work/deps/layer_and_dep/dep-0.9-py3-none-any.whl"
usage "1 version folder(s); bisect needs two or more" "$id" --wheels "$work/one" --adapter "$adapter"
usage "folder 'latest' is named by no PEP 440 version" "$id" --wheels "$work/odd" --adapter "$adapter"
usage "its wheels do not share one" "$id" --wheels "$work/deps" --adapter "$adapter"  # not the dependency's 0.9
usage "no such folder" "$id" --wheels "$work/none" --adapter "$adapter"
usage "no family 'nosuch'" nosuch/forward=x --wheels "$work/regression"
usage "is built into hostcb" stub_forward/forward=direct/op=capture --wheels "$work/regression"
# 5. The default adapter is the ready name of the id's forward= module; when both ends refuse
# their command line (here: no Python adapter beside the stub), bisect stops: exit 2.
"$stub" bisect stub_forward/forward=cuda_bindings_runtime/op=launch_host_func --wheels "$work/regression" \
  --out "$work/out5" >"$work/five.log" 2>&1
rc=$?
grep -q '^  through cuda_bindings:runtime, 5 versions' "$work/five.log" || fail "default adapter: $(cat "$work/five.log")"
[ $rc = 2 ] && grep -q 'the runs of the first two versions both refused their command line: hostcb: adapter' "$work/five.log" ||
  fail "two refusals: exit $rc: $(cat "$work/five.log")"
echo "bisect: the planted regression (1.1 -> 1.2, 4 of 5 runs), the fix with --all, no boundary, bad input"
