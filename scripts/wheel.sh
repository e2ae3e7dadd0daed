#!/usr/bin/env bash
# Builds the hostcb wheel (pip wheel . through scikit-build-core, pyproject.toml), and with
# --check installs it into a fresh venv and tests it there.
set -uo pipefail
usage() {
  cat <<'USAGE'
Usage: scripts/wheel.sh [--reuse BUILD_DIR] [--out DIR] [--check [--venv VENV]] [-- PIP-WHEEL-ARGS...]

  --reuse BUILD_DIR  hand scikit-build-core a build folder that scripts/build.sh made (Ninja,
                     RelWithDebInfo) in this tree: CMake configures it again, nothing
                     recompiles, and the wheel is what `cmake --install` takes from it (its
                     architectures, its tests kept). Its configuration is then put back as it
                     was (the CMake cache saved before, configured again after), so the
                     folder's tests keep their Python, not the one that ran pip (CI's
                     temporary venv). A build folder is tied to the tree it was configured
                     for (CMake records the source path): one whose tree moved or was copied
                     elsewhere is refused; configure a new one there.
                     Without it, a fresh build in a temporary folder (BUILD_TESTING off;
                     CUDAARCHS=90 or -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90 picks the
                     architectures, every major one of the toolkit by default).
  --out DIR          where the wheel goes (default dist/)
  --check            then: auditwheel show (when auditwheel is installed) for the platform tag,
                     a fresh venv with the wheel and pytest, the shipped expectations in the
                     package, `pytest --hostcb-layer` over the fake layer module (every item
                     skipped with hostcb's reason on a machine without a GPU), and the
                     package's own tests (tests/python_package, against BUILD_DIR's stub CLI;
                     with --reuse only)
  --venv VENV        --check installs the wheel into VENV (made by the caller for this run,
                     with pytest and pytest-xdist) instead of a venv of its own: CI's one venv
                     for the build backend and the checks saves a second install from the network
Needs python3 with scikit-build-core importable (pip install scikit-build-core); the build is
run with --no-build-isolation, so nothing is downloaded for it. --check installs pytest and
pytest-xdist into its venv with pip (from the network, or PIP_FIND_LINKS/--no-index as pip
is set up). Exit: 0 built (and checked), 1 a step failed, 2 usage.
USAGE
}
root="$(cd "$(dirname "$0")/.." && pwd)"
reuse="" out="$root/dist" check=0 venv="" pip_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --reuse) reuse="${2:?--reuse needs a build folder}"; shift 2 ;;
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    --check) check=1; shift ;;
    --venv) venv="${2:?--venv needs a folder}"; shift 2 ;;
    --) shift; pip_args=("$@"); break ;;
    *) echo "wheel.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
step() { echo "wheel.sh: $*" >&2; }
die() { echo "wheel.sh: $*" >&2; exit 1; }
python3 -c "import scikit_build_core" 2>/dev/null || die "python3 has no scikit-build-core (pip install scikit-build-core)"

settings=()
if [ -n "$reuse" ]; then
  [ -f "$reuse/CMakeCache.txt" ] || { echo "wheel.sh: $reuse is no configured build folder" >&2; exit 2; }
  reuse="$(cd "$reuse" && pwd)"
  home="$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$reuse/CMakeCache.txt")"
  [ "$(cd "$home" 2>/dev/null && pwd -P)" = "$(cd "$root" && pwd -P)" ] ||
    { echo "wheel.sh: $reuse was configured for ${home:-another tree}, not $root" >&2; exit 2; }
  # scikit-build-core deletes the cache, and the build's own settings with it (architectures,
  # launchers), when a scikit-build-core installed elsewhere (another venv) configured the
  # folder last (.skbuild-info.json); the folder is this tree's, checked above.
  rm -f "$reuse/.skbuild-info.json"
  settings=(-Cbuild-dir="$reuse" -Ccmake.define.BUILD_TESTING=ON)
  # scikit-build-core configures the folder with its own settings (the Python running pip,
  # CMAKE_INSTALL_PREFIX, SKBUILD_*): the folder's own cache is put back after the wheel and
  # the folder configured again from it, as scripts/build.sh left it.
  saved_cache="$(mktemp)"
  cp "$reuse/CMakeCache.txt" "$saved_cache"
fi
# Puts BUILD_DIR's configuration back (--reuse); a no-op otherwise.
restore_build() {
  [ -n "$reuse" ] && [ -f "${saved_cache:-}" ] || return 0
  # CMakeInit.txt: scikit-build-core's initial cache (its venv's Python), which the folder never read before.
  cp "$saved_cache" "$reuse/CMakeCache.txt" && rm -f "$saved_cache" "$reuse/.skbuild-info.json" "$reuse/CMakeInit.txt"
  cmake -S "$root" -B "$reuse" >"$reuse/wheel-restore.log" 2>&1 ||
    die "configuring $reuse again from its own cache failed: $(tail -n 3 "$reuse/wheel-restore.log")"
  rm -f "$reuse/wheel-restore.log"
  step "$reuse configured again from its own cache (its Python: $(sed -n 's/^_\{0,1\}Python3_EXECUTABLE:[A-Z]*=//p' "$reuse/CMakeCache.txt" | head -n 1))"
}
mkdir -p "$out"
out="$(cd "$out" && pwd)"
rm -f "$out"/hostcb-*.whl
start=$SECONDS
step "pip wheel . ${settings[*]} ${pip_args[*]}"
(cd "$root" && python3 -m pip wheel . --no-build-isolation --no-deps -w "$out" "${settings[@]}" "${pip_args[@]}")
wheel_rc=$?
restore_build
[ "$wheel_rc" = 0 ] || die "pip wheel failed"
wheel="$(ls "$out"/hostcb-*.whl 2>/dev/null | head -n 1)"
[ -n "$wheel" ] || die "pip wheel wrote no hostcb-*.whl in $out"
step "built $wheel ($(du -h "$wheel" | cut -f1), $((SECONDS - start)) s)"
[ "$check" = 1 ] || exit 0

if python3 -m auditwheel --version >/dev/null 2>&1; then
  python3 -m auditwheel show "$wheel" | tr '\n' ' ' | grep -o 'consistent with the following platform tag: "[^"]*"' >&2 ||
    die "auditwheel show found no platform tag: $(python3 -m auditwheel show "$wheel" 2>&1 | tail -n 3)"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ -n "$venv" ]; then
  step "the wheel into $venv"
  "$venv/bin/python" -m pip install --quiet --no-deps --force-reinstall "$wheel" || die "installing the wheel into $venv failed"
else
  step "a fresh venv with the wheel and pytest"
  venv="$work/venv"
  python3 -m venv "$venv" && "$venv/bin/python" -m pip install --quiet "$wheel" pytest pytest-xdist ||
    die "installing the wheel into a fresh venv failed"
fi
venv_python="$venv/bin/python"
"$venv/bin/hostcb" list --families >/dev/null 2>&1 || die "the installed hostcb command does not run"
# The shipped expectations travel in the wheel (docs/ci.md: a layer's CI uses the pinned
# release's own file).
shipped="$("$venv_python" -c 'import hostcb; print(hostcb.prefix())')/share/hostcb/known-layer-bugs.jsonc"
cmp -s "$shipped" "$root/expectations/known-layer-bugs.jsonc" || die "the wheel carries no known-layer-bugs.jsonc ($shipped)"
# The shipped known layer bugs are in the wheel (hostcb/share/hostcb/) and found there by default.
"$venv/bin/hostcb" list --expectations shipped --filter 'replay/*' >/dev/null 2>"$work/shipped.err" ||
  die "the wheel's hostcb does not find its shipped expectations: $(tail -n 2 "$work/shipped.err")"
grep -q '/share/hostcb/known-layer-bugs.jsonc:[0-9]*: applies to' "$work/shipped.err" ||
  die "list --expectations shipped did not read the wheel's file: $(tail -n 2 "$work/shipped.err")"

step "pytest --hostcb-layer tests/py/fake_layer.py, with the wheel's hostcb"
(cd "$work" && "$venv_python" -m pytest "--hostcb-layer=$root/tests/py/fake_layer.py" -q -rs -p no:cacheprovider \
  --junitxml "$work/fake.xml") >"$work/fake.log" 2>&1
rc=$?
tail -n 3 "$work/fake.log" >&2
[ "$rc" = 0 ] || die "pytest --hostcb-layer over the fake layer exited $rc: $(tail -n 5 "$work/fake.log")"
"$venv_python" - "$work/fake.xml" <<'PY' || die "the fake layer's items are not all skipped with hostcb's reason"
import sys, xml.etree.ElementTree as ET
cases = ET.parse(sys.argv[1]).getroot().iter("testcase")
reasons = {}
for c in cases:
    skipped = c.find("skipped")
    # classname (the family) and name (the rest of the id): one family's name may be another's
    reasons["%s/%s" % (c.get("classname"), c.get("name"))] = skipped.get("message", "") if skipped is not None else "NOT SKIPPED"
bad = {n: r for n, r in reasons.items() if "no usable CUDA device" not in r and not r.startswith("excluded: ")}
if not reasons or bad:
    sys.exit("%d items; not skipped with hostcb's reason: %s" % (len(reasons), list(bad.items())[:3]))
print("wheel.sh: %d items through the fake layer, each skipped with hostcb's reason" % len(reasons), file=sys.stderr)
PY

if [ -n "$reuse" ]; then
  step "tests/python_package against the stub CLI of $reuse"
  (cd "$root" && HOSTCB_TEST_BUILD="$reuse" "$venv_python" -m pytest tests/python_package -q -p no:cacheprovider \
    -n 2) || die "tests/python_package failed"
fi
step "checked in $((SECONDS - start)) s"
