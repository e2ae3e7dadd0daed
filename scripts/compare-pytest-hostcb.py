#!/usr/bin/env python3
"""Checks that `pytest --hostcb-layer LAYER --junitxml J` reported what `hostcb run --adapter
LAYER --json R` did: every scenario of R through the layer is one item of J, with the outcome
that hostcb's status maps to (docs/python.md): passed -> passed, failed -> failure, error ->
error, skipped -> skipped, xfail -> skipped (pytest.xfail), xpass -> failure.

Usage: scripts/compare-pytest-hostcb.py RESULTS.json JUNIT.xml [FORWARD-NAME]
Prints the counts of each and every difference; exits 0 when they agree, 1 when not, 2 on bad
input. FORWARD-NAME (default: the results' last adapter) picks the layer's scenarios.
"""
import collections
import json
import sys
import xml.etree.ElementTree as ET

EXPECTED = {"passed": "passed", "failed": "failure", "error": "error", "skipped": "skipped", "xfail": "xfail",
            "xpass": "failure"}


def pytest_outcome(case):
    for child in case:
        if child.tag in ("failure", "error"):
            return child.tag
        if child.tag == "skipped":
            return "xfail" if child.get("type") == "pytest.xfail" else "skipped"
    return "passed"


SEPARATORS = ":.[]"


def normalized(text):
    """pytest's JUnit turns '/' into '.' in the part of a node id before its first '['."""
    return text.replace("/", ".")


def scenario_of(case, by_key):
    """The hostcb id a testcase stands for, or None. pytest's junitxml splits an item's node id
    into classname and name in more than one way (at '::' and '[', with '/' made '.'), so the
    id is looked for as a tail of both joined, starting after a separator."""
    text = normalized("%s.%s" % (case.get("classname") or "", case.get("name") or ""))
    for start in range(len(text)):
        if (start == 0 or text[start - 1] in SEPARATORS) and text[start:] in by_key:
            return by_key[text[start:]]
    return None


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    results = json.load(open(argv[1], encoding="utf-8"))
    forward = argv[3] if len(argv) == 4 else results["environment"]["adapters"][-1]["name"]
    hostcb = {r["id"]: r["status"] for r in results["results"] if r["params"].get("forward") == forward}
    by_key = {normalized(i): i for i in hostcb}
    pytest = {}
    unmatched = []  # hostcb items (they name a forward axis) that stand for no scenario of the run
    for case in ET.parse(argv[2]).getroot().iter("testcase"):
        scenario = scenario_of(case, by_key)
        if scenario is not None:
            pytest[scenario] = pytest_outcome(case)
        elif "forward=" in (case.get("name") or ""):
            unmatched.append(case.get("name"))
    print("hostcb run:  %d scenarios through %s: %s" % (len(hostcb), forward, dict(collections.Counter(hostcb.values()))))
    print("pytest:      %d items: %s" % (len(pytest), dict(collections.Counter(pytest.values()))))
    differences = ["%s: hostcb %s, pytest %s" % (i, hostcb.get(i, "-"), pytest.get(i, "-"))
                   for i in sorted(set(hostcb) | set(pytest)) if EXPECTED.get(hostcb.get(i)) != pytest.get(i)]
    differences += ["pytest item %s stands for no scenario of the run" % name for name in unmatched]
    for line in differences[:20]:
        print("  differs: " + line)
    print("agree" if not differences and hostcb else "%d differ" % len(differences))
    return 0 if not differences and hostcb else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
