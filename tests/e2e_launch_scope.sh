#!/usr/bin/env bash
# A layer that launches host functions only in its own capture (LAUNCH_SCOPE / the ABI's
# launch_scope): through it, the families that capture run with build=capture_by_layer (and
# device_fault with then=host_func_in_layer_graph) only, and every other launch is excluded,
# naming the scope.
# Usage: e2e_launch_scope.sh HOSTCB ADAPTER_SPEC NAME [FAMILY]
# With FAMILY (a layer with every operation, so its host nodes may go anywhere): only that
# the scope excludes some of FAMILY's scenarios, which the family decides one by one (fuzz).
# With FAMILY=own_capture_stream (LAUNCH_SCOPE "own_capture_stream"): besides, topology's
# branches in the layer's capture (host functions on forked side streams) are excluded,
# naming that, while its chain in the layer's capture runs.
set -u
hostcb=$1 spec=$2 name=$3 family=${4:-}
json=$("$hostcb" list --adapter "$spec" --format json --filter "*forward=$name/*" 2>&1) || { echo "FAIL: list: $json"; exit 1; }
python3 - "$name" "$family" <<PY
import json, sys
name, family = sys.argv[1], sys.argv[2]
doc = json.loads('''$json''')
s = doc["scenarios"]
runnable = [x["id"] for x in s if not x["excluded"]]
in_own_capture = lambda i: "build=capture_by_layer" in i or "then=host_func_in_layer_graph" in i
by_layer = [i for i in runnable if in_own_capture(i)]
other = [i for i in runnable if not in_own_capture(i) and not i.startswith(("contracts/", "capture_contract/"))]
scoped = [x for x in s if "only in a capture it began" in x["excluded"]]
print(f"{name}: {len(runnable)} runnable ({len(by_layer)} capture_by_layer), {len(scoped)} excluded by scope")
if family == "own_capture_stream":
    forked = [x["id"] for x in s if "side stream forked into its own capture" in x["excluded"]]
    if not [i for i in forked if i.startswith("topology/") and "shape=branches/build=capture_by_layer" in i]:
        sys.exit("FAIL: topology's branches in the layer's capture are not excluded for their side streams")
    if not [i for i in by_layer if i.startswith("topology/") and "shape=chain/build=capture_by_layer" in i]:
        sys.exit("FAIL: topology's chain in the layer's capture does not run")
    print(f"{name}: {len(forked)} excluded for launching on a side stream of its capture")
elif family:
    if not [x for x in scoped if x["id"].startswith(family + "/")]:
        sys.exit(f"FAIL: the scope excludes none of {family}'s scenarios")
    sys.exit(0)
if not by_layer: sys.exit("FAIL: no capture_by_layer scenario runs through the layer")
if other: sys.exit(f"FAIL: {other[0]} launches outside the layer's own capture")
if not scoped: sys.exit("FAIL: no scenario names the launch scope in its exclusion")
PY
