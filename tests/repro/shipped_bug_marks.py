"""Reads scenario ids on stdin and prints those that the shipped expectations
(expectations/known-layer-bugs.jsonc) expect to fail with cuda-bindings at VERSION: the
ones where hostcb saw cuda-bindings before 13.5.0 fail on the H200. tests/e2e_repro.sh
compares them with where the reproducers fail under the stand-in of that bug.

Usage: python3 shipped_bug_marks.py EXPECTATIONS.jsonc VERSION < ids"""
import fnmatch
import json
import re
import sys


def version(text):
    return tuple(int(part) for part in text.split("."))


def in_range(spec, at):
    """A specifier of the forms the entries use: ">=12.9,<13.5", "==14.2.*"."""
    for clause in spec.split(","):
        op, value = re.match(r"\s*(>=|<=|==|<|>)\s*([0-9.*]+)", clause).groups()
        if value.endswith(".*"):
            prefix = version(value[:-2])
            if (at[:len(prefix)] == prefix) != (op == "=="):
                return False
            continue
        want = version(value)
        if not {">=": at >= want, "<=": at <= want, "<": at < want, ">": at > want, "==": at == want}[op]:
            return False
    return True


def axes_hold(entry, scenario):
    values = dict(part.split("=", 1) for part in scenario.split("/")[1:])
    for axis, spec in entry.get("axes", {}).items():
        if axis not in values or not in_range(spec, (int(values[axis]),)):
            return False
    return True


def main():
    text = re.sub(r"^\s*//.*$", "", open(sys.argv[1]).read(), flags=re.M)
    entries = json.loads(text)["expectations"]
    at = version(sys.argv[2])
    for scenario in sys.stdin.read().split():
        for entry in entries:
            spec = entry.get("layers", {}).get("cuda-bindings")
            globs = entry["id"] if isinstance(entry["id"], list) else [entry["id"]]
            if (spec and in_range(spec, at) and any(fnmatch.fnmatchcase(scenario, g) for g in globs)
                    and axes_hold(entry, scenario)):
                print(scenario)
                break


main()
