#!/usr/bin/env python3
"""Keeps a GPU run's results as a test input: each `hostcb run --json` file given is written
to OUT_DIR under the same name, with the results it ran (not those skipped as interrupted,
which say nothing), each with the status it had before any expectations file (so the shipped
one can be checked against it again), its reason, and no properties, failures or times beyond
what a check of expectations reads. The environment is kept whole.

Usage: scripts/store-gpu-run.py OUT_DIR RESULTS.json...
"""
import json
import os
import sys


def stored(doc):
    kept = []
    for r in doc["results"]:
        if r["status"] == "skipped" and r.get("reason", "").startswith("interrupted"):
            continue
        props = r.get("properties") or {}
        status = props.get("result_before_expectations", r["status"]) if r["status"] in ("xfail", "xpass") else r["status"]
        kept.append({"id": r["id"], "family": r["family"], "params": r["params"], "status": status,
                     "reason": r.get("reason", ""), "seconds": r.get("seconds", 0), "failures": r.get("failures", [])[:1],
                     "failures_dropped": 0, "properties": {}, "device": r.get("device")})
    doc["results"] = kept
    doc.pop("summary", None)
    return doc


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    out_dir = argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for path in argv[2:]:
        with open(path) as f:
            doc = stored(json.load(f))
        target = os.path.join(out_dir, os.path.basename(path))
        results = doc.pop("results")
        with open(target, "w") as f:  # one result a line: small, and a diff shows which changed
            head = json.dumps(doc, indent=1)
            f.write(head[:-2] + ',\n "results": [\n')
            f.write(",\n".join("  " + json.dumps(r, separators=(",", ":")) for r in results))
            f.write("\n ]\n}\n")
        doc["results"] = results
        print("%s: %d results" % (target, len(doc["results"])))


if __name__ == "__main__":
    main(sys.argv)
