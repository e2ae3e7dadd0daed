#!/usr/bin/env bash
# The documentation, checked: every relative link in README.md and docs/*.md reaches a file in
# the repository (and a heading, for #anchor links into Markdown), README.md is at most 250
# lines, LICENSE exists, and the figures a script can check match the tree and the binary:
# the scenario, family, excluded and control counts stated as "at this commit" are what
# `hostcb list` prints, and the example adapter quoted in docs/adapters.md is the file.
# Every count (N scenarios, tests, controls, families, mutations, programs) in README.md and
# docs/ is either stated "at this commit" (and checked here) or a dated measurement (a
# YYYY-MM-DD in its paragraph, the paragraph introducing its list, or its heading: a GPU
# measurement that no CPU can re-derive; the lead re-measures those). The ready-name table
# lists every shipped layer module, and every subcommand is in both command synopses.
# Usage: tests/check_docs.sh [SOURCE_DIR] [HOSTCB [HOSTCB_STUB]]   (without HOSTCB the
# counts are not checked; HOSTCB_STUB checks the README's hostcb_stub sample)
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

# Every count is checked or dated.
python3 - README.md docs/*.md <<'PY' || bad=1
import re, sys
figure = re.compile(r"(?<![\w.])(\d[\d,]*) (scenarios?|scenario tests|per-scenario tests|tests|known-bad controls|"
                    r"controls|families|mutations|modules|ready names|programs|seeds)\b")
date = re.compile(r"\b20\d\d-\d\d-\d\d\b")
ok = True
for md in sys.argv[1:]:
    lines = open(md, encoding="utf-8").read().split("\n")
    blocks, current, fenced, heading = [], [], False, ""
    for n, line in enumerate(lines, 1):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            if current: blocks.append((heading, current))
            current, heading = [], line
            continue
        elif not fenced and not line.strip():
            if next((l for l in lines[n:] if l.strip()), "").startswith("```"):
                continue  # a sample belongs to the paragraph that introduces it
            if current: blocks.append((heading, current))
            current = []
            continue
        current.append((n, line))
    if current: blocks.append((heading, current))
    intro, intro_heading = "", None  # a list's items are dated by the paragraph before them
    for head, block in blocks:
        text = " ".join(l for _, l in block)
        if head != intro_heading: intro, intro_heading = "", head
        if not re.match(r"\s*[-*] ", block[0][1]): intro = text
        context = " ".join((text, intro, head))
        if "at this commit" in context or date.search(context): continue
        for n, line in block:
            for m in figure.finditer(line):
                print(f"check_docs: {md}:{n}: '{m[0]}' is neither checked (state it 'at this commit', with a check here) "
                      "nor a dated measurement; or leave the figure out")
                ok = False
sys.exit(0 if ok else 1)
PY

# The ready-name table and the sample refusal list every shipped layer module.
modules=$(cd harness/adapters/python/hostcb_layers && ls [a-z]*.py | sed 's/\.py$//' | sort)
for module in $modules; do
  grep -qF "| [\`$module.py\`](../harness/adapters/python/hostcb_layers/$module.py) |" docs/adapters.md ||
    problem "docs/adapters.md: the ready-name table has no row for $module.py"
done
listed=$(grep -o 'there are [a-z_, ]* (LAYER:ENTRY' docs/adapters.md | sed 's/^there are //; s/ (LAYER:ENTRY$//; s/, /\n/g' | sort)
[ "$listed" = "$modules" ] || problem "docs/adapters.md: the sample refusal lists '$(echo $listed)', the modules are '$(echo $modules)'"

# The README's hostcb_stub sample is what that command prints (times left out).
stub="${3:-}"
# Under AddressSanitizer a crash is ASan's report and an exit, not the signal the sample shows.
if [ -n "$stub" ] && readelf -d "$stub" 2>/dev/null | grep -q 'libasan'; then
  echo "check_docs: $stub is built with AddressSanitizer: the hostcb_stub sample is not checked"
  stub=""
fi
if [ -n "$stub" ]; then
  command_line=$(awk '/^\$ build\/tests\/hostcb_stub /{sub(/^\$ build\/tests\/hostcb_stub /, ""); print; exit}' README.md)
  stated=$(awk '/^\$ build\/tests\/hostcb_stub /{f=1; next} f&&/^```$/{exit} f' README.md)
  # Times and a crash's stack line (its thread id and frames are this machine's) left out.
  times='s/[0-9]+\.[0-9]+ s\b/T s/g; s/^(  hostcb stack: thread )[0-9]+ (\([^)]*\)): .*/\1N \2: .../'
  printed=$(cd "$(mktemp -d)" && eval "\"$stub\" $command_line" 2>&1)
  [ -n "$command_line" ] && [ "$(sed -E "$times" <<<"$stated")" = "$(sed -E "$times" <<<"$printed")" ] ||
    problem "README.md: the hostcb_stub sample is not what \`hostcb_stub $command_line\` prints:
$printed"
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
  # The sample of `list --families` in docs/cli.md is this binary's first two lines.
  sample=$(awk '/list --families. prints one line per family/{f=1} f&&/^```$/{n++; next} f&&n==1' docs/cli.md)
  [ "$sample" = "$("$hostcb" list --families 2>/dev/null | head -n 2)" ] ||
    problem "docs/cli.md: the list --families sample is not what $hostcb list --families prints first"
  # The fuzzing command's count in docs/scenarios.md.
  if stated=$(grep -o "seed=1-10000\` runs [0-9,]* programs" docs/scenarios.md | grep -o '[0-9,]* programs'); then
    fuzzed=$("$hostcb" list --filter 'fuzz/forward=direct/*:fuzz/forward=graph_owned/*' --axis seed=1-10000 2>/dev/null | grep -c '^fuzz/')
    [ "${stated//,/}" = "$fuzzed programs" ] || problem "docs/scenarios.md says the fuzzing command runs $stated; it lists $fuzzed"
  fi
  # Every subcommand in both synopses (README's and docs/cli.md's).
  for sub in $("$hostcb" --help 2>/dev/null | awk '/^SUBCOMMANDS:/{f=1; next} f&&/^  [a-z]/{print $1}'); do
    [ "$sub" = worker ] && continue  # internal
    awk '/^## The command line in brief/{f=1} f&&/^```$/{n++} f&&n==1' README.md | grep -qw "$sub" ||
      problem "README.md: the command line in brief leaves out '$sub'"
    awk '/^# The command line/{f=1} f&&/^```$/{n++} f&&n==1' docs/cli.md | grep -qw "hostcb $sub" ||
      problem "docs/cli.md: the synopsis leaves out 'hostcb $sub'"
  done
  # Each subcommand's exit codes in docs/cli.md are the ones its --help ends with.
  for sub in list self-test shrink bisect report result bench overhead; do
    codes=$("$hostcb" "$sub" --help 2>/dev/null | sed -n '/^Exit codes:/,$p' | tr '\n' ' ' | sed 's/ *$//; s/|/\\|/g')
    grep -qF "| \`$sub\` | $codes |" docs/cli.md ||
      problem "docs/cli.md: the exit codes of '$sub' are not what its --help says: $codes"
  done
else
  echo "check_docs: no hostcb binary given: counts not checked"
fi

if [ "$bad" = 0 ]; then echo "check_docs: links, length, licence and figures hold"; fi
exit "$bad"
