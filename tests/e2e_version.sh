#!/usr/bin/env bash
# hostcb's version names its commit (issue 43, item 2): cmake/hostcb_git_revision.cmake's rule
# in a repository made here (commits, a release tag, edits, a given revision, no git), the
# binary's --version and the wheel's provider (cmake/hostcb_version.py) of this tree.
# Usage: e2e_version.sh SOURCE_DIR HOSTCB CMAKE WORK_DIR
set -u
src="$1" hostcb="$2" cmake="$3" work="$4"
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/repo"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
repo="$work/repo"
version() {  # GIVEN
  "$cmake" -DSOURCE_DIR="$repo" -DBASE=0.1.0 -DPRINT=1 -DGIVEN="${1:-unknown}" -P "$src/cmake/hostcb_git_revision.cmake"
}
expect() {  # WANT WHAT [GIVEN]
  local got
  got="$(version "${3:-}")"
  [ "$got" = "$1" ] || fail "$2: version $got, expected $1"
  echo "version: $2: $got"
}
git -C "$repo" init -q && echo a >"$repo/f" && git -C "$repo" add f
expect 0.1.0 "a repository with no commit yet"
for n in 1 2 3; do echo "$n" >>"$repo/f" && git -C "$repo" commit -qam "c$n"; done
rev() { git -C "$repo" rev-parse --short=12 HEAD; }
expect "0.1.0.dev3+g$(rev)" "three commits, no release tag"
git -C "$repo" tag v0.1.0
expect 0.1.0 "at the release tag"
echo edited >>"$repo/f"
expect "0.1.0+g$(rev).dirty" "at the tag, edited"
git -C "$repo" commit -qam c4
expect "0.1.0.dev1+g$(rev)" "one commit after the tag"
echo edited >>"$repo/f"
expect "0.1.0.dev1+g$(rev).dirty" "one commit after the tag, edited"
expect "0.1.0+g1a2b.dirty" "a revision given" "1a2b-dirty"
rm -rf "$repo/.git"
expect 0.1.0 "no git"

# This tree: the binary's and the wheel's provider's versions are PEP 440 and name a commit
# where there is one (the same rule: equal when made at once, as the wheel's check shows).
pep440='^0\.[0-9]+\.[0-9]+(\.dev[0-9]+)?(\+g[0-9a-zA-Z.]+)?$'
for said in "$("$hostcb" --version)" "$(PATH="$(dirname "$cmake"):$PATH" python3 "$src/cmake/hostcb_version.py")"; do
  [[ "$said" =~ $pep440 ]] || fail "'$said' is not the PEP 440 version the rule makes"
done
echo "version: this build $("$hostcb" --version)"
