#!/usr/bin/env bash
# Hardening, round four (issue 42, item 12): the smaller defects, end to end. Each section
# names what it guards.
# Usage: e2e_round_four.sh HOSTCB HOSTCB_STUB FAKE_ADAPTER PYTHON_ADAPTER WORK_DIR
# (PYTHON_ADAPTER may be "": its checks are then left out.)
set -u
hostcb="$(realpath "$1")" stub="$(realpath "$2")" fake="$(realpath "$3")" python_adapter="$4" work="$5"
rm -rf "$work" && mkdir -p "$work"
# shellcheck source=e2e_checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_checks.sh"  # fail, exit_is, one_line_saying

# --- adapter options: an '@' with nothing after it, and empty or nameless items, are refused.
exit_is 2 "$stub" list --adapter "$fake@"
one_line_saying "nothing follows its '@': give OPTIONS after it, or leave the '@' out"
if [ -n "$python_adapter" ]; then
  for options in "module=fake_layer," ",module=fake_layer" ",," "module=fake_layer,,name=x"; do
    exit_is 2 "$stub" list --adapter "$python_adapter@$options"
    one_line_saying "an empty option in '$options' (two commas, or a comma at an end): give each as KEY=VALUE"
  done
  exit_is 2 "$stub" list --adapter "$python_adapter@=fake_layer"
  one_line_saying "option '=fake_layer' has no name: give it as KEY=VALUE"
fi
echo "round four: '@' alone and empty or nameless adapter options are refused"

# --- a results file: a NUL byte anywhere is refused, and a duplicate key said without "( ".
exit_is 0 "$stub" run -q -f 'stub/behave=pass/*' --axis copy=1 --json "$work/pass.json"
{ cat "$work/pass.json"; printf '\0garbage'; } >"$work/nul.json"
for command in "report $work/nul.json --summary $work/nul.md" "result $work/nul.json stub/behave=pass/copy=1"; do
  # shellcheck disable=SC2086
  exit_is 2 "$stub" $command
  one_line_saying "a NUL byte, which JSON text never holds"
done
python3 - "$work/pass.json" "$work/twice.json" <<'PY'
import sys
text = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(text.replace('"format": "hostcb-results",', '"format": "hostcb-results", "format": "hostcb-results",', 1))
PY
exit_is 2 "$stub" result "$work/twice.json" stub/behave=pass/copy=1
one_line_saying 'not a hostcb results file (the key "format" is given twice'
echo "round four: results files with a NUL byte or a key twice are refused, said plainly"

# --- control bytes from outside hostcb reach no terminal as themselves: a layer's exception
# text (a reason) and an id with a newline, through result (which prints as run does).
python3 - "$work/pass.json" "$work/control.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
r["id"] = "stub/behave=pass/copy=1\nFAKE LINE"
r["status"] = "error"
r["reason"] = "RuntimeError: \u001b[2J\u001b]0;owned\u0007 cleared your screen \u009b31m\u0000"
json.dump(d, open(sys.argv[2], "w"))
PY
"$stub" result "$work/control.json" "$(printf 'stub/behave=pass/copy=1\nFAKE LINE')" >"$work/control.out" 2>&1
python3 - "$work/control.out" <<'PY' || fail "result printed control bytes: $(od -c "$work/control.out" | head -5)"
import sys
out = open(sys.argv[1], "rb").read()
bad = [b for b in (b"\x1b", b"\x07", b"\x00", b"\xc2\x9b") if b in out]
lines = out.decode("utf-8", "replace").splitlines()
sys.exit(1 if bad or any(l.startswith("FAKE LINE") for l in lines) or b"\\x1b[2J" not in out else 0)
PY
echo "round four: ESC, BEL, NUL, CSI and newlines from a file or a layer are printed as escapes"

# --- a job that failed --require-gpu is red in report --summary, not "nothing ran". No
# device visible (CUDA_VISIBLE_DEVICES empty), so that a GPU machine sees it too.
exit_is 1 env CUDA_VISIBLE_DEVICES= "$hostcb" run -q --require-gpu -f 'replay/*' --json "$work/gpu.json"
grep -q '"require_gpu": true' "$work/gpu.json" || fail "the JSON does not record --require-gpu"
exit_is 0 "$stub" report "$work/gpu.json" --summary "$work/gpu.md" --html "$work/gpu.html"
grep -q '^\*\*red\*\*: #1 --require-gpu, but no usable CUDA device' "$work/gpu.md" ||
  fail "report --summary of a red --require-gpu job: $(grep -m1 '\*\*' "$work/gpu.md")"
grep -q 'runs that needed a GPU and had none' "$work/gpu.html" || fail "the HTML page has no card for it"
exit_is 77 env CUDA_VISIBLE_DEVICES= "$hostcb" run -q -f 'replay/*' --json "$work/nogpu.json"  # without the flag: nothing ran
exit_is 0 "$stub" report "$work/nogpu.json" --summary "$work/nogpu.md"
grep -q '^\*\*nothing ran\*\*' "$work/nogpu.md" || fail "without --require-gpu: $(grep -m1 '\*\*' "$work/nogpu.md")"
echo "round four: report --summary says red for a job whose --require-gpu found no GPU"

# --- two runs given one report at once: the second is refused while the first runs.
"$stub" run -q -f 'stub/behave=hang/*' --timeout 60 --json "$work/busy.json" --junit "$work/busy.xml" >/dev/null 2>&1 &
first=$!
for _ in $(seq 500); do grep -q 'has not written its results' "$work/busy.json" 2>/dev/null && break; sleep 0.02; done
for report in "--json $work/busy.json" "--junit $work/busy.xml"; do
  # shellcheck disable=SC2086
  exit_is 2 "$stub" run -q -f 'stub/behave=pass/*' $report
  one_line_saying "(pid $first on $(hostname)) is writing it and has not finished; give this run reports of its own, or wait"
done
kill -INT $first
wait $first
exit_is 0 "$stub" run -q -f 'stub/behave=pass/*' --json "$work/busy.json"  # once it has finished
echo "round four: a report a running hostcb is writing is refused to a second run"
