#!/usr/bin/env bash
# The CI recipe's steps (scripts/ci-steps.sh, docs/ci.md) on a CPU: two matrix jobs through a
# fake layer and one runner where nothing runs (exit 77: neutral, not red), then the merge job
# over their artifacts; --require-gpu on a runner without a GPU (red, with the reason); every
# `ci-steps.sh SUBCOMMAND` docs/ci.md calls exists; then docs/ci.md's recipes themselves, run
# as written (tests/ci_recipe.py).
# Usage: e2e_ci_steps.sh SOURCE_DIR HOSTCB_STUB FAKE_ADAPTER WORK_DIR HOSTCB
set -u
src=$1 stub=$2 fake=$3 work=$4 hostcb=$5
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
# A red job (a stub failure) exits 1, with an annotation a failing scenario (issue 43, item 4):
# its id and what ended it, on the run's page rather than only in its artifacts.
bash "$steps" run red -- --filter 'stub/behave=fail/*:stub/behave=crash/*' --axis copy=1 >"$work/red.out" 2>&1 &&
  fail "a failing run exited 0"
grep -q '^::error title=hostcb red::FAILED stub/behave=fail/copy=1: .*the stub failed on purpose' "$work/red.out" ||
  fail "no annotation for the failed scenario: $(grep '::error' "$work/red.out")"
grep -q '^::error title=hostcb red::ERROR stub/behave=crash/copy=1: the worker ' "$work/red.out" ||
  fail "no annotation for the crashed scenario: $(grep '::error' "$work/red.out")"
[ "$(grep -c '^::error title=hostcb red::' "$work/red.out")" = 2 ] || fail "not one annotation a failing scenario"

# The merge job, over the downloaded artifacts: the matrix and the summary, red for the red job.
mkdir -p artifacts && cp -r jobs/runner1 jobs/runner2 jobs/nogpu artifacts/
CI_OUT="$work/merged" bash "$steps" merge artifacts >"$work/merge.out" 2>&1 || fail "merge exited $?: $(tail -n 3 "$work/merge.out")"
for f in matrix.md matrix.html matrix.json summary.md; do [ -s "merged/$f" ] || fail "merge wrote no $f"; done
grep -q "3 environments" merged/summary.md || fail "the merged summary does not count 3 environments: $(head -n 5 merged/summary.md)"
grep -q "^Neutral (nothing ran there, not a failure): nogpu$" merged/summary.md ||
  fail "the merged summary does not mark the neutral job: $(tail -n 3 merged/summary.md)"
cp -r jobs/red artifacts/
CI_OUT="$work/merged2" bash "$steps" merge artifacts >"$work/merge2.out" 2>&1 && fail "a merge over a red job exited 0"

# --require-gpu (issue 36 item 2): where no GPU is usable (none visible, on any machine) the
# job that requires one is red with the reason, not neutral; without it, neutral.
export CUDA_VISIBLE_DEVICES=""
HOSTCB="$hostcb" bash "$steps" run gone --require-gpu -- --adapter "$fake" --filter 'replay/*forward=fake*' \
  --axis replays=1 >"$work/gone.out" 2>&1 && fail "run --require-gpu without a GPU exited 0: $(tail -n 3 "$work/gone.out")"
[ "$(cat jobs/gone/exit-code)" = 1 ] || fail "run --require-gpu without a GPU recorded exit $(cat jobs/gone/exit-code), not 1"
[ -f jobs/gone/neutral ] && fail "run --require-gpu without a GPU was marked neutral"
grep -q '^exit 1: --require-gpu: no usable CUDA device' "$work/gone.out" || fail "hostcb's verdict does not say why: $(tail -n 3 "$work/gone.out")"
grep -q '^::error title=hostcb::gone: no usable GPU on this runner, and the job requires one (--require-gpu): no usable CUDA device' \
  "$work/gone.out" || fail "no error line naming --require-gpu: $(tail -n 3 "$work/gone.out")"
HOSTCB="$hostcb" bash "$steps" run spare -- --adapter "$fake" --filter 'replay/*forward=fake*' --axis replays=1 \
  >"$work/spare.out" 2>&1 || fail "without --require-gpu a run without a GPU exited $?, not 0 (neutral)"
[ -f jobs/spare/neutral ] || fail "without --require-gpu a run without a GPU was not marked neutral"
unset CUDA_VISIBLE_DEVICES
# The stub's families need no GPU: --require-gpu does not fail them.
bash "$steps" run cpu --require-gpu -- --adapter "$fake" --filter 'stub_forward/forward=fake/*' >"$work/cpu.out" 2>&1 ||
  fail "run --require-gpu of scenarios that need no GPU exited $?: $(tail -n 3 "$work/cpu.out")"
# `ci-steps.sh build` as a user who is not root, on a runner missing the build's packages: it
# says, before anything happens, that it runs sudo apt-get, and setup.sh does (stand-ins
# record it: nothing is installed, cmake builds nothing); HOSTCB_SKIP_SETUP=1 runs no apt-get.
mkdir -p "$work/standin"
for tool in sudo apt-get cmake; do
  printf '#!/bin/sh\necho "%s $*" >>"%s"\n' "$tool" "$work/standin.log" >"$work/standin/$tool"
done
echo 'exec "$@"' >>"$work/standin/sudo"
printf '#!/bin/sh\n[ "$1" = -u ] && echo 1000 || exec /usr/bin/id "$@"\n' >"$work/standin/id"
printf '#!/bin/sh\nexit 1\n' >"$work/standin/dpkg-query"  # nothing installed
printf '#!/bin/sh\n' >"$work/standin/nvcc"
chmod +x "$work/standin"/*
# (HOSTCB_SKIP_SETUP unset: a developer who set it for their own build would make this red)
env -u HOSTCB_SKIP_SETUP PATH="$work/standin:$PATH" HOSTCB_BUILD_DIR="$work/standin-build" bash "$steps" build \
  >"$work/build.out" 2>&1 ||
  fail "ci-steps.sh build with stand-ins exited $?: $(tail -n 3 "$work/build.out")"
grep -q "^ci-steps.sh build: scripts/setup.sh first: .* installed with sudo apt-get" "$work/build.out" ||
  fail "ci-steps.sh build does not say that it runs sudo apt-get: $(head -n 3 "$work/build.out")"
grep -q "^hostcb setup: installing cmake .* with sudo apt-get" "$work/build.out" ||
  fail "setup.sh does not say what it installs with sudo apt-get: $(head -n 3 "$work/build.out")"
grep -q '^sudo apt-get install' "$work/standin.log" || fail "setup.sh ran no sudo apt-get install: $(cat "$work/standin.log")"
: >"$work/standin.log"
PATH="$work/standin:$PATH" HOSTCB_SKIP_SETUP=1 HOSTCB_BUILD_DIR="$work/standin-build" bash "$steps" build \
  >"$work/build-skip.out" 2>&1 || fail "ci-steps.sh build with HOSTCB_SKIP_SETUP=1 exited $?"
grep -q 'apt-get' "$work/standin.log" && fail "HOSTCB_SKIP_SETUP=1, and still: $(grep apt-get "$work/standin.log")"
grep -q '^ci-steps.sh build: HOSTCB_SKIP_SETUP=1: scripts/setup.sh skipped, no apt-get' "$work/build-skip.out" ||
  fail "ci-steps.sh build does not say that it skipped setup.sh: $(head -n 3 "$work/build-skip.out")"
grep -q '^cmake --build' "$work/standin.log" || fail "ci-steps.sh build did not build: $(cat "$work/standin.log")"

# comment: bad input (no number, no OWNER/NAME, no summary.md yet) is one line and exit 2,
# before gh is called.
: >"$work/standin.log"
for bad in "abc org/layer" "36 notarepo" "36" "36 org/layer"; do
  # shellcheck disable=SC2086
  (cd "$work" && PATH="$src/tests/ci:$PATH" STANDIN_LOG="$work/standin.log" GH_TOKEN=t GH_REPO= GITHUB_REPOSITORY= \
    CI_OUT="$work/no-such-out" bash "$steps" comment $bad >"$work/comment.out" 2>&1)
  rc=$?
  [ "$rc" = 2 ] && [ "$(grep -c . "$work/comment.out")" = 1 ] ||
    fail "ci-steps.sh comment $bad: exit $rc, not 2 with one line: $(cat "$work/comment.out")"
done
[ -s "$work/standin.log" ] && fail "ci-steps.sh comment called gh on bad input: $(cat "$work/standin.log")"

echo "ok: build (saying it runs sudo apt-get), run (neutral on 77, red on a failure, red without a GPU when required), merge and comment's refusals work as docs/ci.md uses them"

# The recipes on the page, as written.
python3 "$src/tests/ci_recipe.py" "$src" "$stub" "$hostcb" "$fake" "$work/recipe" || fail "docs/ci.md's recipes, run as written"
