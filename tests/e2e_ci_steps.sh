#!/usr/bin/env bash
# The CI recipe's steps (scripts/ci-steps.sh, docs/ci.md) on a CPU: two matrix jobs through a
# fake layer and one runner where nothing runs (exit 77: neutral, not red), then the merge job
# over their artifacts; and every `ci-steps.sh SUBCOMMAND` docs/ci.md calls exists.
# Usage: e2e_ci_steps.sh SOURCE_DIR HOSTCB_STUB FAKE_ADAPTER WORK_DIR
set -u
src=$1 stub=$2 fake=$3 work=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
steps="$src/scripts/ci-steps.sh"
rm -rf "$work" && mkdir -p "$work"
cd "$work" || exit 1

# Every subcommand the recipe calls is one the script has.
known="$(bash "$steps" subcommands)"
used="$(grep -o 'ci-steps\.sh [a-z]*' "$src/docs/ci.md" | awk '{print $2}' | sort -u)"
[ -n "$used" ] || fail "docs/ci.md calls no ci-steps.sh subcommand"
for sub in $used; do
  grep -qx "$sub" <<<"$known" || fail "docs/ci.md calls 'ci-steps.sh $sub', which the script does not have"
done

export HOSTCB="$stub" CI_OUT="$work/jobs" HOSTCB_EXPECTATIONS=""
export GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY="$work/step-summary.md"
# Two layer jobs, as two runners would run them; the second with the shipped expectations
# (the default), which load beside any layer.
for job in runner1 runner2; do
  unset_known=()
  [ "$job" = runner2 ] && unset_known=(-u HOSTCB_EXPECTATIONS)
  env "${unset_known[@]}" bash "$steps" run "$job" -- --adapter "$fake" --filter 'stub_forward/forward=fake/*' \
    >"$work/$job.out" 2>&1 ||
    fail "run $job exited $?: $(tail -n 3 "$work/$job.out")"
  for f in hostcb.json hostcb.xml summary.md exit-code; do [ -s "jobs/$job/$f" ] || fail "run $job wrote no $f"; done
done
grep -q "1 environment" "$GITHUB_STEP_SUMMARY" || fail "the jobs' summaries are not in the step summary"
# A runner where nothing runs: exit 77 becomes 0, with a warning and the neutral mark.
bash "$steps" run nogpu -- --filter 'stub_forward/forward=direct/*' >"$work/nogpu.out" 2>&1 ||
  fail "a run where nothing ran exited $?, not 0 (neutral)"
[ -f jobs/nogpu/neutral ] || fail "no neutral mark for the run that ran nothing"
grep -q '^::warning title=hostcb::nogpu: nothing ran here' "$work/nogpu.out" || fail "no warning line: $(cat "$work/nogpu.out")"
# A red job (a stub failure) exits 1.
bash "$steps" run red -- --filter 'stub/behave=fail/*' >"$work/red.out" 2>&1 && fail "a failing run exited 0"

# The merge job, over the downloaded artifacts: the matrix and the summary, red for the red job.
mkdir -p artifacts && cp -r jobs/runner1 jobs/runner2 jobs/nogpu artifacts/
CI_OUT="$work/merged" bash "$steps" merge artifacts >"$work/merge.out" 2>&1 || fail "merge exited $?: $(tail -n 3 "$work/merge.out")"
for f in matrix.md matrix.html matrix.json summary.md; do [ -s "merged/$f" ] || fail "merge wrote no $f"; done
grep -q "3 environments" merged/summary.md || fail "the merged summary does not count 3 environments: $(head -n 5 merged/summary.md)"
cp -r jobs/red artifacts/
CI_OUT="$work/merged2" bash "$steps" merge artifacts >"$work/merge2.out" 2>&1 && fail "a merge over a red job exited 0"
echo "ok: build, run (neutral on 77, red on a failure) and merge steps work as docs/ci.md uses them"
