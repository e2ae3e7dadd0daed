"""CTest's per-family mode (cmake/HostcbScenarioTests.cmake): one test per listed scenario,
each requiring its family's fixture, and one fixture test per family.
Usage: e2e_ctest_fixtures.py CTEST BUILD_DIR HOSTCB_EXE"""
import json
import subprocess
import sys

ctest, build_dir, hostcb = sys.argv[1:4]
shown = json.loads(subprocess.run([ctest, "--show-only=json-v1"], cwd=build_dir, check=True,
                                  capture_output=True, text=True).stdout)
listed = subprocess.run([hostcb, "list"], check=True, capture_output=True, text=True).stdout.split("\n")
listed = {line.split("\t")[0] for line in listed if line}

families, scenarios = set(), set()
for test in shown["tests"]:
    name = test["name"]
    props = {p["name"]: p["value"] for p in test.get("properties", [])}
    if name.startswith("family:"):
        families.add(name[len("family:"):])
        if props.get("FIXTURES_SETUP") != [name]:
            sys.exit(f"{name} sets up {props.get('FIXTURES_SETUP')}, not its own fixture")
    elif name.startswith("scenario:"):
        scenario = name[len("scenario:"):]
        scenarios.add(scenario)
        family = scenario.split("/")[0]
        if f"family:{family}" not in props.get("FIXTURES_REQUIRED", []):
            sys.exit(f"{name} does not require its family's fixture: {props.get('FIXTURES_REQUIRED')}")
        if props.get("SKIP_RETURN_CODE") != 77:
            sys.exit(f"{name} does not turn 77 into a skip")
if scenarios != listed:
    sys.exit(f"{len(scenarios)} scenario tests, {len(listed)} scenarios listed; differing: "
             f"{sorted(scenarios ^ listed)[:5]}")
if families != {s.split('/')[0] for s in listed}:
    sys.exit(f"family fixtures {sorted(families)} do not match the listed families")
print(f"{len(scenarios)} scenario tests, each requiring one of {len(families)} family fixtures")
