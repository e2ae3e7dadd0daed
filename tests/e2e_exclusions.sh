#!/usr/bin/env bash
# Every exclusion rule docs/scenarios.md states, through the real families: the
# combinations it rules out are listed as excluded with its reason, and the ones next to
# them that it does not rule out are not. Through the built-in layers, a version-1 plugin
# (launch_host_func and add_stream_callback only) and a plugin without add_stream_callback.
# Usage: e2e_exclusions.sh HOSTCB V1_PLUGIN NO_STREAM_CALLBACK_PLUGIN
set -u
hostcb=$1 v1=$2 nocb=$3
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$hostcb" list --controls --format json >"$work/builtin.json" || exit 1
"$hostcb" list --controls --format json --adapter "$v1" --filter '*forward=v1/*' >"$work/v1.json" || exit 1
"$hostcb" list --controls --format json --adapter "$nocb" --filter '*forward=fake/*' >"$work/nocb.json" || exit 1
python3 - "$work" <<'PY'
import fnmatch, json, sys
work = sys.argv[1]
docs = {name: {s["id"]: s for s in json.load(open(f"{work}/{name}.json"))["scenarios"]} for name in ("builtin", "v1", "nocb")}
bad = []
def rule(doc, glob, reason, expect_excluded=True, unless=None):
    """Every id matching glob (and not unless) is excluded with reason (expect_excluded=False: not excluded)."""
    hits = [s for i, s in docs[doc].items() if fnmatch.fnmatchcase(i, glob) and not (unless and fnmatch.fnmatchcase(i, unless))]
    if not hits:
        bad.append(f"{doc}: no scenario matches {glob}")
    for s in hits:
        if expect_excluded and reason not in s["excluded"]:
            bad.append(f"{s['id']}: expected excluded: ...{reason}..., got {s['excluded']!r}")
        if not expect_excluded and s["excluded"]:
            bad.append(f"{s['id']}: expected runnable, got excluded: {s['excluded']!r}")
        if expect_excluded and s["control"]:
            bad.append(f"{s['id']}: excluded and a control: a combination that cannot exist never runs")
# A layer without an operation a combination needs: excluded, naming the operation.
rule("v1", "*/build=node/*", "the v1 layer has no add_host_node", unless="topology/*/shape=capture_to_graph/*")
rule("v1", "update/*/case=exec_set_params/build=capture/*", "the v1 layer has no exec_set_host_node")
rule("v1", "update/*/case=graph_set_params/build=capture/*", "the v1 layer has no graph_set_host_node")
rule("v1", "update/*/case=exec_update/build=capture/*", "", False)
rule("v1", "topology/*/shape=capture_to_graph/build=capture/*", "the v1 layer has no add_host_node")
rule("v1", "topology/*/shape=chain/build=capture/*", "", False)
rule("v1", "stream_host_func/*", "", False)
rule("nocb", "stream_callback/*", "the fake layer has no add_stream_callback")
rule("nocb", "device_fault/*/then=stream_callback", "the fake layer has no add_stream_callback")
rule("nocb", "device_fault/*/then=host_func", "", False)
rule("nocb", "stream_host_func/*", "", False)
# The wrapper defects of callback_fault are layers of their own: forward=direct only.
for fault in ("skips_every_other", "runs_twice", "wrong_user_data"):
    rule("builtin", f"callback_fault/*/forward=oneshot/fault={fault}", "runs with forward=direct only")
    rule("builtin", f"callback_fault/*/forward=graph_owned/fault={fault}", "runs with forward=direct only")
    rule("v1", f"callback_fault/*/fault={fault}", "runs with forward=direct only")
    rule("builtin", f"callback_fault/*/forward=direct/fault={fault}", "", False)
rule("v1", "callback_fault/*/fault=throws", "", False)
# capture_to_graph is a capture: never by explicit nodes; and never a control either.
rule("builtin", "topology/*/shape=capture_to_graph/build=node/*", "capture_to_graph is a capture")
rule("builtin", "topology/*/forward=direct/shape=capture_to_graph/build=capture/*", "", False)
# Through a known-bad layer, a fuzz program that never calls a freed record is excluded
# (the model says); one that does is a control (seeds 4 and 7; seed 4).
for layer, controls in (("frees_on_update", {4, 7}), ("exec_set_in_graph", {4})):
    for seed in range(1, 9):
        s = docs["builtin"][f"fuzz/forward={layer}/seed={seed}/size=40/cut=none"]
        if seed in controls and (s["excluded"] or not s["control"]):
            bad.append(f"{s['id']}: expected a control, got excluded={s['excluded']!r} control={s['control']!r}")
        if seed not in controls:
            rule("builtin", s["id"], f"the {layer} layer's bug is not reached by this program (the model says)")
rule("builtin", "fuzz/forward=direct/*", "", False)
if bad:
    print("FAIL:\n  " + "\n  ".join(bad[:10]) + (f"\n  ... and {len(bad) - 10} more" if len(bad) > 10 else ""))
    sys.exit(1)
print("exclusions: every rule holds, with its reason, and spares its neighbours")
PY
