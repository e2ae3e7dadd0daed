#!/usr/bin/env bash
# hostcb repro against CPU stand-ins of CUDA (issue 44): the reproducers of replay, update,
# stream_callback and lifetime must fail exactly where the scenario fails and pass where it passes.
#   Python: each id through forward=cuda_bindings_runtime, run under a stand-in of
#     cuda.bindings.runtime (tests/repro/standin/), correct and with the bug of the
#     bindings before 13.5.0. Correct: every program passes. Buggy: exactly the ids that the
#     shipped expectations mark for cuda-bindings 13.3.1 (what the H200 showed) fail.
#   C++: each id through a plugin with the built-in oneshot layer's bug
#     (tests/repro/oneshot_plugin.c), linked against a stand-in of the CUDA runtime
#     (tests/repro/standin_cudart.c): exactly the ids `hostcb list --controls` marks as
#     known-bad controls of forward=oneshot fail; through forward=direct, every one passes.
# Ids of a family or case with no steps must be refused (exit 2, one line), writing nothing.
# Usage: e2e_repro.sh HOSTCB SOURCE_DIR CUDA_INCLUDE_DIR CC CXX WORK_DIR
set -uo pipefail
hostcb="$1" src="$2" cuda_include="$3" cc="$4" cxx="$5" work="$6"
rm -rf "$work" && mkdir -p "$work/py" "$work/cpp"
fail() { echo "FAIL: $*" >&2; exit 1; }
standin_py="$src/tests/repro/standin"

ids_of() {  # ids_of FILTER: the ids (first column) of `hostcb list --controls`, replays 1 and 2
  "$hostcb" list --controls --filter "$1" --axis replays=1,2 2>/dev/null
}
families='replay/api=runtime/forward=direct/* update/api=runtime/forward=direct/* stream_callback/api=runtime/forward=direct/*
  lifetime/api=runtime/forward=direct/*'

# ---- Python ----
written=0 refused=0 python_ran=0 python_failed=0
: >"$work/py-ids"
for f in $families; do ids_of "$f" | cut -f1 | sed 's/forward=direct/forward=cuda_bindings_runtime/' >>"$work/py-ids"; done
python3 "$src/tests/repro/shipped_bug_marks.py" "$src/expectations/known-layer-bugs.jsonc" 13.3.1 <"$work/py-ids" >"$work/py-marked"
[ -s "$work/py-marked" ] || fail "the shipped expectations mark none of $(wc -l <"$work/py-ids") ids"
if "$hostcb" repro "$(head -n 1 "$work/py-ids")" --out "$work/probe" >"$work/probe.log" 2>&1; then
  python_ran=1
  n=0
  while read -r id; do
    n=$((n + 1)) dir="$work/py/$n"
    "$hostcb" repro "$id" --out "$dir" >"$dir.log" 2>&1
    rc=$?
    if [ "$rc" = 2 ]; then
      [ "$(wc -l <"$dir.log")" = 1 ] && grep -q "reproducer steps" "$dir.log" || fail "repro $id: exit 2 without its one line: $(cat "$dir.log")"
      [ ! -e "$dir/repro.py" ] || fail "repro $id refused, yet wrote $dir/repro.py"
      refused=$((refused + 1))
      continue
    fi
    [ "$rc" = 0 ] || fail "repro $id exited $rc: $(cat "$dir.log")"
    written=$((written + 1))
    PYTHONPATH="$standin_py" python3 "$dir/repro.py" >"$dir/good.log" 2>&1 ||
      fail "$id: the reproducer failed under the correct stand-in: $(tail -n 3 "$dir/good.log")"
    HOSTCB_STANDIN_BUG=frees_after_first_call PYTHONPATH="$standin_py" python3 "$dir/repro.py" >"$dir/bad.log" 2>&1
    bad=$?
    if grep -qxF "$id" "$work/py-marked"; then
      [ "$bad" = 1 ] || fail "$id: hostcb saw cuda-bindings 13.3.1 fail it; its reproducer under the bug exited $bad: $(tail -n 2 "$dir/bad.log")"
      python_failed=$((python_failed + 1))
      grep -q "^FAILED: .*host function #[0-9]* was called [0-9]* times\?; expected [0-9]*$" "$dir/bad.log" ||
        fail "$id: the failure does not say which host function was called how often: $(cat "$dir/bad.log")"
    else
      [ "$bad" = 0 ] || fail "$id: hostcb saw cuda-bindings 13.3.1 pass it; its reproducer under the bug exited $bad: $(tail -n 2 "$dir/bad.log")"
    fi
  done <"$work/py-ids"
  echo "python: $written reproducers: each passed under the correct stand-in; under the bug, the $python_failed the shipped expectations mark failed and the others passed; $refused ids refused (no steps)"
else
  grep -q "Python adapters" "$work/probe.log" || fail "repro of a Python layer's id: $(cat "$work/probe.log")"
  echo "python: not run: $(cat "$work/probe.log")"
fi
[ "$python_ran" = 0 ] || { [ "$written" -ge 30 ] && [ "$python_failed" -ge 10 ]; } ||
  fail "too few Python reproducers: $written written, $python_failed failing under the bug"

# ---- C++ ----
"$cc" -shared -fPIC -Wall -Wextra -Werror -I"$cuda_include" -o "$work/libcudart_standin.so" "$src/tests/repro/standin_cudart.c" ||
  fail "the stand-in CUDA runtime does not build"
"$cc" -shared -fPIC -Wall -Wextra -Werror -I"$cuda_include" -I"$src/harness/include" -o "$work/oneshot_plugin.so" \
  "$src/tests/repro/oneshot_plugin.c" -L"$work" -lcudart_standin -Wl,-rpath,"$work" || fail "the oneshot plugin does not build"
: >"$work/cpp-ids"
# update's captures only: each C++ program is a compile, a second apiece on CI's 2 cores,
# and the Python part above covers update's host nodes too.
for f in 'replay/api=runtime/forward=oneshot/*sync=end' 'update/api=runtime/forward=oneshot/*build=capture/*' \
  'stream_callback/api=runtime/forward=oneshot/gate=open/*' 'lifetime/api=runtime/forward=oneshot/*build=node/*'; do
  ids_of "$f" >>"$work/cpp-ids"
done
cpp_run() {  # cpp_run ID DIR [PLUGIN]: writes, builds and runs the reproducer; prints its exit code
  "$hostcb" repro "$1" ${3:+--adapter "$3"} --out "$2" >"$2.log" 2>&1 || { echo "repro:$?"; return; }
  "$cxx" -O0 -w -o "$2/repro" "$2/repro.cpp" -I"$cuda_include" -I"$src/harness/include" ${3:+"$3"} \
    -L"$work" -lcudart_standin -Wl,-rpath,"$work" >"$2/build.log" 2>&1 || { echo "build"; return; }
  "$2/repro" >"$2/run.log" 2>&1
  echo $?
}
n=0 caught=0 passed=0 refused=0
while IFS=$'\t' read -r id mark; do
  n=$((n + 1))
  rc=$(cpp_run "$id" "$work/cpp/$n" "$work/oneshot_plugin.so")
  case "$rc" in
    repro:2) refused=$((refused + 1)); continue ;;
    repro:* | build) fail "$id: $rc: $(cat "$work/cpp/$n.log" "$work/cpp/$n/build.log" 2>/dev/null | tail -n 5)" ;;
  esac
  if [ -n "$mark" ]; then
    [ "$rc" = 1 ] || fail "$id is a known-bad control of oneshot; its reproducer through the oneshot plugin exited $rc"
    grep -q "^FAILED: .*host function #[0-9]* was called [0-9]* times\?; expected [0-9]*$" "$work/cpp/$n/run.log" ||
      fail "$id: the failure does not say which host function was called how often: $(cat "$work/cpp/$n/run.log")"
    caught=$((caught + 1))
  else
    [ "$rc" = 0 ] || fail "$id passes through oneshot; its reproducer through the oneshot plugin exited $rc: $(cat "$work/cpp/$n/run.log")"
    passed=$((passed + 1))
  fi
done <"$work/cpp-ids"
[ "$caught" -ge 10 ] && [ "$passed" -ge 4 ] || fail "too few C++ reproducers: $caught failing, $passed passing"
# forward=direct: CUDA's own calls; one id of each kind of step.
for id in 'replay/api=runtime/forward=direct/build=capture_relaxed/replays=5/sync=each' \
  'update/api=runtime/forward=direct/case=graph_set_params_second/build=node/replays=2' \
  'update/api=runtime/forward=direct/case=upload/build=capture/replays=2' \
  'stream_callback/api=runtime/forward=direct/gate=open/callbacks=5'; do
  n=$((n + 1))
  rc=$(cpp_run "$id" "$work/cpp/$n")
  [ "$rc" = 0 ] || fail "$id through forward=direct: $rc: $(cat "$work/cpp/$n/run.log" "$work/cpp/$n.log" 2>/dev/null | tail -n 3)"
done
echo "c++: through the oneshot plugin, the $caught known-bad controls failed and $passed others passed; 4 through forward=direct passed; $refused ids refused (no steps)"

# Bad input: one line, exit 2, nothing written.
expect_refusal() {  # expect_refusal WHAT ARGS...
  local what="$1"
  shift
  "$hostcb" repro "$@" --out "$work/refused" >"$work/refusal.log" 2>&1
  local rc=$?
  [ "$rc" = 2 ] || fail "repro $what: exit $rc, expected 2: $(cat "$work/refusal.log")"
  [ "$(grep -c . "$work/refusal.log")" = 1 ] || fail "repro $what: not one line: $(cat "$work/refusal.log")"
  [ ! -e "$work/refused/repro.py" ] && [ ! -e "$work/refused/repro.cpp" ] || fail "repro $what wrote a program"
}
expect_refusal "of an unknown family" 'nosuch/api=runtime/forward=direct'
expect_refusal "of a family without steps" 'lifetime/api=runtime/forward=direct/case=user_object/build=capture/replays=2'
expect_refusal "of a built-in known-bad layer" 'replay/api=runtime/forward=oneshot/build=node/replays=2/sync=end'
expect_refusal "with a missing plugin" 'replay/api=runtime/forward=direct/build=node/replays=2/sync=end' --adapter "$work/none.so"
expect_refusal "of a module outside hostcb_layers" 'replay/api=runtime/forward=mine/build=node/replays=2/sync=end' \
  --adapter "$work/oneshot_plugin.so@module=mypackage.mylayer"
echo "e2e_repro: ok"
