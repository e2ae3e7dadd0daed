#!/usr/bin/env bash
# A layer's figures count only what went through it (docs/cli.md, "Axis overrides";
# docs/reports.md): `--axis forward=NAME` plans only families with a forward axis, and the
# console and the JSON summary say how many scenarios the loaded layer ran, also in a run
# that holds others.
# Usage: e2e_layer_counts.sh HOSTCB_STUB ADAPTER NAME WORK_DIR
set -u
stub=$1 adapter=$2 name=$3 work=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"

# Selecting the layer by axis: no scenario of a family without the forward axis.
"$stub" list --adapter "$adapter" --axis "forward=$name" >"$work/ids" 2>/dev/null || fail "list --axis forward=$name failed"
[ -s "$work/ids" ] || fail "list --axis forward=$name listed nothing"
if grep -vE "/forward=$name(/|[[:space:]]|$)" "$work/ids" >"$work/others"; then
  fail "--axis forward=$name kept scenarios that do not go through it: $(head -n 2 "$work/others" | tr '\n' ' ')"
fi
# A shaping axis keeps the families without it (stub has no forward axis).
"$stub" list --axis copy=2 2>/dev/null | grep -q '^stub/' || fail "--axis copy=2 dropped the families without a forward axis"

# A run of the layer and of scenarios that never touch it: the layer's own line and counts.
"$stub" run --adapter "$adapter" --filter "stub_forward/forward=$name/*:stub/behave=pass/*" \
  --json "$work/r.json" >"$work/out" 2>&1
grep -E "^ *through $name: 6 scenarios: 6 passed, 0 failed, 0 errors, 0 skipped$" "$work/out" >/dev/null ||
  fail "no 'through $name: 6 scenarios' line:
$(cat "$work/out")"
python3 - "$work/r.json" "$name" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1]))
name = sys.argv[2]
layers = doc["summary"]["layers"]
if list(layers) != [name]:
    sys.exit(f"FAIL: summary.layers names {list(layers)}; expected [{name!r}]")
mine = layers[name]
if mine["total"] != 6 or mine["passed"] != 6:
    sys.exit(f"FAIL: summary.layers.{name} is {mine}; expected 6 passed of 6")
if doc["summary"]["total"] <= mine["total"]:
    sys.exit(f"FAIL: the run's total {doc['summary']['total']} should hold more than the layer's")
print(f"{name}: {mine['total']} of the run's {doc['summary']['total']} scenarios went through it")
PY
echo "ok: the layer's figures are its own"
