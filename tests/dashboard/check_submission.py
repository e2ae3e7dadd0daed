#!/usr/bin/env python3
"""Checks what fake_cdash.py recorded (tests/dashboard/e2e_dashboard.sh).

  check_submission.py RECORD_DIR --parts Configure,Build,Test,Done [--build-suffix -cuda13.0]
                      [--auth] [--skipped scenario:replay,...] [--passed unit:passes,...]

Each part must arrive exactly once, as a PUT to /submit.php?project=hostcb with one
site, build name and stamp across parts, the md5 CTest announced matching the body, and
a well-formed XML body. Test.xml: --passed tests passed, --skipped ones "notrun" with
SKIP_RETURN_CODE=77, hostcb's reason ("no usable ...") in their output, the gpu and scenario labels. Exit 0 or 1.
"""
import argparse
import base64
import hashlib
import json
import os
import sys
import xml.etree.ElementTree as ET
import zlib

problems = []


def check(cond, what):
    if not cond:
        problems.append(what)
    return cond


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("record")
    ap.add_argument("--parts", required=True)
    ap.add_argument("--build-suffix")
    ap.add_argument("--not-in-build")
    ap.add_argument("--auth", action="store_true")
    ap.add_argument("--skipped", default="")
    ap.add_argument("--passed", default="")
    args = ap.parse_args()

    log = os.path.join(args.record, "requests.jsonl")
    requests = []
    if os.path.exists(log):  # absent: nothing arrived
        with open(log) as f:
            requests = [json.loads(line) for line in f]
    by_part = {}
    for r in requests:
        name = r["query"].get("FileName", "")
        part = name.rsplit("___", 1)[-1].removesuffix(".xml") if "___XML___" in name else name
        check(part not in by_part, "part %s arrived twice" % part)
        by_part[part] = r
        check(r["method"] == "PUT", "%s: method %s" % (part, r["method"]))
        check(r["path"].endswith("/submit.php"), "%s: path %s" % (part, r["path"]))
        check(r["query"].get("project") == "hostcb", "%s: project %s" % (part, r["query"].get("project")))
        check(r["query"].get("MD5") == r["md5"], "%s: announced md5 %s, body's %s" % (part, r["query"].get("MD5"), r["md5"]))
        if args.auth:
            check(r["authorization"] is True, "%s: no or wrong Authorization header" % part)
        else:
            check(r["authorization"] is None, "%s: an Authorization header nobody asked for" % part)
    want = args.parts.split(",")
    check(sorted(by_part) == sorted(want), "parts received %s, expected %s" % (sorted(by_part), sorted(want)))
    for key in ("site", "build", "stamp"):
        values = {r["query"].get(key) for r in requests}
        check(len(values) == 1, "%s differs between parts: %s" % (key, values))
    build = requests[0]["query"].get("build", "") if requests else ""
    if args.build_suffix:
        check(build.endswith(args.build_suffix), "build name %r does not end with %r" % (build, args.build_suffix))
    if args.not_in_build:
        check(args.not_in_build not in build, "build name %r names %r" % (build, args.not_in_build))

    bodies = {}
    for part, r in by_part.items():
        path = os.path.join(args.record, "%03d-%s" % (r["n"], os.path.basename(r["query"]["FileName"])))
        with open(path, "rb") as f:
            data = f.read()
        check(hashlib.md5(data).hexdigest() == r["md5"], "%s: stored body differs" % part)
        try:
            bodies[part] = ET.fromstring(data)
        except ET.ParseError as e:
            check(False, "%s: not well-formed XML: %s" % (part, e))
    for part, root in bodies.items():
        if part == "Done":
            check(root.tag == "Done", "Done.xml's root is %s" % root.tag)
            continue
        check(root.tag == "Site" and root.get("BuildName") == build, "%s: <Site BuildName> is not %r" % (part, build))
        element = {"Test": "Testing"}.get(part, part)
        check(root.find(element) is not None, "%s: no <%s> element" % (part, element))

    if "Test" in bodies:
        tests = {t.findtext("Name"): t for t in bodies["Test"].iter("Test") if t.get("Status")}
        for name in filter(None, args.passed.split(",")):
            t = tests.get(name)
            check(t is not None and t.get("Status") == "passed", "%s: not passed" % name)
        for name in filter(None, args.skipped.split(",")):
            t = tests.get(name)
            if not check(t is not None, "%s: not in Test.xml" % name):
                continue
            check(t.get("Status") == "notrun", "%s: status %s, expected notrun" % (name, t.get("Status")))
            measures = {m.get("name"): m.findtext("Value") for m in t.iter("NamedMeasurement")}
            check("SKIP_RETURN_CODE=77" in (measures.get("Completion Status") or ""),
                  "%s: completion status %r" % (name, measures.get("Completion Status")))
            value = t.find("Results/Measurement/Value")
            output = (value.text or "") if value is not None else ""
            if value is not None and value.get("encoding") == "base64":  # ctest packs long output
                output = base64.b64decode(output)
                if value.get("compression") == "gzip":
                    output = zlib.decompress(output)
                output = output.decode("utf-8", "replace")
            check("no usable" in output, "%s: no reason in its output: %r" % (name, output[:200]))
            labels = [l.text for l in t.iter("Label")]
            check("gpu" in labels and "scenario" in labels, "%s: labels %s" % (name, labels))
    for p in problems:
        print("check_submission: " + p)
    print("check_submission: %s: %d part(s), build %r: %s" % (args.record, len(requests), build,
                                                              "ok" if not problems else "%d problem(s)" % len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
