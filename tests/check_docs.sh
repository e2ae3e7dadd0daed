#!/usr/bin/env bash
# The documentation, checked: every relative link in README.md and docs/*.md reaches a file in
# the repository (and a heading, for #anchor links into Markdown), README.md is at most 250
# lines, LICENSE exists, and the figures a script can check match the tree and the binary:
# the scenario, family, excluded and control counts stated as "at this commit" are what
# `hostcb list` prints, and the example adapter quoted in docs/adapters.md is the file.
# Usage: tests/check_docs.sh [SOURCE_DIR] [HOSTCB]   (without HOSTCB the counts are not checked)
# Prints each problem and exits 1; exits 0 when there is none.
set -uo pipefail
root="${1:-$(dirname "$0")/..}"
hostcb="${2:-}"
cd "$root" || exit 2
command -v python3 >/dev/null || { echo "check_docs: needs python3" >&2; exit 2; }

bad=0
problem() { echo "check_docs: $*"; bad=1; }

[ -s LICENSE ] && grep -q "Apache License" LICENSE || problem "LICENSE is missing or not the Apache-2.0 text"
lines=$(wc -l <README.md)
[ "$lines" -le 250 ] || problem "README.md has $lines lines; at most 250 (move detail to docs/)"

# Links and anchors.
python3 - README.md docs/*.md <<'PY' || bad=1
import os, re, sys

root = os.path.realpath(".")

def slug(heading):  # GitHub's: lower case, punctuation dropped, spaces to hyphens
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")

def anchors(path):
    found, fenced = set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            found.add(slug(line.lstrip("#")))
    return found

link = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
ok = True
for md in sys.argv[1:]:
    fenced = False
    for n, line in enumerate(open(md, encoding="utf-8"), 1):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        for target in link.findall(re.sub(r"`[^`]*`", "", line)):
            if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
                continue
            path, _, anchor = target.partition("#")
            full = os.path.realpath(os.path.join(os.path.dirname(md), path)) if path else os.path.realpath(md)
            if not (full == root or full.startswith(root + os.sep)):
                print(f"check_docs: {md}:{n}: {target}: outside the repository")
                ok = False
            elif not os.path.exists(full):
                print(f"check_docs: {md}:{n}: {target}: no such file")
                ok = False
            elif anchor and full.endswith(".md") and anchor not in anchors(full):
                print(f"check_docs: {md}:{n}: {target}: no heading #{anchor} in {os.path.relpath(full, root)}")
                ok = False
sys.exit(0 if ok else 1)
PY

# The example adapter quoted in docs/adapters.md is the one that is built and tested.
if ! awk '/^```c$/{f=1;next} /^```$/{f=0} f' docs/adapters.md | cmp -s - harness/adapters/example_adapter.c; then
  problem "docs/adapters.md: the quoted example adapter differs from harness/adapters/example_adapter.c"
fi
example_lines=$(wc -l <harness/adapters/example_adapter.c)
if stated=$(grep -o 'example_adapter.c), is [0-9]* lines' README.md | grep -o '[0-9]* lines'); then
  [ "$stated" = "$example_lines lines" ] || problem "README.md says the example adapter is $stated; it is $example_lines"
fi

# Counts stated "at this commit", against the binary.
if [ -n "$hostcb" ]; then
  ids=$("$hostcb" list 2>/dev/null | grep -c '^[a-z_0-9]*/') || problem "$hostcb list failed"
  total_line=$("$hostcb" list 2>&1 >/dev/null | tail -n 1)
  families=$("$hostcb" list --families 2>/dev/null | grep -c .)
  controls=$("$hostcb" list --controls 2>/dev/null | grep -c 'known-bad control')
  python3 - "$ids" "$families" "$controls" "$total_line" README.md docs/*.md <<'PY' || bad=1
import re, sys
ids, families, controls, total_line = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
checks = [
    (r"(\d+) scenarios in (\d+) families at this commit", lambda m: (int(m[1]), int(m[2])) == (ids, families),
     f"{ids} scenarios in {families} families"),
    (r"(\d+) in the default matrix at this commit", lambda m: int(m[1]) == ids, f"{ids}"),
    (r"`([^`]*)` for the default matrix at this commit", lambda m: m[1] == total_line, total_line),
    (r"runs all (\d+) and succeeds", lambda m: int(m[1]) == controls, f"{controls} controls"),
]
ok = True
for md in sys.argv[5:]:
    text = re.sub(r"\s+", " ", open(md, encoding="utf-8").read())
    for pattern, holds, truth in checks:
        for m in re.finditer(pattern, text):
            if not holds(m):
                print(f"check_docs: {md}: '{m[0]}', but hostcb list says {truth}")
                ok = False
sys.exit(0 if ok else 1)
PY
  [ "$ids" -gt 0 ] || problem "$hostcb list printed no ids"
else
  echo "check_docs: no hostcb binary given: counts not checked"
fi

if [ "$bad" = 0 ]; then echo "check_docs: links, length, licence and figures hold"; fi
exit "$bad"
