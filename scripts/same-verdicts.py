#!/usr/bin/env python3
"""Whether hostcb runs gave every scenario id the same status.

Usage: scripts/same-verdicts.py [--ids GLOB] RESULTS.json RESULTS.json...

Reads each run's results file (hostcb run --json) and compares the status of every id
across them: the same scenarios run in another order (--shuffle), with other workers
(-j), or beside other scenarios must end the same way, since a verdict depends on its
scenario alone. With --repeat, each pass of an id counts. --ids keeps only the ids the
shell-style GLOB matches (e.g. 'sim_replay/*'). Prints one line per id whose statuses
differ and a summary line; exit 0 when none differs, 1 when some do, 2 on bad input
(a file that is not a results file, or ids that are not the same in every run).
"""
import fnmatch
import json
import sys


def statuses(path, pattern):
    try:
        with open(path, encoding="utf-8") as f:
            results = json.load(f)["results"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"same-verdicts: {path}: not a hostcb results file ({e})")
    by_id = {}
    for r in results:
        if pattern is None or fnmatch.fnmatchcase(r["id"], pattern):
            by_id.setdefault(r["id"], []).append(r["status"])
    return {k: sorted(v) for k, v in by_id.items()}


def main(argv):
    pattern = None
    if argv[:1] == ["--ids"]:
        if len(argv) < 2:
            print("same-verdicts: --ids needs a GLOB", file=sys.stderr)
            return 2
        pattern, argv = argv[1], argv[2:]
    if len(argv) < 2 or any(a.startswith("-") for a in argv):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    runs = [(path, statuses(path, pattern)) for path in argv]
    first_path, first = runs[0]
    if not first:
        print(f"same-verdicts: {first_path} has no result" + (f" matching {pattern}" if pattern else ""), file=sys.stderr)
        return 2
    for path, run in runs[1:]:
        if set(run) != set(first):
            missing = sorted(set(first) ^ set(run))
            print(f"same-verdicts: {first_path} and {path} ran other ids ({len(missing)}, first: {missing[0]})",
                  file=sys.stderr)
            return 2
    differ = 0
    for scenario in sorted(first):
        seen = [run[scenario] for _, run in runs]
        if any(s != seen[0] for s in seen):
            differ += 1
            print(f"DIFFERS {scenario}: " + "; ".join(f"{path}: {','.join(s)}" for (path, _), s in zip(runs, seen)))
    print(f"same-verdicts: {len(first)} ids in {len(runs)} runs, {differ} with differing statuses")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
