#!/usr/bin/env bash
# The shell steps of the CI recipes in docs/ci.md (GitHub Actions and GitLab), one
# subcommand per step, so the recipe's logic is in the tree and a CPU test runs the recipe's
# steps as written (tests/e2e_ci_steps.sh, with hostcb_stub and a fake layer): the recipe
# cannot rot. The recipe runs this file from a checkout of hostcb pinned to the release or
# commit its wheel is built from (`hostcb/scripts/ci-steps.sh` beside the layer's own files).
set -uo pipefail
usage() {
  cat <<'USAGE'
Usage: scripts/ci-steps.sh wheel [OUT-DIR]
       scripts/ci-steps.sh install VENV WHEEL-DIR [PIP-INSTALL-ARGS...]
       scripts/ci-steps.sh pytest NAME [--require-gpu] [-- PYTEST-ARGS...]
       scripts/ci-steps.sh run NAME [--require-gpu] [-- HOSTCB-RUN-ARGS...]
       scripts/ci-steps.sh merge ARTIFACTS-DIR
       scripts/ci-steps.sh comment PR-NUMBER [OWNER/NAME]
       scripts/ci-steps.sh build [CMAKE-ARGS...]
       scripts/ci-steps.sh subcommands

wheel    the wheel job: builds hostcb's wheel once from this checkout into OUT-DIR (default dist)
         for the GPU architectures in $CUDAARCHS, which must be set: one per GPU the runners
         have ("80;90" for A100 and H200 runners; a build for sm_90 only cannot run on an
         A100). Runs scripts/setup.sh first, which installs the build's missing Debian
         packages with sudo apt-get (apt-get as root), and says so before it starts;
         HOSTCB_SKIP_SETUP=1 skips it on a machine that has them. scikit-build-core is
         installed with pip into a venv of its own.
install  python3 -m venv VENV, then pip install the one hostcb-*.whl in WHEEL-DIR and
         PIP-INSTALL-ARGS (pytest, the layer: "cuda-bindings==13.5.0", or . for the checkout)
pytest   one matrix job through the pytest plugin: VENV's python -m pytest --hostcb-only (the
         layers' items, no test file of the workspace) with JUnit and hostcb's JSON into
         $CI_OUT/NAME/ (--junitxml, --hostcb-json), the shipped expectations
         (--hostcb-expectations; see run) and PYTEST-ARGS (--hostcb-layer ..., required)
run      one matrix job through the hostcb command: hostcb run with its JUnit and JSON into
         $CI_OUT/NAME/, the shipped expectations (the installed wheel's
         share/hostcb/known-layer-bugs.jsonc, else this checkout's
         expectations/known-layer-bugs.jsonc; $HOSTCB_EXPECTATIONS for another file, empty
         for none) and HOSTCB-RUN-ARGS (--adapter, --axis ...)
         Both: the job's short summary (hostcb report --summary) into $CI_OUT/NAME/summary.md
         and $GITHUB_STEP_SUMMARY when set. A job in which nothing ran for want of a GPU is 0
         with a warning line and NAME/neutral written (CI systems read any other code as a
         failure), or with --require-gpu exit 1 with the reason: the job must have a GPU.
         Otherwise the exit is pytest's or hostcb's.
merge    the merge job: every hostcb.json under ARTIFACTS-DIR (the jobs' downloaded
         artifacts) into one matrix in $CI_OUT/matrix.{md,html,json} and a short summary,
         $CI_OUT/summary.md (for a pull-request comment), appended to $GITHUB_STEP_SUMMARY
         when that is set, naming the neutral jobs. Exit: hostcb report's, or 1 when a job went red
comment  posts $CI_OUT/summary.md on pull request PR-NUMBER of OWNER/NAME (default $GH_REPO,
         else $GITHUB_REPOSITORY) with the GitHub CLI, gh (GH_TOKEN in the environment):
         edits the comment an earlier run posted, found by the marker line merge writes at
         the top of summary.md (never another comment, whoever wrote it), or adds one. Needs no
         git repository: the merge job's workspace is none
build    configure and build into $HOSTCB_BUILD_DIR (default build) with scripts/build.sh, for
         a CI that runs hostcb from a build: scripts/setup.sh first, which installs the
         build's missing Debian packages with sudo apt-get (apt-get as root; it says so before
         it starts; HOSTCB_SKIP_SETUP=1 skips it), as for wheel
subcommands  the subcommands, one a line (the test checks docs/ci.md against them)

Environment: HOSTCB_CI_VENV (the venv install made, default venv), HOSTCB (the hostcb
binary: default VENV/bin/hostcb, else $HOSTCB_BUILD_DIR/hostcb, else hostcb on PATH), CI_OUT
(default ci-out).
USAGE
}

root="$(cd "$(dirname "$0")/.." && pwd)"
build_dir="${HOSTCB_BUILD_DIR:-build}"
venv="${HOSTCB_CI_VENV:-venv}"
out="${CI_OUT:-ci-out}"

# The shipped known layer bugs: $HOSTCB_EXPECTATIONS when set (empty: none), else the copy the
# installed wheel carries (share/hostcb/ in the package: the pinned release's own), else
# this checkout's (the same file, for a run from a build).
shipped_expectations() {
  if [ -n "${HOSTCB_EXPECTATIONS+set}" ]; then echo "$HOSTCB_EXPECTATIONS"; return; fi
  local prefix
  if [ -x "$venv/bin/python" ] && prefix="$("$venv/bin/python" -c 'import hostcb; print(hostcb.prefix())' 2>/dev/null)" &&
    [ -f "$prefix/share/hostcb/known-layer-bugs.jsonc" ]; then
    echo "$prefix/share/hostcb/known-layer-bugs.jsonc"
  else
    echo "$root/expectations/known-layer-bugs.jsonc"
  fi
}

# The hostcb command: the one asked for, the installed wheel's, a build's, or PATH's.
find_hostcb() {
  if [ -n "${HOSTCB:-}" ]; then echo "$HOSTCB"
  elif [ -x "$venv/bin/hostcb" ]; then echo "$venv/bin/hostcb"
  elif [ -x "$build_dir/hostcb" ]; then echo "$build_dir/hostcb"
  else echo hostcb
  fi
}

# Writes a line the CI system shows as a warning: GitHub reads ::warning::, GitLab the plain line.
warn() {
  if [ -n "${GITHUB_ACTIONS:-}" ]; then echo "::warning title=hostcb::$*"; else echo "warning: $*"; fi
}
fail_line() {
  if [ -n "${GITHUB_ACTIONS:-}" ]; then echo "::error title=hostcb::$*"; else echo "error: $*"; fi
}

# Says, before it happens, that scripts/setup.sh installs packages with (sudo) apt-get: a CI
# step must not change the runner's system silently.
announce_setup() {
  if [ "${HOSTCB_SKIP_SETUP:-0}" = 1 ]; then
    echo "ci-steps.sh $1: HOSTCB_SKIP_SETUP=1: scripts/setup.sh skipped, no apt-get (the build's packages must be there)"
  else
    local how="sudo apt-get"
    [ "$(id -u)" -eq 0 ] && how="apt-get (as root)"
    echo "ci-steps.sh $1: scripts/setup.sh first: the build's Debian packages that are missing are installed with" \
      "$how (HOSTCB_SKIP_SETUP=1 skips this)"
  fi
}

step_build() {
  announce_setup build
  HOSTCB_BUILD_DIR="$build_dir" HOSTCB_SKIP_SETUP="${HOSTCB_SKIP_SETUP:-0}" bash "$root/scripts/build.sh" "$@"
}

step_wheel() {
  local dist="${1:-dist}"
  if [ -z "${CUDAARCHS:-}" ]; then
    echo "ci-steps.sh wheel: set CUDAARCHS to the GPU architectures of your runners (\"80;90\" for A100 and H200)" >&2
    return 2
  fi
  announce_setup wheel
  [ "${HOSTCB_SKIP_SETUP:-0}" = 1 ] || bash "$root/scripts/setup.sh" || return 1
  command -v nvcc >/dev/null 2>&1 || export CUDACXX="${CUDACXX:-/usr/local/cuda/bin/nvcc}"
  local tools
  tools="$(mktemp -d)"
  python3 -m venv "$tools/venv" && "$tools/venv/bin/python" -m pip install --quiet scikit-build-core || return 1
  mkdir -p "$dist"
  PATH="$tools/venv/bin:$PATH" bash "$root/scripts/wheel.sh" --out "$(cd "$dist" && pwd)"
  local rc=$?
  rm -rf "$tools"
  return "$rc"
}

step_install() {
  local target="${1:?install needs the venv to make}" wheels="${2:?install needs the folder holding the wheel}"
  shift 2
  local found=("$wheels"/hostcb-*.whl)
  if [ ${#found[@]} != 1 ] || [ ! -f "${found[0]}" ]; then
    echo "ci-steps.sh install: $wheels holds ${#found[@]} hostcb-*.whl; it must hold one (the wheel job's)" >&2
    return 2
  fi
  python3 -m venv "$target" && "$target/bin/python" -m pip install --quiet "${found[0]}" "$@" || return 1
  echo "ci-steps.sh: $("$target/bin/hostcb" --version) in $target"
}

# NAME [--require-gpu] [--] ARGS: sets job_name, require_gpu and job_args.
parse_job() {
  job_name="${1:-}"
  require_gpu=0
  job_args=()
  [ $# -gt 0 ] && shift
  case "$job_name" in */* | .* | "" | -*) echo "ci-steps.sh: NAME '$job_name' must be a plain file name" >&2; return 2 ;; esac
  while [ $# -gt 0 ]; do
    case "$1" in
      --require-gpu) require_gpu=1; shift ;;
      --) shift; job_args=("$@"); break ;;
      *) echo "ci-steps.sh: unknown argument $1 before -- (give the runner's own arguments after --)" >&2; return 2 ;;
    esac
  done
}

# What the results JSON says about the GPU: the reason a scenario was skipped for want of
# one (its skip reason is the environment's gpu_unusable_reason), or nothing.
missing_gpu_reason() {
  python3 - "$1" <<'PY'
import json, sys
try:
    doc = json.load(open(sys.argv[1], encoding="utf-8"))
except (OSError, ValueError):
    sys.exit(0)
env = doc.get("environment") or {}
why = env.get("gpu_unusable_reason", "")
if not env.get("gpu_usable", True) and why:
    if any(r.get("status") == "skipped" and r.get("reason") == why for r in doc.get("results", [])):
        print(why)
PY
}

# One annotation a failing scenario (failed, error, xpass) of a results file, its id and the
# first line of what ended it, for the CI to show on the run (GitHub: ::error, GitLab: a line);
# at most 50, then how many more.
failure_annotations() {
  python3 - "$1" "$2" "${GITHUB_ACTIONS:-}" <<'PY'
import json, sys
path, job, github = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    doc = json.load(open(path, encoding="utf-8"))
except (OSError, ValueError):
    sys.exit(0)
bad = [r for r in doc.get("results", []) if r.get("status") in ("failed", "error", "xpass")]
def said(r):
    failures = r.get("failures") or []
    text = r.get("reason") if r.get("status") == "error" or not failures else failures[0].get("message", "")
    return (text or r.get("status", "")).splitlines()[0] if (text or "").strip() else r.get("status", "")
def clean(text):  # one line; GitHub's annotation escapes
    text = "".join(c if c.isprintable() else " " for c in text)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A") if github else text
for r in bad[:50]:
    line = "%s %s: %s" % (r.get("status", "").upper(), r.get("id", "?"), said(r))
    print(("::error title=hostcb %s::%s" if github else "error: %s: %s") % (clean(job), clean(line)))
if len(bad) > 50:
    print(("::error title=hostcb %s::and %d more failing scenario(s): the job's hostcb.xml has them"
           if github else "error: %s: and %d more failing scenario(s)") % (clean(job), len(bad) - 50))
PY
}

# The end of a matrix job, either route: summary, exit code, neutral or required GPU.
finish_job() {
  local dir="$1" rc="$2" hostcb
  hostcb="$(find_hostcb)"
  # This job's own short summary, for its step summary (the merge job has the whole matrix).
  if [ -s "$dir/hostcb.json" ] && "$hostcb" report "$dir/hostcb.json" --summary "$dir/summary.md" >/dev/null &&
    [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    cat "$dir/summary.md" >>"$GITHUB_STEP_SUMMARY"
  fi
  [ -s "$dir/hostcb.json" ] && failure_annotations "$dir/hostcb.json" "$job_name"
  local no_gpu=""
  [ -s "$dir/hostcb.json" ] && no_gpu="$(missing_gpu_reason "$dir/hostcb.json")"
  if [ -n "$no_gpu" ] && [ "$require_gpu" = 1 ]; then
    fail_line "$job_name: no usable GPU on this runner, and the job requires one (--require-gpu): $no_gpu"
    [ "$rc" = 0 ] || [ "$rc" = 77 ] && rc=1
  elif [ -n "$no_gpu" ] && { [ "$rc" = 0 ] || [ "$rc" = 77 ]; }; then
    warn "$job_name: nothing ran for want of a GPU here ($no_gpu); neutral, not a failure"
    : >"$dir/neutral"
    rc=0
  elif [ "$rc" = 77 ]; then
    warn "$job_name: nothing ran here ($(grep -m1 '^exit 77:' "$dir/hostcb.log" | cut -c10-)); neutral, not a failure"
    : >"$dir/neutral"
    rc=0
  fi
  echo "$rc" >"$dir/exit-code"
  return "$rc"
}

step_run() {
  parse_job "$@" || return 2
  local dir="$out/$job_name" expectations=() extra=() known
  known="$(shipped_expectations)"
  [ -n "$known" ] && expectations=(--expectations "$known")
  [ "$require_gpu" = 1 ] && extra=(--require-gpu)
  mkdir -p "$dir"
  rm -f "$dir/neutral" "$dir/hostcb.json"
  "$(find_hostcb)" run --junit "$dir/hostcb.xml" --json "$dir/hostcb.json" "${expectations[@]}" "${extra[@]}" \
    "${job_args[@]}" 2>&1 | tee "$dir/hostcb.log"
  finish_job "$dir" "${PIPESTATUS[0]}"
}

step_pytest() {
  parse_job "$@" || return 2
  local dir="$out/$job_name" expectations=() python="$venv/bin/python" known
  [ -x "$python" ] || python=python3
  known="$(shipped_expectations)"
  [ -n "$known" ] && expectations=("--hostcb-expectations=$known")
  mkdir -p "$dir"
  rm -f "$dir/neutral" "$dir/hostcb.json"
  # --hostcb-only: the job runs in the layer's repository, beside its own suite and this
  # checkout; pytest collects neither (a module of either may not even import here). The
  # plugin's paths with '=': pytest would take a value given apart for a test path when it
  # picks its rootdir, before the plugin is loaded, and print node ids from there.
  "$python" -m pytest -rs --hostcb-only --junitxml "$dir/hostcb.xml" "--hostcb-json=$dir/hostcb.json" \
    "${expectations[@]}" "${job_args[@]}" 2>&1 | tee "$dir/hostcb.log"
  finish_job "$dir" "${PIPESTATUS[0]}"
}

step_merge() {
  local artifacts="${1:?merge needs the folder the artifacts were downloaded into}"
  local inputs=() red=0 f neutral=""
  while IFS= read -r f; do inputs+=("$f"); done < <(find "$artifacts" -name hostcb.json -type f | sort)
  if [ ${#inputs[@]} -eq 0 ]; then echo "ci-steps.sh: no hostcb.json under $artifacts" >&2; return 2; fi
  # A job that went red stays red in the merge, whatever the matrix shows.
  for f in "${inputs[@]}"; do
    local code
    code="$(cat "$(dirname "$f")/exit-code" 2>/dev/null || echo 0)"
    case "$code" in 0 | 77) ;; *) red=1; warn "$(basename "$(dirname "$f")"): its run exited $code" ;; esac
    [ -f "$(dirname "$f")/neutral" ] && neutral+="${neutral:+, }$(basename "$(dirname "$f")")"
  done
  mkdir -p "$out"
  "$(find_hostcb)" report "${inputs[@]}" --markdown "$out/matrix.md" --html "$out/matrix.html" --json "$out/matrix.json" \
    --summary "$out/summary.md"
  local rc=$?
  # The jobs where nothing ran (no GPU there, say): neutral, which the matrix alone cannot tell
  # from a job that chose to run nothing.
  if [ -n "$neutral" ] && [ -f "$out/summary.md" ]; then
    printf '\nNeutral (nothing ran there, not a failure): %s\n' "$neutral" >>"$out/summary.md"
  fi
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$out/summary.md" ]; then cat "$out/summary.md" >>"$GITHUB_STEP_SUMMARY"; fi
  # The marker the comment step finds its own comment by: an HTML comment, invisible on the page.
  if [ -f "$out/summary.md" ]; then
    { echo "$comment_marker"; cat "$out/summary.md"; } >"$out/summary.md.new" && mv "$out/summary.md.new" "$out/summary.md"
  fi
  [ "$rc" = 0 ] || return "$rc"
  return "$red"
}

comment_marker='<!-- hostcb summary (scripts/ci-steps.sh comment edits the comment that starts so) -->'

step_comment() {
  local pr="${1:-}" repo="${2:-${GH_REPO:-${GITHUB_REPOSITORY:-}}}" body="$out/summary.md" ids id
  [[ "$pr" =~ ^[0-9]+$ ]] || { echo "ci-steps.sh: comment needs the pull request's number, not '$pr'" >&2; return 2; }
  [[ "$repo" =~ ^[^/[:space:]]+/[^/[:space:]]+$ ]] ||
    { echo "ci-steps.sh: comment needs the repository as OWNER/NAME (or GH_REPO), not '$repo'" >&2; return 2; }
  [ -f "$body" ] || { echo "ci-steps.sh: comment: no $body (the merge step writes it)" >&2; return 2; }
  [ "$(head -n 1 "$body")" = "$comment_marker" ] ||
    { echo "ci-steps.sh: comment: $body does not start with the marker merge writes" >&2; return 2; }
  # The comments already on the pull request that start with the marker: ours. The last wins.
  ids="$(gh api --paginate "repos/$repo/issues/$pr/comments" \
    --jq ".[] | select(.body | startswith(\"$comment_marker\")) | .id")" || return 1
  id="$(printf '%s\n' "$ids" | grep -E '^[0-9]+$' | tail -n 1)"
  if [ -n "$id" ]; then
    gh api --method PATCH "repos/$repo/issues/comments/$id" -F "body=@$body" >/dev/null &&
      echo "ci-steps.sh: edited comment $id on $repo#$pr"
  else
    gh pr comment "$pr" --repo "$repo" --body-file "$body"
  fi
}

command="${1:-}"
[ $# -gt 0 ] && shift
case "$command" in
  wheel) step_wheel "$@" ;;
  install) step_install "$@" ;;
  pytest) step_pytest "$@" ;;
  run) step_run "$@" ;;
  merge) step_merge "$@" ;;
  comment) step_comment "$@" ;;
  build) step_build "$@" ;;
  subcommands) printf '%s\n' wheel install pytest run merge comment build subcommands ;;
  -h | --help) usage ;;
  *) usage >&2; exit 2 ;;
esac
