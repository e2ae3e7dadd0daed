#!/usr/bin/env bash
# The installed CMake package, used as another project uses it (tests/consumer): installs this
# build with cmake --install into a folder, configures tests/consumer against it, and checks
# its CTest tests: one per listed scenario (PREFIX:id) and one run per family
# (PREFIX:family:name), with the labels asked for; the fake layer's scenarios pass, the stub's
# expected failure is an xfail and passes, and fails once the expectations file is dropped; the
# shipped known-layer-bugs.jsonc is installed into share/hostcb/ and found there; a
# layer that cannot be loaded is one failing test.
# The installed binary and adapters need no library but the C and C++ runtimes (and, where
# the toolkit has no static one, libcudart): spdlog and fmt header-only, no libpython.
# Usage: e2e_consumer.sh BUILD_DIR WORK_DIR FAKE_ADAPTER HOSTCB_STUB EXPECTATIONS [ALSO_NEEDED]
set -uo pipefail
build="$1" work="$2" fake="$3" stub="$4" expectations="$5" also_needed="${6:-}"
src="$(cd "$(dirname "$0")/consumer" && pwd)"
fail() { echo "e2e_consumer: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"

cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 || fail "cmake --install failed: $(tail -n 3 "$work/install.log")"
for f in bin/hostcb include/hostcb/adapter.h lib/cmake/hostcb/hostcbConfig.cmake lib/hostcb/libhostcb_example_adapter.so \
         lib/hostcb/libhostcb_python_runtime.so lib/hostcb/libhostcb_python_driver.so \
         lib/hostcb/python/hostcb_layers/cuda_bindings_runtime.py share/hostcb/known-layer-bugs.jsonc; do
  [ -e "$prefix/$f" ] || fail "cmake --install left out $f"
done
# The shipped expectations, as the wheel carries them (docs/ci.md): the source tree's file.
cmp -s "$prefix/share/hostcb/known-layer-bugs.jsonc" "$(dirname "$0")/../expectations/known-layer-bugs.jsonc" ||
  fail "cmake --install did not install expectations/known-layer-bugs.jsonc as share/hostcb/known-layer-bugs.jsonc"
for plugin in "$build"/libhostcb_cccl_host_launch_*.so; do  # every CCCL plugin the build made
  [ -e "$plugin" ] || continue
  [ -e "$prefix/lib/hostcb/$(basename "$plugin")" ] || fail "cmake --install left out $(basename "$plugin")"
done

# The shipped known layer bugs, found by the installed binary beside it (run's default).
"$prefix/bin/hostcb" list --expectations shipped >/dev/null 2>"$work/shipped.err" ||
  fail "the installed hostcb does not find its shipped expectations: $(tail -n 3 "$work/shipped.err")"
grep -q "^$prefix/bin/../share/hostcb/known-layer-bugs.jsonc:[0-9]*: applies to none: no loaded layer reports cuda-bindings" \
  "$work/shipped.err" || fail "list --expectations shipped did not read the installed file: $(tail -n 3 "$work/shipped.err")"
cmp -s "$prefix/share/hostcb/known-layer-bugs.jsonc" "$src/../../expectations/known-layer-bugs.jsonc" ||
  fail "the installed known-layer-bugs.jsonc is not the source's"

system='^(libc|libm|libdl|librt|libpthread|libstdc\+\+|libgcc_s|ld-linux-x86-64|libasan|libubsan)\.so'  # the sanitizers' runtimes in an ASan build
for object in "$prefix/bin/hostcb" "$prefix"/lib/hostcb/*.so; do
  for needed in $(readelf -d "$object" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    [[ "$needed" =~ $system ]] || { [ -n "$also_needed" ] && [[ "$needed" == "$also_needed"* ]]; } ||
      fail "$(basename "$object") needs $needed"
  done
done

configure() {
  cmake -S "$src" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" -DFAKE_ADAPTER="$fake" -DHOSTCB_STUB="$stub" "$@" \
    >"$work/configure.log" 2>&1 || fail "configuring tests/consumer failed: $(tail -n 5 "$work/configure.log")"
}
test_names() { ctest --test-dir "$work/build" -N "$@" | sed -n 's/^ *Test *#[0-9]*: //p' | sort; }
configure -DEXPECTATIONS="$expectations" -DBROKEN_ADAPTER=

# The tests are the listings, each id once, prefixed, plus one run per family.
example="$prefix/lib/hostcb/libhostcb_example_adapter.so"
expected() {  # PREFIX HOSTCB LIST-ARGS...
  local name="$1" exe="$2"
  shift 2
  "$exe" list "$@" 2>/dev/null | cut -f1 | sed "s|^|$name:|"
  "$exe" list "$@" 2>/dev/null | cut -d/ -f1 | sort -u | sed "s|^|$name:family:|"
}
{
  expected example "$prefix/bin/hostcb" --adapter "$example" --filter 'replay/*forward=example*' --axis replays=1,2
  expected fake "$stub" --adapter "$fake" --filter 'stub_forward/forward=fake/*:stub/behave=pass/*:stub/behave=fail/*' \
    --axis copy=1,2
} | sort >"$work/expected.txt"
test_names >"$work/tests.txt"
[ "$(grep -c '^fake:stub_forward/' "$work/expected.txt")" = 6 ] || fail "the fake adapter's 6 operations are not listed"
diff "$work/expected.txt" "$work/tests.txt" >"$work/diff.txt" ||
  fail "the registered tests are not the listed scenarios (< listed, > registered): $(head -n 6 "$work/diff.txt")"
[ "$(test_names -L '^consumer$' | wc -l)" = "$(wc -l <"$work/tests.txt")" ] || fail "not every test has the label consumer"
[ "$(test_names -L '^layer=fake$' | grep -c -v '^fake:')" = 0 ] || fail "label layer=fake on another prefix's tests"
[ "$(test_names -L '^layer=fake$' | wc -l)" = 12 ] || fail "label layer=fake is not on the 10 fake tests and 2 family runs"

# They run: the fake layer's pass, the expected failure passes as an xfail, the example
# adapter's pass on a GPU and are skipped without one.
ctest --test-dir "$work/build" -j 2 >"$work/ctest.log" 2>&1 || fail "the consumer's tests failed: $(grep -E 'Failed|\*\*\*' "$work/ctest.log" | head -n 5)"
results=$(grep -E 'Test +#[0-9]+: ' "$work/ctest.log")
if echo "$results" | grep -E ': fake:' | grep -v -E ' Passed '; then fail "a fake: test did not pass"; fi
[ "$(echo "$results" | grep -c -E ': fake:.* Passed ')" = 12 ] || fail "not all 12 fake: tests passed"
if echo "$results" | grep -E ': example:' | grep -v -E ' Passed |\*Skipped '; then fail "an example: test failed"; fi
xfail=$(ctest --test-dir "$work/build" -R '^fake:stub/behave=fail/copy=1$' -V 2>&1)
grep -q '\[1/1\] XFAIL   stub/behave=fail/copy=1' <<<"$xfail" || fail "fake:stub/behave=fail/copy=1 did not report XFAIL"
# Each family's run ran its own family only.
grep -q '"id": "stub_forward/' "$work/build/hostcb-fake/results/stub.json" &&
  fail "the run of family stub ran stub_forward's scenarios too"
grep -q '"id": "stub/' "$work/build/hostcb-fake/results/stub.json" || fail "the run of family stub ran none of its scenarios"

# EXTRA_ARGS reach each run, PROPERTIES each test (scenarios' and family runs').
grep -q '"command_line": "[^"]* --timeout 31' "$work/build/hostcb-fake/results/stub.json" ||
  fail "EXTRA_ARGS --timeout 31 did not reach the family run: $(grep -m1 command_line "$work/build/hostcb-fake/results/stub.json")"
ctest --test-dir "$work/build" -R '^fake:' --show-only=json-v1 >"$work/fake-tests.json" 2>/dev/null
python3 - "$work/fake-tests.json" <<'PY' || fail "PROPERTIES did not reach every fake: test"
import json, sys
tests = json.load(open(sys.argv[1]))["tests"]
bad = []
# TIMEOUT 45 is each scenario's; a family run of N scenarios gets 45 * N.
scenarios = {}
for t in tests:
    if ":family:" not in t["name"]:
        family = t["name"].split(":", 1)[1].split("/")[0]
        scenarios[family] = scenarios.get(family, 0) + 1
for t in tests:
    props = {p["name"]: p["value"] for p in t.get("properties", [])}
    family = t["name"].split(":family:")[1] if ":family:" in t["name"] else None
    want = 45 * scenarios.get(family, 0) if family else 45
    if props.get("TIMEOUT") != want or not {"CONSUMER_A=1", "CONSUMER_B=2"} <= set(props.get("ENVIRONMENT", [])):
        bad.append((t["name"], props.get("TIMEOUT"), want, props.get("ENVIRONMENT")))
if len(tests) != 12 or bad or not any(":family:" in t["name"] for t in tests):
    sys.exit("%d tests; without their TIMEOUT (45 a scenario) and both variables: %s" % (len(tests), bad[:3]))
PY

# Without the expectations file, the stub's failing scenarios fail.
configure -DEXPECTATIONS= -DBROKEN_ADAPTER=
if ctest --test-dir "$work/build" -R '^fake:(family:stub|stub/behave=fail/)' >"$work/no-expectations.log" 2>&1; then
  fail "without EXPECTATIONS the failing stub scenarios passed"
fi
grep -q -E 'fake:stub/behave=fail/copy=1 .*Failed' "$work/no-expectations.log" ||
  fail "without EXPECTATIONS fake:stub/behave=fail/copy=1 did not fail: $(tail -n 5 "$work/no-expectations.log")"

# A layer that cannot be loaded: one failing test, broken:discovery, with hostcb's line.
configure -DEXPECTATIONS= -DBROKEN_ADAPTER=/nonexistent/libbroken.so
[ "$(test_names -R '^broken:')" = "broken:discovery" ] || fail "a broken adapter did not give one test broken:discovery"
if ctest --test-dir "$work/build" -R '^broken:' --output-on-failure >"$work/broken.log" 2>&1; then
  fail "broken:discovery passed"
fi
grep -q "hostcb list failed (exit 2): hostcb: adapter '/nonexistent/libbroken.so'" "$work/broken.log" ||
  fail "broken:discovery does not say why: $(tail -n 5 "$work/broken.log")"
# Issue 36 item 5: a ready name resolves with the Python the project names, not the python3
# on PATH when ctest runs (a venv that sees a stand-in cuda.bindings, against a plain one
# first on PATH); REQUIRE_GPU fails where no GPU is usable (none visible, on any machine);
# a listing past DISCOVERY_TIMEOUT is one failing test.
python3 -m venv --without-pip "$work/named-python" && python3 -m venv --without-pip "$work/path-python" ||
  fail "python3 -m venv failed"
purelib=$("$work/named-python/bin/python3" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
echo "$(cd "$(dirname "$0")/py/fake_cuda" && pwd)" >"$purelib/hostcb_fake_cuda.pth"
printf '#!/bin/sh\nsleep 30\n' >"$work/slow-hostcb" && chmod +x "$work/slow-hostcb"
configure -DEXPECTATIONS= -DBROKEN_ADAPTER= -DNAMED_PYTHON="$work/named-python/bin/python3" -DREQUIRE_GPU_CHECK=ON \
  -DSLOW_HOSTCB="$work/slow-hostcb"
plain_ctest() { env -u HOSTCB_PYTHON -u PYTHONPATH PATH="$work/path-python/bin:$PATH" CUDA_VISIBLE_DEVICES= ctest "$@"; }
plain_ctest --test-dir "$work/build" -N >"$work/named.list" 2>&1
for prefix in ready ready_arg; do
  grep -q "Test *#[0-9]*: $prefix:replay/" "$work/named.list" ||
    fail "no $prefix: tests: the ready name did not list with the project's Python: $(grep "$prefix:" "$work/named.list" | head -n 3)"
done
plain_ctest --test-dir "$work/build" -R '^ready(_arg)?:' --output-on-failure >"$work/named.log" 2>&1 ||
  fail "the ready name's tests did not run with the project's Python: $(grep -E 'Failed|Error|refused' "$work/named.log" | head -n 5)"
plain_ctest --test-dir "$work/build" -R '^gpu_(family|scenario):' --output-on-failure >"$work/require-gpu.log" 2>&1 &&
  fail "REQUIRE_GPU tests passed without a GPU"
grep -q 'hostcb family run: REQUIRE_GPU, and no usable CUDA device' "$work/require-gpu.log" ||
  fail "the family run does not say REQUIRE_GPU and why: $(grep -m3 -E 'gpu_family' "$work/require-gpu.log")"
grep -q 'exit 1: --require-gpu: no usable CUDA device' "$work/require-gpu.log" ||
  fail "the scenario-mode tests do not say --require-gpu and why"
grep -E 'Test +#[0-9]+: gpu_' "$work/require-gpu.log" | grep -E 'Passed|Skipped' &&
  fail "a REQUIRE_GPU test passed or was skipped without a GPU"
plain_ctest --test-dir "$work/build" -R '^slow:' --output-on-failure >"$work/slow.log" 2>&1 && fail "slow:discovery passed"
grep -q 'hostcb list failed (it did not finish within 2 s (DISCOVERY_TIMEOUT))' "$work/slow.log" ||
  fail "slow:discovery does not say DISCOVERY_TIMEOUT: $(tail -n 3 "$work/slow.log")"

echo "e2e_consumer: the installed package's tests: $(grep -c -E ': example:' <<<"$results") example, 12 fake; xfail, no-expectations, broken-adapter, EXTRA_ARGS, PROPERTIES, project Python, REQUIRE_GPU and DISCOVERY_TIMEOUT cases hold"
