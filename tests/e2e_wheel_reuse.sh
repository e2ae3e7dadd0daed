#!/usr/bin/env bash
# scripts/wheel.sh --reuse leaves the build folder as it found it (issue 36 item 5): .ci/run
# builds the wheel from build/ with the python3 of a venv it deletes afterwards, and
# scikit-build-core configures the folder with that Python, so the folder's tests ran a
# deleted interpreter ("Unable to find executable: .../venv/bin/python3", Not Run). On a
# stand-in tree (a copy of wheel.sh beside a CMake project whose test runs Python3_EXECUTABLE)
# with a stand-in for scikit-build-core's `pip wheel` that configures the folder as it does
# (-DPython3_EXECUTABLE=the venv's, -DCMAKE_INSTALL_PREFIX=...): after wheel.sh, with the venv
# gone, the folder's cache names its own Python again and its test runs. Also: a build folder
# whose tree was copied elsewhere is refused, with the reason.
# Usage: e2e_wheel_reuse.sh SOURCE_DIR WORK_DIR
set -uo pipefail
src=$1 work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/tree/scripts" "$work/bin"
cp "$src/scripts/wheel.sh" "$work/tree/scripts/"
cat >"$work/tree/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.24)
project(hostcb VERSION 0.1.0 LANGUAGES NONE)
enable_testing()
find_package(Python3 COMPONENTS Interpreter REQUIRED)
add_test(NAME runs_its_python COMMAND "${Python3_EXECUTABLE}" -c "print('ran')")
CMAKE
real_python="$(command -v python3)"
cmake -S "$work/tree" -B "$work/tree/build" -DPython3_EXECUTABLE="$real_python" >"$work/configure.log" 2>&1 ||
  fail "configuring the stand-in tree failed: $(tail -n 3 "$work/configure.log")"
own() { sed -n 's/^Python3_EXECUTABLE:[A-Z]*=//p' "$work/tree/build/CMakeCache.txt"; }
before="$(own)"

# The venv .ci/run makes and deletes, and scikit-build-core's `pip wheel` in it.
"$real_python" -m venv --without-pip "$work/venv" || fail "python3 -m venv failed"
cat >"$work/bin/python3" <<SH
#!/usr/bin/env bash
case "\$1 \$2" in
  "-c import scikit_build_core") exit 0 ;;
  "-m pip")
    out="" dir=""
    for a in "\$@"; do case "\$a" in -Cbuild-dir=*) dir="\${a#-Cbuild-dir=}" ;; esac; done
    while [ \$# -gt 0 ]; do case "\$1" in -w) out="\$2"; shift 2 ;; *) shift ;; esac; done
    cmake -S . -B "\$dir" -DPython3_EXECUTABLE="$work/venv/bin/python3" -DCMAKE_INSTALL_PREFIX="\$dir/skbuild-install" \
      -DSKBUILD=2 >/dev/null || exit 1
    echo '{}' >"\$dir/.skbuild-info.json"
    echo 'set(Python_EXECUTABLE [===[$work/venv/bin/python3]===] CACHE PATH "" FORCE)' >"\$dir/CMakeInit.txt"
    : >"\$out/hostcb-0.1.0-py3-none-linux_x86_64.whl" ;;
  *) exec "$real_python" "\$@" ;;
esac
SH
chmod +x "$work/bin/python3"
PATH="$work/bin:$PATH" bash "$work/tree/scripts/wheel.sh" --reuse "$work/tree/build" --out "$work/dist" >"$work/wheel.log" 2>&1 ||
  fail "wheel.sh --reuse exited $?: $(tail -n 3 "$work/wheel.log")"
rm -rf "$work/venv"
[ "$(own)" = "$before" ] || fail "after wheel.sh --reuse the build folder's Python is $(own), not its own $before"
grep -q '^SKBUILD:' "$work/tree/build/CMakeCache.txt" && fail "scikit-build-core's settings stayed in the build folder's cache"
[ -e "$work/tree/build/.skbuild-info.json" ] && fail "scikit-build-core's .skbuild-info.json stayed in the build folder"
[ -e "$work/tree/build/CMakeInit.txt" ] && fail "scikit-build-core's CMakeInit.txt (its venv's Python) stayed in the build folder"
grep -q "configured again from its own cache (its Python: $before)" "$work/wheel.log" ||
  fail "wheel.sh does not name the folder's own Python: $(grep 'configured again' "$work/wheel.log")"
ctest --test-dir "$work/tree/build" >"$work/ctest.log" 2>&1 ||
  fail "the build folder's test no longer runs after wheel.sh --reuse: $(grep -E 'Unable|Not Run|Failed' "$work/ctest.log" | head -n 3)"

# A build folder belongs to the tree it was configured for.
cp -r "$work/tree" "$work/copied"
PATH="$work/bin:$PATH" bash "$work/copied/scripts/wheel.sh" --reuse "$work/copied/build" --out "$work/dist" >"$work/copied.log" 2>&1
rc=$?
[ "$rc" = 2 ] || fail "wheel.sh --reuse of a copied tree's build folder exited $rc, not 2"
grep -q "was configured for $work/tree, not $work/copied" "$work/copied.log" ||
  fail "the refusal does not say which tree: $(cat "$work/copied.log")"
echo "ok: wheel.sh --reuse puts the build folder's own configuration back; a moved tree's folder is refused"
