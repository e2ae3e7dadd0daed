#!/usr/bin/env bash
# The real families through an adapter: `hostcb list --adapter PLUGIN` must name NAME in at
# least MIN families, and every combination needing an operation the plugin lacks must be
# listed as excluded with a reason naming that operation (never silently dropped).
# Usage: e2e_adapter_families.sh HOSTCB PLUGIN NAME MIN
set -u
hostcb=$1 plugin=$2 name=$3 min=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
json=$("$hostcb" list --adapter "$plugin" --controls --format json --filter "*forward=$name/*:*forward=direct/*" 2>/dev/null) ||
  fail "hostcb list --adapter $plugin failed"
python3 - "$name" "$min" <<PY || exit 1
import json, sys
name, least = sys.argv[1], int(sys.argv[2])
doc = json.loads('''$json''')
scenarios = [s for s in doc["scenarios"] if s["params"].get("forward") == name]
runnable = sorted({s["family"] for s in scenarios if not s["excluded"]})
print(f"{name}: {len(scenarios)} scenarios, runnable in {len(runnable)} families: {' '.join(runnable)}")
if len(runnable) < least:
    sys.exit(f"FAIL: {name} reaches {len(runnable)} families; expected at least {least}")
# An exclusion is the plugin's own when the same combination through direct is not
# excluded: then its reason must name the operation the plugin lacks.
direct = {s["id"].replace(f"forward={name}", "forward=direct"): s for s in doc["scenarios"]
          if s["params"].get("forward") == "direct"}
excluded = [s for s in scenarios if s["excluded"]]
own = [s for s in excluded if not direct.get(s["id"].replace(f"forward={name}", "forward=direct"), {}).get("excluded")]
bad = [s for s in own if not any(op in s["excluded"] for op in
       ("has no launch_host_func", "has no add_host_node", "has no begin_capture/end_capture", "has no graph_set_host_node",
        "has no exec_set_host_node", "has no add_stream_callback", "forward=direct only"))]
if bad:
    sys.exit(f"FAIL: {bad[0]['id']} is excluded without naming a missing operation: {bad[0]['excluded']}")
nodes = [s for s in scenarios if s["params"].get("build") == "node"]
if nodes and not all(s["excluded"] for s in nodes):
    sys.exit("FAIL: a build=node scenario is not excluded for a plugin without add_host_node")
# The plugin has no capture of its own: every build=capture_by_layer scenario that runs
# through direct is excluded through it, naming the operation (in each family with the build).
by_layer = [s for s in scenarios if s["params"].get("build") == "capture_by_layer" and
            not direct.get(s["id"].replace(f"forward={name}", "forward=direct"), {}).get("excluded")]
if not by_layer:
    sys.exit("FAIL: no build=capture_by_layer scenario is listed through the plugin")
unnamed = [s for s in by_layer if "has no begin_capture/end_capture" not in (s["excluded"] or "")]
if unnamed:
    sys.exit(f"FAIL: {unnamed[0]['id']} is not excluded for a plugin without begin_capture/end_capture: {unnamed[0]['excluded']!r}")
print(f"{len(by_layer)} build=capture_by_layer scenarios in {len({s['family'] for s in by_layer})} families, each excluded: "
      "no begin_capture/end_capture")
print(f"{len(excluded)} excluded, each naming the operation it lacks")
PY
