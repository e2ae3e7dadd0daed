#!/usr/bin/env python3
"""Python's packaging on a table of versions x version ranges, for hostcb's own PEP 440 code.

Writes tests/inputs/pep440/table.json: each version string with what packaging makes of it
(its normalized form and its place in packaging's order, or null when packaging refuses it)
and each range with whether packaging accepts it, whether SpecifierSet.is_unsatisfiable(),
and SpecifierSet(range).contains(version) for every version, as a string of 0 and 1.
tests/test_version_specifier.cpp checks hostcb against it without Python.

Usage: scripts/pep440-table.py            write the table (needs packaging >= 26.1)
       scripts/pep440-table.py --check    compare with the committed table: exit 0 when the
                                          same, 1 when not (saying where), 77 without packaging
       scripts/pep440-table.py --output PATH

The versions and ranges are a curated list (what layers report, every spelling and edge PEP
440 names), a seeded random mix of the grammar's pieces, and ranges of two or three clauses
around one release's dev, pre, post and local versions (many of which hold no version):
the same table every time.
contains() is packaging's default (prereleases=None), which since packaging 26.0 matches a
pre-release when it is the only candidate; the script checks it equals prereleases=True on
every cell, the rule hostcb documents (harness/model/version_specifier.hpp).
"""
import argparse
import json
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "tests", "inputs", "pep440", "table.json")

CURATED_VERSIONS = [
    # What layers report, and the version streams around the shipped file's ranges.
    "12.9", "12.9.0", "12.9.10", "12.10", "13", "13.0", "13.0.0", "13.3.1", "13.4.4", "13.4.5",
    "13.4.5.dev3+g1234abc", "13.4.5.dev3", "13.5", "13.5.0", "13.5.0rc1", "13.5.0.dev0", "13.5.0.post1",
    "13.5.0+local", "13.5.1", "14.2.0", "14.2.0rc1", "14.2.1.dev0+g0abc", "14.3.0.dev20261202", "0.30.0", "0.30.4",
    "0.31", "3.5.0", "3.5.0+cuda13", "3.12.3", "1.0.dev202612021530123", "12345678901234567890.0",
    # Releases, zeros, spellings and whitespace.
    "0", "0.0", "0.dev0", "0a0", "0.post0", "1", "1.0", "1.0.0", "1.0.0.0", "01.002.0003", "v1.0", "V1.0",
    " 1.0 ", "\t1.0\n", "\u00a01.0\u3000", "\x1c1.0", "1.0.1", "1.0.0.1", "1.1", "2", "2.0",
    # Pre-, post- and dev-releases in every spelling.
    "1.0a1", "1.0A1", "1.0alpha1", "1.0-alpha-1", "1.0.a.1", "1.0_a_1", "1.0a", "1.0a-", "1.0a2", "1.0b2",
    "1.0beta2", "1.0c3", "1.0pre3", "1.0preview3", "1.0rc3", "1.0RC3", "1.0rc", "1.0.post1", "1.0post1",
    "1.0-1", "1.0-post1", "1.0_post_1", "1.0.rev1", "1.0r1", "1.0-r", "1.0.post", "1.0.POST1", "1.0.post2",
    "1.0.dev0", "1.0.dev1", "1.0dev1", "1.0-dev-1", "1.0.dev", "1.0.DEV2", "1.0a1.post1", "1.0a1.dev1",
    "1.0a1.post1.dev1", "1.0.post1.dev1", "1.0.post0.dev0", "1.0rc1.post2.dev3", "1.0a.post", "1.0a..post",
    # Local versions: letters sort before numbers, shorter before longer.
    "1.0+local", "1.0+LOCAL", "1.0+abc.1", "1.0+abc-1", "1.0+abc_1", "1.0+1", "1.0+1.abc", "1.0+001",
    "1.0+abc.1.2", "1.0+0", "1.0+a", "1.0+b", "1.0+ab", "1.0.post1+local", "1.0.dev1+local", "1.0a1+local",
    # Epochs.
    "1!1.0", "1!0.1", "0!1.0", "2!0", "1!1.0.dev0",
    # Refused by packaging; foo and FOO are what "===foo" names.
    "", " ", "unknown", "foo", "FOO", "13.x", "1.0-foo", "1..0", ".1", "1.", "1.0+", "1.0+a..b", "1.0+a_",
    "=1.0", "1.0 a1", "1.0a1b1", "1.0.post1.post2", "1.0-", "1.0-dev-", "v", "1!", "!1", "1.0+local+x", "1,0",
    "\uff11.0", "1.0\u00a0a", "latest", "1.0.*", "*",
]

CURATED_RANGES = [
    # The shipped file's, and the docs' examples.
    ">=12.9,<13.5", "==12.9.*", "~=0.30", "==14.2.*", "==3.5.*", ">=13.0,<13.5", "<13.5", "<=13.5", ">13.4",
    ">=13.5", "==0.30.*", "~=13.4.0",
    # Each operator on each kind of version.
    "==1.0", "==1.0.0", "==1.0+local", "==1.0+LOCAL", "!=1.0", "!=1.0+local", "==1.0.*", "!=1.0.*", "==1.*",
    "==0.*", "==1!1.*", "<1.0", "<1.0a1", "<1.0.dev1", "<1.0.post1", "<1.0rc1.post1", "<=1.0", "<=1.0a1",
    ">1.0", ">1.0a1", ">1.0.post1", ">1.0.dev1", ">1.0a1.post1", ">1.0a1.dev1", ">=1.0a1", ">=1.0.dev0",
    ">=1.0.post1", "~=1.0", "~=1.0.0", "~=1.0a1", "~=1.0.post1", "~=1.0.dev1", "~=1!1.0", "==1.0a1",
    "!=1.0a1", "==1.0.post1", "==1.0.dev1",
    # Arbitrary equality.
    "===1.0", "===1.0.0", "===13.4.5.dev3+g1234abc", "===foo", "===FOO", "===1.0,>=1.0", "===1.0,<1.0",
    "===1.0,===1.0.0", "===1.0,===1.0", "===foo,>=1", "====1",
    # Spellings and whitespace.
    " >= 1.0 , < 2.0 ", ">=v1.0", "== 1.0", "==1.0-1", "==1.0.rev1", ">=1.0-ALPHA-1", "\t==1.0\n",
    "\u00a0>=1.0\u3000", "==1.0.0.0.0",
    # Ranges that hold little or nothing.
    "<0", "<0.dev0", "<0.0.1", "!=0", ">=2,<1.9", "<1.2.3,>1.2.3", "==1.2,!=1.2.0", "==1.*,!=1.*",
    ">1.0,<1.0.post0", ">1.0a1,<1.0a2.dev0", ">1.0a1,<1.0a2", ">=1.0a1,<1.0a1.post0", ">1.2.3,<1.2.4",
    ">=999999999,<999999999.1", ">999999999.999999999", "~=1.2,!=1.2.*,<2", "==1.0+a,!=1.0+a", ">1.0.dev1,<1.0.dev2",
    ">1.0.dev1,<=1.0.dev2", ">1.0.post1,<1.0.post2.dev0", ">1.0.post1,<1.0.post2", "<=1.0,>1.0", "<=1.0,>=1.0+a",
    "==1.0,>1.0", ">1.0a1,<=1.0a1.post3", "<1.0,>=1.0.dev0", "!=1.0.*,==1.0.0", "==1.0.*,!=1.0",
    # Refused by packaging (or, for the empty ones, by hostcb only).
    "", ",", ">=1.0,", ",>=1.0", ">=1.0,,<2", "1.0", ">=1.x", "~=1", ">=1.*", "==1.0a1.*", ">=1.0+local",
    "~=1.0+local", "=>1.0", "==1.0 .*", "=== ", "===a b", "==", "<", ">=1.0;", "== 1 .0", "~=1.*",
    "!=1.0.*.*", "> =1.0", "<==1", "=1.0", "===a;b", "===a)", "== 1.0 +local", ">=1.0 a1",
]

ANCHORS = ["0", "1", "1.0", "1.0.0", "1.0a1", "1.0b2", "1.0rc1", "1.0.post1", "1.0.dev1", "1.0a1.post1",
           "1.0a1.dev1", "1.0.post1.dev1", "1.0+local", "1!1.0", "1.1", "2.0", "13.5", "13.4.5.dev3",
           "12.9", "1.0.1", "0.30", "1.0.post0", "1.0a2", "1.0rc1.post2.dev3"]
OPERATORS = ["==", "!=", "<", "<=", ">", ">=", "~="]
# One release's neighbourhood, in order: where ranges end between a release's dev, pre,
# post and local versions, and hold few versions or none.
FAMILY = ["0.dev0", "0", "0.post0", "1.0.dev0", "1.0.dev1", "1.0a1.dev0", "1.0a1", "1.0a1.post0", "1.0a1.post1",
          "1.0a1.post1.dev1", "1.0a2.dev0", "1.0a2", "1.0rc1", "1.0rc1.post1", "1.0", "1.0+a", "1.0+a.1", "1.0+1",
          "1.0.post0.dev0", "1.0.post0", "1.0.post1.dev0", "1.0.post1", "1.0.post1+x", "1.0.post2.dev0", "1.0.0.1",
          "1.0.1.dev0", "1.1.dev0", "1!0"]


def random_versions(rng, count):
    def pick(choices):
        return rng.choice(choices)
    versions = []
    for _ in range(count):
        text = pick(["", "", "", "v", "V", " "])
        if rng.random() < 0.2:
            text += pick(["1!", "0!", "2!"])
        text += ".".join(pick(["0", "1", "2", "9", "10", "00", "01", "13", "999999999", "1000000000000"])
                         for _ in range(rng.randint(1, 4)))
        separators = ["", "", ".", "-", "_"]
        if rng.random() < 0.5:
            text += pick(separators) + pick(["a", "A", "alpha", "b", "beta", "c", "rc", "RC", "pre", "preview"]) + \
                pick(separators) + pick(["", "0", "1", "2", "01", "10"])
        if rng.random() < 0.4:
            text += pick(["-1", "-0"]) if rng.random() < 0.3 else \
                pick(separators) + pick(["post", "rev", "r", "POST"]) + pick(separators) + pick(["", "0", "1", "3"])
        if rng.random() < 0.4:
            text += pick(separators) + pick(["dev", "DEV"]) + pick(separators) + pick(["", "0", "1", "20261202"])
        if rng.random() < 0.3:
            parts = [pick(["abc", "1", "01", "g1234abc", "ABC", "0", "z", "a1"]) for _ in range(rng.randint(1, 3))]
            text += "+" + "".join(p + pick([".", "-", "_"]) for p in parts[:-1]) + parts[-1]
        text += pick(["", "", "", " ", "\n"])
        if rng.random() < 0.1:  # a stray character somewhere
            at = rng.randint(0, len(text))
            text = text[:at] + pick(list("x.-_+!*= ")) + text[at:]
        versions.append(text)
    return versions


def random_ranges(rng, count):
    ranges = []
    for _ in range(count):
        clauses = []
        for _ in range(rng.choice([1, 1, 2, 2, 3])):
            op = rng.choice(OPERATORS)
            version = rng.choice(ANCHORS)
            if op in ("==", "!=") and rng.random() < 0.25:
                version = ".".join(version.split("!")[-1].split("+")[0].split(".")[:2])
                version = "".join(ch for ch in version if ch.isdigit() or ch == ".").strip(".") or "1"
                version += ".*"
            if op == "~=" and version.count(".") == 0:
                version += ".0"
            clauses.append(op + version)
        ranges.append(",".join(clauses))
    return ranges


def family_ranges(rng, count):
    ranges = []
    for _ in range(count):
        clauses = []
        for _ in range(rng.choice([2, 2, 3])):
            op, version = rng.choice(OPERATORS), rng.choice(FAMILY)
            if op not in ("==", "!="):
                version = version.split("+")[0]
            if op == "~=" and "." not in version.split("!")[-1]:
                version += ".0"
            if op in ("==", "!=") and rng.random() < 0.2:
                version = rng.choice(["0", "1", "1.0", "1.0.0", "1.1"]) + ".*"
            if rng.random() < 0.05:
                op = "==="
            clauses.append(op + version)
        ranges.append(",".join(clauses))
    return ranges


def unique(items):
    seen, out = set(), []
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out


def build():
    import packaging
    from packaging.specifiers import InvalidSpecifier, SpecifierSet
    from packaging.version import InvalidVersion, Version

    rng = random.Random(440)
    versions = unique(CURATED_VERSIONS + FAMILY + random_versions(rng, 160))
    ranges = unique(CURATED_RANGES + random_ranges(rng, 160) + family_ranges(rng, 200))

    parsed = {}
    for text in versions:
        try:
            parsed[text] = Version(text)
        except InvalidVersion:
            pass
    ordered = sorted(set(parsed.values()))
    rank = {v: i for i, v in enumerate(ordered)}  # equal versions are one set member: one rank
    version_rows = [[text, str(parsed[text]) if text in parsed else None, rank[parsed[text]] if text in parsed else None]
                    for text in versions]

    range_rows = []
    for text in ranges:
        try:
            spec = SpecifierSet(text)
        except InvalidSpecifier:
            range_rows.append([text, False, None, None])
            continue
        bits = []
        for version in versions:
            default = spec.contains(version)
            if default != spec.contains(version, prereleases=True):
                sys.exit(f"pep440-table: {text!r} contains {version!r} differs between prereleases=None and True")
            bits.append("1" if default else "0")
        range_rows.append([text, True, spec.is_unsatisfiable(), "".join(bits)])
    return packaging.__version__, version_rows, range_rows


def render(packaging_version, version_rows, range_rows):
    lines = ["{",
             '  "format": "hostcb-pep440-table",',
             '  "generated_by": "scripts/pep440-table.py",',
             f'  "packaging": {json.dumps(packaging_version)},',
             '  "versions_columns": ["text", "normalized (null: refused)", "rank in packaging\'s order"],',
             '  "versions": [']
    lines += ["    " + json.dumps(row) + ("," if i + 1 < len(version_rows) else "") for i, row in enumerate(version_rows)]
    lines += ["  ],",
              '  "ranges_columns": ["text", "valid", "is_unsatisfiable", "contains, one digit per version"],',
              '  "ranges": [']
    lines += ["    " + json.dumps(row) + ("," if i + 1 < len(range_rows) else "") for i, row in enumerate(range_rows)]
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed table")
    parser.add_argument("--output", default=TABLE, help="where to write (default: %(default)s)")
    args = parser.parse_args()
    try:
        import packaging.specifiers
        ok = hasattr(packaging.specifiers.SpecifierSet, "is_unsatisfiable")
    except ImportError:
        ok = False
    if not ok:
        print("pep440-table: needs Python's packaging 26.1 or newer (pip install 'packaging>=26.1')", file=sys.stderr)
        return 77
    packaging_version, version_rows, range_rows = build()
    text = render(packaging_version, version_rows, range_rows)
    if args.check:
        with open(args.output, encoding="utf-8") as f:
            committed = f.read()
        if committed == text:
            print(f"pep440-table: {args.output} is what packaging says")
            return 0
        old, new = committed.splitlines(), text.splitlines()
        for i, (a, b) in enumerate(zip(old, new)):
            if a != b:
                print(f"pep440-table: line {i + 1} differs:\n  committed: {a}\n  packaging: {b}", file=sys.stderr)
                break
        else:
            print(f"pep440-table: {len(old)} lines committed, {len(new)} now", file=sys.stderr)
        print("pep440-table: regenerate with scripts/pep440-table.py (with this packaging) and review", file=sys.stderr)
        return 1
    os.makedirs(os.path.dirname(args.output), exist_ok=True)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"pep440-table: wrote {args.output} (packaging {packaging_version}): {len(version_rows)} versions, "
          f"{len(range_rows)} ranges")
    return 0


if __name__ == "__main__":
    sys.exit(main())
