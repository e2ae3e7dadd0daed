#!/usr/bin/env bash
# The shell steps of the CI recipes in docs/ci.md (GitHub Actions and GitLab), one
# subcommand per step, so the recipe's logic is in the tree and a CPU test runs it
# (tests/e2e_ci_steps.sh, with hostcb_stub and a fake layer): the recipe cannot rot.
set -uo pipefail
usage() {
  cat <<'USAGE'
Usage: scripts/ci-steps.sh build [CMAKE-ARGS...]
       scripts/ci-steps.sh run NAME [-- HOSTCB-RUN-ARGS...]
       scripts/ci-steps.sh merge ARTIFACTS-DIR
       scripts/ci-steps.sh subcommands

build    configure and build once into $HOSTCB_BUILD_DIR (default build), for the build job's
         cache or artifact; CMAKE-ARGS go to configure (e.g. -DCMAKE_CUDA_ARCHITECTURES=90)
run      one matrix job: $HOSTCB run with its JUnit and JSON into $CI_OUT/NAME/, the shipped
         expectations (expectations/known-layer-bugs.jsonc, or $HOSTCB_EXPECTATIONS; set it
         empty for none: --no-expectations) and HOSTCB-RUN-ARGS (an --adapter, --axis ...). Exit: hostcb's, but
         77 (nothing ran: no GPU on this runner) is 0 with a warning line and NAME/neutral
         written, since CI systems read any other code as a failure
merge    the merge job: every results JSON under ARTIFACTS-DIR (the jobs' downloaded
         artifacts) into one matrix in $CI_OUT/matrix.{md,html,json} and a short summary,
         $CI_OUT/summary.md, appended to $GITHUB_STEP_SUMMARY when that is set. Exit:
         hostcb report's, or 1 when a job's run went red (failed, error or xpass)
subcommands  the subcommands, one a line (the test checks docs/ci.md against them)

Environment: HOSTCB (the binary, default $HOSTCB_BUILD_DIR/hostcb), CI_OUT (default ci-out).
USAGE
}

root="$(cd "$(dirname "$0")/.." && pwd)"
build_dir="${HOSTCB_BUILD_DIR:-build}"
hostcb="${HOSTCB:-$build_dir/hostcb}"
out="${CI_OUT:-ci-out}"

# Writes a line the CI system shows as a warning: GitHub reads ::warning::, GitLab the plain line.
warn() {
  if [ -n "${GITHUB_ACTIONS:-}" ]; then echo "::warning title=hostcb::$*"; else echo "warning: $*"; fi
}

step_build() {
  HOSTCB_BUILD_DIR="$build_dir" HOSTCB_SKIP_SETUP="${HOSTCB_SKIP_SETUP:-0}" bash "$root/scripts/build.sh" "$@"
}

step_run() {
  local name="${1:?run needs a NAME: the job, e.g. its runner and layer version}"
  shift
  [ "${1:-}" = "--" ] && shift
  case "$name" in */* | .* | "") echo "ci-steps.sh: NAME '$name' must be a plain file name" >&2; return 2 ;; esac
  local dir="$out/$name" expectations=(--no-expectations)
  local known="${HOSTCB_EXPECTATIONS-$root/expectations/known-layer-bugs.jsonc}"
  [ -n "$known" ] && expectations=(--expectations "$known")
  mkdir -p "$dir"
  rm -f "$dir/neutral"
  "$hostcb" run --junit "$dir/hostcb.xml" --json "$dir/hostcb.json" "${expectations[@]}" "$@" 2>&1 | tee "$dir/hostcb.log"
  local rc=${PIPESTATUS[0]}
  echo "$rc" >"$dir/exit-code"
  # This job's own short summary, for its step summary (the merge job has the whole matrix).
  if [ -s "$dir/hostcb.json" ] && "$hostcb" report "$dir/hostcb.json" --summary "$dir/summary.md" >/dev/null &&
    [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    cat "$dir/summary.md" >>"$GITHUB_STEP_SUMMARY"
  fi
  if [ "$rc" = 77 ]; then
    warn "$name: nothing ran here ($(grep -m1 '^exit 77:' "$dir/hostcb.log" | cut -c10-)); neutral, not a failure"
    : >"$dir/neutral"
    return 0
  fi
  return "$rc"
}

step_merge() {
  local artifacts="${1:?merge needs the folder the artifacts were downloaded into}"
  local inputs=() red=0 f
  while IFS= read -r f; do inputs+=("$f"); done < <(find "$artifacts" -name hostcb.json -type f | sort)
  if [ ${#inputs[@]} -eq 0 ]; then echo "ci-steps.sh: no hostcb.json under $artifacts" >&2; return 2; fi
  # A job that went red stays red in the merge, whatever the matrix shows.
  for f in "${inputs[@]}"; do
    local code
    code="$(cat "$(dirname "$f")/exit-code" 2>/dev/null || echo 0)"
    case "$code" in 0 | 77) ;; *) red=1; warn "$(basename "$(dirname "$f")"): its run exited $code" ;; esac
  done
  mkdir -p "$out"
  "$hostcb" report "${inputs[@]}" --markdown "$out/matrix.md" --html "$out/matrix.html" --json "$out/matrix.json" \
    --summary "$out/summary.md"
  local rc=$?
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$out/summary.md" ]; then cat "$out/summary.md" >>"$GITHUB_STEP_SUMMARY"; fi
  [ "$rc" = 0 ] || return "$rc"
  return "$red"
}

command="${1:-}"
[ $# -gt 0 ] && shift
case "$command" in
  build) step_build "$@" ;;
  run) step_run "$@" ;;
  merge) step_merge "$@" ;;
  subcommands) printf '%s\n' build run merge subcommands ;;
  -h | --help) usage ;;
  *) usage >&2; exit 2 ;;
esac
