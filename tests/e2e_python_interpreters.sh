#!/usr/bin/env bash
# One build of the Python adapters, any CPython 3.9+: for each PYTHON given, a layer module
# that says which interpreter runs it is loaded with python=PYTHON and runs one scenario
# through the stub CLI (CPython 3.9 and newer), or is refused with one line and exit 2
# naming the version (older ones). Then the refusals that need no particular interpreter: a
# missing file, a program that is no Python, a Python without a shared libpython, and (with
# two interpreters of different libpythons) a second Python layer on another interpreter.
# Usage: e2e_python_interpreters.sh HOSTCB_STUB ADAPTER_DIR WORK_DIR PYTHON...
set -uo pipefail
stub="$1" adapters="$2" work="$3"
shift 3
fail() { echo "e2e_python_interpreters: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
cat >"$work/whoami.py" <<'PY'
import sys
NAME = "whoami"
def launch_host_func(stream, fn, user_data):
    import ctypes
    ctypes.CFUNCTYPE(None, ctypes.c_void_p)(fn)(user_data)
    return 0
def describe():
    return "Python %d.%d.%d at %s" % (sys.version_info[:3] + (sys.executable,))
PY
export PYTHONPATH="$work"
runtime="$adapters/libhostcb_python_runtime.so"
driver="$adapters/libhostcb_python_driver.so"

# refused PYTHON_OPTION REGEX: one line on stderr matching REGEX, exit 2.
refused() {
  local out rc
  out=$("$stub" list --adapter "$runtime@module=whoami,$1" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" = 2 ] || fail "$1: exit $rc, not 2: $out"
  [ "$(printf '%s\n' "$out" | grep -c .)" = 1 ] || fail "$1: not one line: $out"
  printf '%s\n' "$out" | grep -qE "$2" || fail "$1: '$out' does not match '$2'"
}

ran=0
usable=()  # "python|libdir|sys.prefix" of each that ran
for python in "$@"; do
  read -r version executable libdir prefix < <("$python" -c 'import sys, sysconfig
print("%d.%d.%d %s %s %s" % (tuple(sys.version_info[:3]) + (sys.executable, sysconfig.get_config_var("LIBDIR"), sys.prefix)))' \
    2>/dev/null) || fail "$python does not run"
  minor=$(echo "$version" | cut -d. -f2)
  if [ "${version%%.*}" != 3 ] || [ "$minor" -lt 9 ]; then
    refused "python=$python" "init refused: python=$python: Python $version; the Python adapters need CPython 3.9 or newer"
    echo "python $version ($python): refused, as it should be"
    continue
  fi
  rm -f "$work/r.json"
  out=$("$stub" run --adapter "$runtime@module=whoami,python=$python" --json "$work/r.json" \
                    --filter 'stub_forward/forward=whoami/op=launch_host_func' 2>&1)
  if grep -q "init refused: python=$python: Python $version has no shared libpython" <<<"$out"; then
    echo "python $version ($python): no shared libpython here: refused, as it should be"  # (a distribution's
    continue                                                                             # python3 without libpython3.x)
  fi
  echo "$out" | grep -q '1 scenarios: 1 passed' || fail "python $version ($python): the scenario did not pass: $out"
  grep -qF "\"describe\": \"Python $version at $executable\"" "$work/r.json" ||
    fail "python $version ($python): the layer ran elsewhere: $(grep -m1 '"describe"' "$work/r.json")"
  echo "python $version ($python): ran the layer"
  ran=$((ran + 1))
  usable+=("$python|$libdir|$prefix")
done
[ "$ran" -ge 1 ] || fail "no CPython 3.9+ among: $*"
# The listing names the adapter by the forward-axis name it took (what the pytest plugin reads).
"$stub" list --format json --adapter "$runtime@module=whoami,python=${usable[0]%%|*}" 2>/dev/null |
  tr -d ' \n' | grep -qF '"adapters":[{"name":"whoami","path":' || fail "list --format json does not name the adapter"

refused "python=/nonexistent/python3" "init refused: python=/nonexistent/python3: No such file or directory$"
refused "python=/bin/true" "init refused: python=/bin/true: not a CPython: hostcb's query got no answer \\(exit 0: it printed nothing\\)"
cat >"$work/static-python" <<'SH'
#!/bin/sh
printf 'hostcb-python-query-1\n3.12.0\n/opt/static/bin/python3\n/opt/static\n\n'
SH
chmod +x "$work/static-python"
refused "python=$work/static-python" "Python 3.12.0 has no shared libpython"
HOSTCB_PYTHON=/nonexistent/from-env refused "name=x" "init refused: HOSTCB_PYTHON=/nonexistent/from-env: No such file or directory"

cat >"$work/old-python" <<'SH'
#!/bin/sh
printf 'hostcb-python-query-1\n3.8.0\n/opt/old/bin/python3\n/opt/old\n/opt/old/lib/libpython3.8.so.1.0\n'
SH
chmod +x "$work/old-python"
refused "python=$work/old-python" "init refused: python=$work/old-python: Python 3.8.0; the Python adapters need CPython 3.9 or newer"

# One process embeds one interpreter: a second Python layer on another libpython, or on
# another venv of the same one, is refused (where this machine has such a pair).
second_layer_refused() {  # PYTHON-A PYTHON-B REGEX
  local out rc
  out=$("$stub" list --adapter "$runtime@module=whoami,python=$1" --adapter "$driver@module=whoami,name=whoami2,python=$2" \
        2>&1 >/dev/null)
  rc=$?
  [ "$rc" = 2 ] && grep -qE "$3" <<<"$out" || fail "python=$1 then python=$2: exit $rc: $out"
  echo "python=$1 then python=$2: refused, as it should be"
}
other_library="" other_prefix=""
for a in "${usable[@]}"; do
  for b in "${usable[@]}"; do
    IFS='|' read -r pa la xa <<<"$a"
    IFS='|' read -r pb lb xb <<<"$b"
    if [ -z "$other_library" ] && [ "$la" != "$lb" ]; then
      other_library=1
      second_layer_refused "$pa" "$pb" "is running in this process already; give both Python layers the same python"
    elif [ -z "$other_prefix" ] && [ "$la" = "$lb" ] && [ "$xa" != "$xb" ]; then
      other_prefix=1
      second_layer_refused "$pa" "$pb" "its sys.prefix is $xb, but the Python running in this process already has $xa"
    fi
  done
done
echo "e2e_python_interpreters: $ran interpreters ran the layer; the refusals hold"
