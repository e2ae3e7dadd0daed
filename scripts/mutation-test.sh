#!/usr/bin/env bash
# Mutation testing: proves that the CPU test suite can fail. Each tests/mutations/*.mut
# is one small deliberate bug in the harness; the suite must catch ("kill") every one.
#
# Usage: scripts/mutation-test.sh [--list] [--only PATTERN] [-j N] [--keep] [--help]
#
#   --list          print each mutation with its description and whether it still applies
#                   (its find text occurs exactly once in its file); builds nothing
#   --only PATTERN  run only mutations whose file name matches the shell glob *PATTERN*
#                   (several: comma-separated, e.g. --only 28-,36-,matrix)
#   -j N            build and test jobs (default: the number of processors)
#   --keep          keep the scratch copy (printed at the start) for inspection
#
# How: the tree (git ls-files: tracked files and untracked ones git does not ignore) is
# copied once to a scratch folder ($HOSTCB_MUTATION_DIR, default a new folder under
# ${TMPDIR:-/tmp}) and built there once; the unmutated build must pass its CPU tests.
# Then, for each mutation: apply it, rebuild incrementally, run the CPU tests
# (ctest -LE gpu: the GPU scenario entries, the self-test and the bench smoke test only
# skip without a GPU; every other test runs but mutations:none_stale, which --list is and
# which a mutation applied would always fail), restore the file. Each mutation prints
#   killed        a test failed (the first failing tests are named)
#   survived      every test passed: a gap in the tests
#   stale         the find text does not occur exactly once: the patch no longer fits
#                 the code and must be re-pointed (a failure of the suite, not a skip)
#   build-failed  it did not compile; counted as killed only when its header says
#                 "expect: build-failure"
# and the last line reads "N killed, M survived, S stale, B build-failed". Exit status:
# 0 when every mutation was killed, 1 otherwise, 2 for bad usage.
#
# A mutation file (tests/mutations/NN-short-name.mut):
#   # one-line description
#   file: harness/model/result.hpp
#   expect: build-failure          (optional; only for a mutation meant not to compile)
#   --- find
#   exact text, one or more whole lines, that occurs exactly once in the file
#   --- replace
#   the text to put in its place (may be empty: the lines are deleted)
#
# A full run takes tens of minutes (see tests/mutations/README.md): too long for CI; run
# it before resolving an issue that touches the harness or its tests.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mutations_dir="$root/tests/mutations"

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() { echo "mutation-test: $*" >&2; exit 2; }

list=0 only="" jobs="$(nproc)" keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --help|-h) usage; exit 0 ;;
    --list) list=1 ;;
    --only) [ $# -ge 2 ] || die "--only needs a PATTERN"; only="$2"; shift ;;
    --only=*) only="${1#--only=}" ;;
    -j) [ $# -ge 2 ] || die "-j needs a number"; jobs="$2"; shift ;;
    -j*) jobs="${1#-j}" ;;
    --keep) keep=1 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done
case "$jobs" in ''|*[!0-9]*|0) die "-j takes a positive number; got '$jobs'" ;; esac
command -v python3 >/dev/null || die "python3 is needed to apply mutations"

shopt -s nullglob
files=()
for f in "$mutations_dir"/*.mut; do
  name="$(basename "$f" .mut)"
  if [ -n "$only" ]; then
    wanted=0
    IFS=, read -ra patterns <<<"$only"
    for pattern in "${patterns[@]}"; do
      # shellcheck disable=SC2254
      case "$name" in *$pattern*) wanted=1 ;; esac
    done
    [ $wanted = 1 ] || continue
  fi
  files+=("$f")
done
[ ${#files[@]} -gt 0 ] || die "no mutation matches${only:+ '$only'} in $mutations_dir"

# mutate.py check|apply|restore TREE MUTATION...: reads .mut files; check prints, for each
# (in one process: --list reads hundreds), its description and whether the find text occurs
# exactly once in TREE/file; apply (one mutation) also writes the mutated file (keeping the
# original beside it as .orig); restore puts the original back. One line each:
# STATE<TAB>DESCRIPTION<TAB>DETAIL; the exit status is 1 when any is stale or malformed.
mutate() {
  python3 - "$@" <<'PY'
import os, shutil, sys
mode, tree, muts = sys.argv[1], sys.argv[2], sys.argv[3:]

def one(mut):
    text = open(mut, encoding="utf-8").read().split("\n")
    desc, path, expect, find, replace, section = "", None, "killed", [], [], None
    for line in text:
        if section is None:
            if line == "--- find": section = "find"
            elif line.startswith("# ") and not desc: desc = line[2:].strip()
            elif line.startswith("file:"): path = line[5:].strip()
            elif line.startswith("expect:"): expect = line[7:].strip()
            elif line.strip() and not line.startswith("#"):
                return "malformed", desc, f"unexpected header line: {line!r}"
        elif section == "find":
            if line == "--- replace": section = "replace"
            else: find.append(line)
        else:
            replace.append(line)
    while replace and replace[-1] == "": replace.pop()  # the file's final newline
    find_text, replace_text = "\n".join(find), "\n".join(replace)
    if not desc or not path or section != "replace" or not find_text.strip():
        return "malformed", desc, "needs '# description', 'file:', '--- find' and '--- replace'"
    if expect not in ("killed", "build-failure"):
        return "malformed", desc, f"expect: takes killed or build-failure, not {expect!r}"
    target = os.path.join(tree, path)
    if mode == "restore":
        # The original's content with a new time: the build must see the file change back.
        shutil.move(target + ".orig", target)
        os.utime(target)
        return None
    try:
        source = open(target, encoding="utf-8").read()
    except OSError as e:
        return "stale", desc, f"{path}: {e.strerror}"
    count = source.count(find_text)
    if count != 1:
        return "stale", desc, f"the find text occurs {count} times in {path} (must be once)"
    if mode == "apply":
        shutil.copy(target, target + ".orig")
        with open(target, "w", encoding="utf-8") as out:
            out.write(source.replace(find_text, replace_text))
    return expect, desc, path

bad = False
for mut in muts:
    said = one(mut)
    if said is None: continue
    print("\t".join(said))
    bad = bad or said[0] in ("stale", "malformed")
sys.exit(1 if bad else 0)
PY
}

if [ $list = 1 ]; then
  bad=0 i=0
  while IFS=$'\t' read -r state desc detail; do
    f="${files[$i]}" i=$((i + 1))
    if [ "$state" = killed ] || [ "$state" = build-failure ]; then
      printf '%-40s %s\n' "$(basename "$f" .mut)" "$desc"
    else
      printf '%-40s %s: %s\n' "$(basename "$f" .mut)" "$state" "$detail"
      bad=$((bad + 1))
    fi
  done < <(mutate check "$root" "${files[@]}")
  [ $i = ${#files[@]} ] || die "the check of the mutations stopped after $i of ${#files[@]}"
  echo "${#files[@]} mutations, $bad stale or malformed"
  [ $bad = 0 ]
  exit
fi

start=$(date +%s)
scratch="${HOSTCB_MUTATION_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/hostcb-mutations.XXXXXX")}"
mkdir -p "$scratch"
cleanup() { [ $keep = 1 ] && echo "mutation-test: scratch copy kept in $scratch" || rm -rf "$scratch"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
echo "mutation-test: ${#files[@]} mutations, scratch copy in $scratch, -j $jobs"

tree="$scratch/src"
build="$scratch/build"
rm -rf "$tree" && mkdir -p "$tree"
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
  tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xmf - -C "$tree" || die "could not copy the tree"

command -v nvcc >/dev/null 2>&1 || export CUDACXX="${CUDACXX:-/usr/local/cuda/bin/nvcc}"
log="$scratch/log"
mkdir -p "$log"
echo "mutation-test: configuring and building the unmutated tree (once)"
if ! cmake -S "$tree" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHOSTCB_GIT_REVISION=mutation-test \
     >"$log/configure.log" 2>&1; then
  tail -20 "$log/configure.log" >&2; die "configuring the scratch copy failed"
fi
build_tree() { cmake --build "$build" -j "$jobs" >"$1" 2>&1; }
test_tree() {  # the CPU tests; stops at the first failure
  # Not mutations:none_stale: with a mutation applied its own find text is gone, so that
  # test would "kill" every one.
  ctest --test-dir "$build" -LE gpu -E '^mutations:none_stale$' -j "$jobs" --stop-on-failure --timeout 120 >"$1" 2>&1
}
build_tree "$log/baseline-build.log" || { tail -30 "$log/baseline-build.log" >&2; die "the unmutated tree does not build"; }
if ! test_tree "$log/baseline-test.log"; then
  grep -A20 "tests FAILED" "$log/baseline-test.log" >&2
  die "the unmutated tree fails its CPU tests: fix that first"
fi
echo "mutation-test: baseline built and green after $(( $(date +%s) - start )) s"

killed=0 survived=0 stale=0 build_failed=0
survivors=()
for f in "${files[@]}"; do
  name="$(basename "$f" .mut)"
  t0=$(date +%s)
  IFS=$'\t' read -r state desc detail < <(mutate apply "$tree" "$f")
  if [ "$state" != killed ] && [ "$state" != build-failure ]; then
    printf '%-12s %-40s %s\n' "stale" "$name" "$detail"
    stale=$((stale + 1)); survivors+=("$name (stale)")
    continue
  fi
  expect="$state"
  if ! build_tree "$log/$name.build.log"; then
    if [ "$expect" = build-failure ]; then
      verdict="killed" why="does not compile, as its header says"
      killed=$((killed + 1))
    else
      verdict="build-failed" why="see $log/$name.build.log"
      build_failed=$((build_failed + 1)); survivors+=("$name (build-failed)")
    fi
  elif test_tree "$log/$name.test.log"; then
    verdict="survived" why="$desc"
    survived=$((survived + 1)); survivors+=("$name")
  else
    verdict="killed"
    why="by $(sed -n '/tests FAILED/,$p' "$log/$name.test.log" | grep -E '^\s+[0-9]+ - ' | head -2 |
              sed -E 's/^\s+[0-9]+ - //; s/ \((Failed|Timeout|Not Run|SEGFAULT|Exception|.*)\)$//' | paste -sd';' -)"
    killed=$((killed + 1))
  fi
  mutate restore "$tree" "$f"
  printf '%-12s %-40s %4ss  %s\n' "$verdict" "$name" "$(( $(date +%s) - t0 ))" "$why"
done

# Leave the scratch build as it was: the last restore is rebuilt only when kept.
[ $keep = 1 ] && build_tree "$log/restore-build.log"
echo "mutation-test: $(( $(date +%s) - start )) s in all"
[ ${#survivors[@]} -eq 0 ] || printf 'not killed: %s\n' "${survivors[@]}"
echo "$killed killed, $survived survived, $stale stale, $build_failed build-failed"
[ $survived = 0 ] && [ $stale = 0 ] && [ $build_failed = 0 ]
