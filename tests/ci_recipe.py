#!/usr/bin/env python3
"""The CI recipes of docs/ci.md, run as written on a CPU (issue 36 item 3).

Reads the page's two YAML blocks (GitHub Actions, then GitLab CI), checks what a pasted recipe
must hold (hostcb pinned and checked out beside the layer, GPU architectures for every runner
of the matrix, artifacts of the wheel and the results only, a merge job that needs only
those, a pull-request comment from `report --summary`), and runs every job's steps in order:
each `run:` / `script:` line as written, through bash, in a workspace of its own; hostcb
checked out with git from a local repository holding this tree at the pinned ref, as the
recipe checks it out; artifacts carried between jobs as the CI system would. What would reach
the network or build for minutes (venv and pip, the wheel's build, pytest with the plugin,
the GitHub CLI, and apt-get and sudo under scripts/setup.sh) is a stand-in on PATH (tests/ci/)
that records what it was asked; hostcb itself is hostcb_stub through a fake layer (a runner with a GPU: its
scenarios run) or the real hostcb (a runner whose GPU went away).

Usage: ci_recipe.py SOURCE_DIR HOSTCB_STUB HOSTCB FAKE_ADAPTER WORK_DIR
"""
import fnmatch
import os
import re
import shutil
import subprocess
import sys

src, stub, real_hostcb, fake, work = sys.argv[1:6]
src = os.path.abspath(src)
work = os.path.abspath(work)
problems = []


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def stop_if_problems():
    """Prints what was found so far and exits 1, when anything was (the checks after a failed
    job would only read files it never wrote)."""
    for p in problems:
        print("FAIL: " + p, file=sys.stderr)
    if problems:
        sys.exit(1)


# ---- A small YAML reader: block mappings and sequences, flow [..] and {..}, quoted and plain
# scalars, > and | blocks, comments. The recipes must stay within it (no anchors, no tags).
def strip_comment(line):
    out, quote = [], None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "\"'":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            break
        out.append(c)
    return "".join(out).rstrip()


def scalar(text):
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def flow(text):
    text = text.strip()
    if not text or text[0] not in "[{":
        return scalar(text)
    items, depth, quote, cur = [], 0, None, ""
    for c in text[1:-1]:
        if quote:
            quote = None if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
        elif c == "," and depth == 0:
            items.append(cur)
            cur = ""
            continue
        cur += c
    if cur.strip():
        items.append(cur)
    if text[0] == "[":
        return [flow(i) for i in items]
    result = {}
    for item in items:
        key, _, value = item.partition(":")
        result[scalar(key)] = flow(value)
    return result


def split_key(text):
    """'key: value' -> (key, value), or None when the line is no mapping entry."""
    m = re.match(r"""^("[^"]*"|'[^']*'|[^\s"'{\[][^:]*?):(?:\s+(.*)|$)""", text)
    if not m:
        return None
    return scalar(m.group(1)), (m.group(2) or "")


def parse_yaml(text):
    lines = []
    for raw in text.split("\n"):
        indent = len(raw) - len(raw.lstrip(" "))
        lines.append((indent, raw))
    pos = 0

    def block_scalar(style, parent_indent):
        nonlocal pos
        body = []
        while pos < len(lines):
            indent, raw = lines[pos]
            if raw.strip() and indent <= parent_indent:
                break
            body.append(raw.strip())
            pos += 1
        while body and not body[-1]:
            body.pop()
        return (" " if style.startswith(">") else "\n").join(body) + ("\n" if style.startswith("|") else "")

    def value_of(rest, indent):
        nonlocal pos
        if rest in (">", "|", ">-", "|-"):
            return block_scalar(rest, indent)
        if rest == "":
            return node(indent + 1)
        return flow(rest)

    def next_content():
        nonlocal pos
        while pos < len(lines) and not strip_comment(lines[pos][1]).strip():
            pos += 1

    def node(min_indent):
        nonlocal pos
        next_content()
        if pos >= len(lines) or lines[pos][0] < min_indent:
            return None
        indent = lines[pos][0]
        if strip_comment(lines[pos][1]).strip().startswith("- "):
            seq = []
            while True:
                next_content()
                if pos >= len(lines) or lines[pos][0] != indent:
                    break
                text = strip_comment(lines[pos][1]).strip()
                if not text.startswith("- "):
                    break
                item = text[2:]
                pos += 1
                kv = split_key(item)
                if kv and not item.startswith(("{", "[", '"', "'")):
                    mapping = {kv[0]: value_of(kv[1], indent + 2)}
                    more = node(indent + 1)
                    if isinstance(more, dict):
                        mapping.update(more)
                    seq.append(mapping)
                else:
                    seq.append(flow(item))
            return seq
        mapping = {}
        while True:
            next_content()
            if pos >= len(lines) or lines[pos][0] != indent:
                break
            text = strip_comment(lines[pos][1]).strip()
            kv = split_key(text)
            if kv is None:
                fail("docs/ci.md: a YAML line this test cannot read: %r" % text)
            pos += 1
            mapping[kv[0]] = value_of(kv[1], indent)
        return mapping

    return node(0)


page = open(os.path.join(src, "docs/ci.md"), encoding="utf-8").read()
blocks = re.findall(r"^```yaml\n(.*?)^```$", page, re.S | re.M)
if len(blocks) != 2:
    fail("docs/ci.md has %d YAML blocks; the test reads two (GitHub Actions, then GitLab CI)" % len(blocks))
github, gitlab = parse_yaml(blocks[0]), parse_yaml(blocks[1])

# ---- hostcb, as a repository at the pinned ref: this tree's files (tracked and new) committed
# and tagged, or the ref being a commit of it.
pin = github["env"]["HOSTCB_REF"]
if pin != gitlab["variables"]["HOSTCB_REF"]:
    fail("the GitHub and GitLab recipes pin different hostcb refs: %s, %s" % (pin, gitlab["variables"]["HOSTCB_REF"]))
# The pin must exist: a commit of hostcb (this repository's history), at which the files the
# recipe runs (ci-steps.sh, the Python package and its pytest plugin) are what they are here,
# so the recipe as written works at the commit it names. A copy that is no git checkout, or a
# shallow clone without the commit, cannot tell: said, not failed.
RECIPE_FILES = ["scripts/ci-steps.sh", "python/hostcb"]
if not re.fullmatch(r"[0-9a-f]{40}", pin):
    fail("the recipes pin %r: pin a commit (40 hex digits), which exists; no release tag does yet" % pin)
is_git = subprocess.run(["git", "-C", src, "rev-parse", "--git-dir"], capture_output=True).returncode == 0
if not is_git:
    print("ci_recipe: %s is no git checkout: the pin %s not checked against its history" % (src, pin))
elif subprocess.run(["git", "-C", src, "cat-file", "-e", pin + "^{commit}"], capture_output=True).returncode != 0:
    shallow = subprocess.run(["git", "-C", src, "rev-parse", "--is-shallow-repository"], capture_output=True,
                             text=True).stdout.strip() == "true"
    if not shallow:
        fail("the recipes pin %s, which is no commit of this repository" % pin)
    print("ci_recipe: a shallow clone without %s: the pin not checked against its history" % pin)
else:
    changed = subprocess.run(["git", "-C", src, "diff", "--name-only", pin, "--"] + RECIPE_FILES, capture_output=True,
                             text=True, check=True).stdout.split()
    if changed:
        last = subprocess.run(["git", "-C", src, "log", "-1", "--format=%H", "--"] + RECIPE_FILES, capture_output=True,
                              text=True).stdout.strip()
        fail("the recipes pin %s, where %s differ from this tree's: the recipe as written needs them as they are here. "
             "Pin a commit that has them (%s, the last to change them, once they are committed)" %
             (pin[:12], ", ".join(changed), last[:40] or "commit them first"))

shutil.rmtree(work, ignore_errors=True)
repo = os.path.join(work, "hostcb-repo")
os.makedirs(repo)
listed = subprocess.run(["git", "-C", src, "ls-files", "-co", "--exclude-standard"], capture_output=True, text=True)
if listed.returncode == 0:
    files = listed.stdout.split("\n")
else:  # a copy of the tree that is no git checkout (scripts/mutation-test.sh's): its files, less builds
    files = []
    for folder, subfolders, names in os.walk(src):
        subfolders[:] = [d for d in subfolders if not d.startswith((".git", "build", "dist", "__pycache__")) and
                         os.path.join(folder, d) != work]
        files += [os.path.relpath(os.path.join(folder, n), src) for n in names]
for name in filter(None, files):
    if os.path.isfile(os.path.join(src, name)):
        os.makedirs(os.path.join(repo, os.path.dirname(name)), exist_ok=True)
        shutil.copy2(os.path.join(src, name), os.path.join(repo, name))
git_env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "hostcb at the pin"],
            ["config", "uploadpack.allowAnySHA1InWant", "true"]):  # fetch by commit, as the hosts allow
    subprocess.run(["git", "-C", repo] + cmd, check=True, env=git_env, capture_output=True)
pinned_commit = subprocess.run(["git", "-C", repo, "rev-parse", "HEAD"], capture_output=True, text=True,
                               check=True).stdout.strip()
# This repository stands for hostcb's: its commit stands for the pinned one, in both recipes.
pin = pinned_commit
github["env"]["HOSTCB_REF"] = gitlab["variables"]["HOSTCB_REF"] = pin
# A later commit on the default branch: a checkout that ignores the pin gets this one.
with open(os.path.join(repo, "UNPINNED"), "w") as f:
    f.write("a commit after the pin\n")
subprocess.run(["git", "-C", repo, "add", "UNPINNED"], check=True, env=git_env)
subprocess.run(["git", "-C", repo, "commit", "-q", "-m", "after the pin"], check=True, env=git_env)

# ---- The layer's repository: what `actions/checkout` without arguments gives.
layer_repo = os.path.join(work, "layer-repo")
os.makedirs(layer_repo)
with open(os.path.join(layer_repo, "conftest.py"), "w") as f:
    f.write("hostcb_layers = []  # the layer's own suite\n")

# GPU architectures of the runners a matrix may name (CUDA compute capability, major and minor).
ARCHS = {"a100": "80", "a10": "86", "a30": "80", "h100": "90", "h200": "90", "gh200": "90", "l4": "89", "l40": "89",
         "l40s": "89", "t4": "75", "v100": "70", "b200": "100", "rtx4090": "89", "rtx3090": "86"}

standins = os.path.join(src, "tests/ci")
base_env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "CI_", "HOSTCB", "PYTHON"))}
base_env.update(PATH=standins + os.pathsep + os.environ["PATH"], STANDIN_REAL_PYTHON=sys.executable,
                STANDIN_LAYER_ARGS="--adapter %s --filter stub_forward/forward=fake/*" % fake)


def check_wheel_file(path):
    text = open(path).read()
    if "commit=" + pinned_commit not in text:
        problems.append("the wheel was not built from the pinned checkout (%s): %s" % (pin, text))
    archs = re.search(r"CUDAARCHS=(.*)", text).group(1).split(";")
    return archs


def run_script(lines, cwd, env, where):
    """Runs the lines in order; returns the first failure's exit code (or 0) and the output so far."""
    output = ""
    for line in lines:
        r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", line], cwd=cwd, env=env,
                           capture_output=True, text=True)
        with open(os.path.join(work, "steps.log"), "a") as f:
            f.write("== %s: %s\nexit %d\n%s%s" % (where, line, r.returncode, r.stdout, r.stderr))
        output += r.stdout + r.stderr
        if r.returncode != 0:
            return r.returncode, output
    return 0, output


# ---- GitHub Actions
def expand(text, ctx):
    def one(m):
        expr = m.group(1).strip()
        value = ctx
        for part in expr.split("."):
            if not isinstance(value, dict) or part not in value:
                fail("docs/ci.md: ${{ %s }} names nothing this test knows" % expr)
            value = value[part]
        return str(value)

    return re.sub(r"\$\{\{(.*?)\}\}", one, text)


def condition(text, ctx, failed):
    expr = re.sub(r"\$\{\{|\}\}", "", text)
    expr = expr.replace("always()", "True").replace("success()", str(not failed)).replace("failure()", str(failed))
    expr = re.sub(r"\bgithub(\.[a-z_]+)+", lambda m: repr(expand("${{ %s }}" % m.group(0), ctx)), expr)
    expr = expr.replace("&&", " and ").replace("||", " or ").replace("!", " not ").replace(" not =", "!=")
    return bool(eval(expr, {}, {}))


def matrix_rows(strategy):
    rows = [{}]
    for key, values in ((strategy or {}).get("matrix") or {}).items():
        rows = [dict(r, **{key: v}) for r in rows for v in values]
    return rows


def github_run(scenario, gpu_gone=()):
    """Runs the workflow on a pull request; runners in gpu_gone have no usable GPU."""
    store = {}
    results = {}
    log = os.path.join(work, scenario, "standin.log")
    pull_request = {"number": 36, "head": {"repo": {"full_name": "org/layer"}}}  # not from a fork
    ctx_base = {"env": github["env"], "github": {"event_name": "pull_request", "repository": "org/layer",
                                                 "token": "t0ken", "event": {"pull_request": pull_request}}}
    order = list(github["jobs"])
    for job_name in order:
        job = github["jobs"][job_name]
        needs = job.get("needs") or []
        needs = [needs] if isinstance(needs, str) else needs
        failed_needs = any(results.get(n) != "success" for n in needs)
        if failed_needs and "always()" not in str(job.get("if", "")):
            results[job_name] = "skipped"
            results[job_name + ":jobs"] = []
            continue
        outcomes = []
        for row in matrix_rows(job.get("strategy")):
            ctx = dict(ctx_base, matrix=row)
            label = "-".join([job_name] + [str(v) for v in row.values()])
            ws = os.path.join(work, scenario, label)
            os.makedirs(ws)
            env = dict(base_env, **{k: str(v) for k, v in github["env"].items()})
            env.update(GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=os.path.join(ws, "step-summary.md"), STANDIN_LOG=log)
            runner = row.get("runner", "")
            env["STANDIN_HOSTCB"] = real_hostcb if runner in gpu_gone else stub
            if runner in gpu_gone:  # the real hostcb: its families through the fake layer
                env["STANDIN_LAYER_ARGS"] = "--adapter %s --filter replay/*forward=fake* --axis replays=1" % fake
                env["CUDA_VISIBLE_DEVICES"] = ""  # none, on a machine with a GPU too
            failed = False
            for step in job["steps"]:
                if "if" in step and not condition(str(step["if"]), ctx, failed):
                    continue
                if failed and "if" not in step:
                    continue
                step_env = dict(env, **{k: expand(str(v), ctx) for k, v in (step.get("env") or {}).items()})
                uses = step.get("uses", "")
                args = {k: expand(str(v), ctx) for k, v in (step.get("with") or {}).items()}
                if uses.startswith("actions/checkout@"):
                    if "repository" not in args:
                        shutil.copytree(layer_repo, ws, dirs_exist_ok=True)
                        continue
                    if args["repository"] != github["env"]["HOSTCB_REPO"] or args.get("ref") != pin:
                        problems.append("%s checks out %s at %s, not hostcb at the pin" %
                                        (label, args["repository"], args.get("ref")))
                    dest = os.path.join(ws, args.get("path", "."))
                    subprocess.run(["git", "clone", "-q", repo, dest], check=True, capture_output=True)
                    if args.get("ref"):
                        subprocess.run(["git", "-C", dest, "checkout", "-q", args["ref"]], check=True,
                                       capture_output=True)
                elif uses.startswith("actions/upload-artifact@"):
                    name, path = args["name"], os.path.join(ws, args["path"])
                    if name in store:
                        problems.append("two jobs upload an artifact named %s" % name)
                    saved = os.path.join(work, scenario, "artifacts", name)
                    if os.path.isdir(path):
                        shutil.copytree(path, saved)
                    elif os.path.exists(path):
                        os.makedirs(saved)
                        shutil.copy2(path, saved)
                    else:
                        problems.append("%s uploads %s, which is not there" % (label, args["path"]))
                        continue
                    store[name] = (saved, label)
                elif uses.startswith("actions/download-artifact@"):
                    dest = os.path.join(ws, args["path"])
                    if "name" in args:
                        if args["name"] not in store:
                            failed = True
                            problems.append("%s downloads %s, which no job uploaded" % (label, args["name"]))
                            continue
                        shutil.copytree(store[args["name"]][0], dest, dirs_exist_ok=True)
                    else:
                        for name, (saved, _) in store.items():
                            if fnmatch.fnmatch(name, args["pattern"]):
                                shutil.copytree(saved, os.path.join(dest, name), dirs_exist_ok=True)
                    downloaded = sorted(n for n in store if n == args.get("name") or
                                        fnmatch.fnmatch(n, args.get("pattern", "\0")))
                    with open(os.path.join(ws, ".downloads"), "a") as f:
                        f.write("\n".join(downloaded) + "\n")
                elif "run" in step:
                    rc, output = run_script([expand(step["run"], ctx)], ws, step_env, label)
                    with open(os.path.join(ws, ".output"), "a") as f:
                        f.write(output)
                    if rc:
                        failed = True
                        with open(os.path.join(ws, ".failure"), "w") as f:
                            f.write(output)
                else:
                    fail("docs/ci.md: a step this test cannot run: %r" % step)
            outcomes.append((label, ws, failed))
        results[job_name] = "failure" if any(f for _, _, f in outcomes) else "success"
        results[job_name + ":jobs"] = outcomes
    return results, store, log


gh = github["jobs"]
for name in ("wheel", "layers", "merge"):
    if name not in gh:
        fail("the GitHub recipe has no job %s" % name)
# The matrix's runners each have an architecture the wheel job builds for.
wheel_runs = " ".join(s.get("run", "") for s in gh["wheel"]["steps"])
m = re.search(r'CUDAARCHS="([^"]*)"', wheel_runs)
if not m:
    fail("the wheel job sets no CUDAARCHS for its build")
built = m.group(1).split(";")
for runner in sorted({str(row.get("runner")) for row in matrix_rows(gh["layers"].get("strategy"))}):
    arch = ARCHS.get(runner)
    if arch is None:
        fail("runner %s of the matrix: this test does not know its GPU's architecture (ARCHS)" % runner)
    if arch not in built:
        problems.append("runner %s has sm_%s, and the wheel is built for %s only" % (runner, arch, built))
# Nothing but the wheel and the results crosses between jobs.
for job_name, job in gh.items():
    for step in job["steps"]:
        path = str((step.get("with") or {}).get("path", ""))
        if step.get("uses", "").startswith("actions/upload-artifact") and path not in ("dist/", "ci-out/"):
            problems.append("job %s uploads %s: artifacts are the wheel (dist/) and the results (ci-out/)" %
                            (job_name, path))
    if "sudo" in str(job) and "apt-get" in str(job):
        problems.append("job %s runs sudo apt-get in its YAML" % job_name)

# The pull request's comments (tests/ci/gh keeps them as files), one from someone else already.
comments = os.path.join(work, "comments")
os.makedirs(comments, exist_ok=True)
FOREIGN = "<!-- another bot -->\nLGTM\n"
with open(os.path.join(comments, "999"), "w") as f:
    f.write(FOREIGN)
base_env["STANDIN_COMMENTS"] = comments

# One pull request where every runner has its GPU.
results, store, log = github_run("pr")
wheel_archs = check_wheel_file(os.path.join(store["hostcb-wheel"][0], os.listdir(store["hostcb-wheel"][0])[0]))
if wheel_archs != built:
    problems.append("the wheel was built for %s, not the recipe's %s" % (wheel_archs, built))
for job_name in ("wheel", "layers", "merge"):
    if results[job_name] != "success":
        failures = [open(os.path.join(ws, ".failure")).read()[-600:] for _, ws, f in results[job_name + ":jobs"] if f]
        problems.append("job %s did not succeed: %s" % (job_name, failures[:1]))
if any(results[job_name] != "success" for job_name in ("wheel", "layers", "merge")):
    stop_if_problems()
# The wheel job runs scripts/setup.sh, which may apt-get: it says so before it starts.
wheel_output = open(os.path.join(results["wheel:jobs"][0][1], ".output")).read()
if not re.search(r"setup\.sh first: .* installed with (sudo apt-get|apt-get \(as root\))", wheel_output):
    problems.append("the wheel job does not say that it runs (sudo) apt-get: %s" % wheel_output[:400])
layer_jobs = results["layers:jobs"]
if len(layer_jobs) != len(matrix_rows(gh["layers"]["strategy"])):
    problems.append("not every matrix job ran")
for label, ws, _ in layer_jobs:
    installed = open(os.path.join(ws, "venv/installed.txt")).read()
    if not re.search(r"dist/hostcb-[0-9.]+-py3-none-linux_x86_64\.whl", installed) or "pytest" not in installed or \
            "cuda-bindings==" not in installed:
        problems.append("%s installed %r: the wheel, pytest and the layer's version" % (label, installed))
    results_dirs = os.listdir(os.path.join(ws, "ci-out"))
    if len(results_dirs) != 1 or not os.path.isfile(os.path.join(ws, "ci-out", results_dirs[0], "hostcb.json")):
        problems.append("%s left %s in ci-out, not one job's hostcb.json" % (label, results_dirs))
    if os.path.exists(os.path.join(ws, "ci-out", results_dirs[0], "neutral")):
        problems.append("%s ran on a runner with a GPU and was marked neutral" % label)
    # The shipped expectations are the installed wheel's, the pinned release's own.
    wheel_copy = os.path.join(ws, "venv", "standin-site", "hostcb", "share", "hostcb", "known-layer-bugs.jsonc")
    if "pytest expectations " + wheel_copy not in open(log).read().split("\n"):
        problems.append("%s's pytest did not get the wheel's known-layer-bugs.jsonc (%s)" % (label, wheel_copy))
merge_ws = results["merge:jobs"][0][1]
downloads = open(os.path.join(merge_ws, ".downloads")).read().split()
if sorted(set(downloads)) != sorted(n for n in store if n == "hostcb-wheel" or n.startswith("results-")) or \
        any(not (n == "hostcb-wheel" or n.startswith("results-")) for n in downloads):
    problems.append("the merge job downloads %s: it needs the wheel and the results only" % downloads)
summary = open(os.path.join(merge_ws, "ci-out/summary.md")).read()
if "%d environments" % len(layer_jobs) not in summary:
    problems.append("the merged summary does not count %d environments: %s" % (len(layer_jobs), summary[:300]))


def our_comments():
    """The pull request's comments that start with merge's marker, by id; and the other one."""
    ours = {}
    for name in sorted(os.listdir(comments)):
        body = open(os.path.join(comments, name)).read()
        if name != "999":
            ours[name] = body
    if open(os.path.join(comments, "999")).read() != FOREIGN:
        problems.append("the comment step changed a comment it did not write (999)")
    return ours


ours = our_comments()
if list(ours.values()) != [summary]:
    problems.append("the pull request has %d comments from the run, not one holding the merged summary: %s" %
                    (len(ours), [b[:80] for b in ours.values()]))
if not summary.startswith("<!-- hostcb summary"):
    problems.append("the merged summary does not start with the marker the comment step finds it by: %s" % summary[:80])
if "gh pr comment 36 --repo org/layer --body-file ci-out/summary.md" not in open(log).read():
    problems.append("the comment step did not add its comment on org/layer#36: %s" % open(log).read()[-400:])

# The same pull request, with one runner's GPU gone: its jobs fail with the reason, the merge is red.
gone = str(matrix_rows(gh["layers"]["strategy"])[-1]["runner"])
results, store, log = github_run("gpu-gone", gpu_gone=(gone,))
for label, ws, failed in results["layers:jobs"]:
    if (gone in label.split("-")) != failed:
        problems.append("%s %s with %s's GPU gone" % (label, "failed" if failed else "passed", gone))
    if failed and "--require-gpu" not in open(os.path.join(ws, ".failure")).read():
        problems.append("%s failed without saying --require-gpu: %s" % (label, open(os.path.join(ws, ".failure")).read()[-300:]))
if results["merge"] != "failure":
    problems.append("the merge job was %s over a red job" % results["merge"])
# The second push's comment edits the first run's, not a new one and not the other bot's.
red_summary = open(os.path.join(results["merge:jobs"][0][1], "ci-out/summary.md")).read()
ours = our_comments()
if list(ours.values()) != [red_summary]:
    problems.append("after a second run the pull request has %d comments from the runs, not the first one edited: %s" %
                    (len(ours), [b[:80] for b in ours.values()]))
if not re.search(r"gh api --method PATCH repos/org/layer/issues/comments/\d+ -F body=@ci-out/summary.md", open(log).read()):
    problems.append("the second run's comment step did not edit the first comment: %s" % open(log).read()[-400:])

# ---- GitLab CI: the same jobs, its way (artifacts unpacked into the same folders).
gl = gitlab
before = (gl.get("default") or {}).get("before_script") or []
artifacts = {}
gl_env = dict(base_env, **{k: str(v) for k, v in gl["variables"].items()})
gl_env.update(HOSTCB_REPO=repo, STANDIN_HOSTCB=stub, STANDIN_LOG=os.path.join(work, "gitlab", "standin.log"))
for stage in gl["stages"]:
    for job_name, job in gl.items():
        if not isinstance(job, dict) or job.get("stage") != stage:
            continue
        rows = []
        for entry in ((job.get("parallel") or {}).get("matrix") or [{}]):
            combos = [{}]
            for k, values in entry.items():
                combos = [dict(c, **{k: str(v)}) for c in combos for v in (values if isinstance(values, list) else [values])]
            rows += combos
        for row in rows:
            label = "-".join([job_name] + list(row.values()))
            ws = os.path.join(work, "gitlab", label)
            shutil.copytree(layer_repo, ws)
            for need in job.get("needs") or []:
                for saved in artifacts.get(need, []):
                    shutil.copytree(saved, ws, dirs_exist_ok=True)
            env = dict(gl_env, **row)
            rc, output = run_script(before + job["script"], ws, env, "gitlab " + label)
            if rc:
                problems.append("GitLab job %s failed: %s" % (label, output[-600:]))
                continue
            head = subprocess.run(["git", "-C", os.path.join(ws, "hostcb"), "rev-parse", "HEAD"], capture_output=True,
                                  text=True).stdout.strip()
            if head != pinned_commit:
                problems.append("GitLab job %s checked hostcb out at %s, not the pin %s" % (label, head, pinned_commit))
            saved = os.path.join(work, "gitlab-artifacts", label)
            for path in (job.get("artifacts") or {}).get("paths", []):
                if os.path.exists(os.path.join(ws, path)):
                    shutil.copytree(os.path.join(ws, path), os.path.join(saved, path), dirs_exist_ok=True)
            artifacts.setdefault(job_name, []).append(saved)
merged = os.path.join(work, "gitlab", "merge", "ci-out", "summary.md")
gl_jobs = len(artifacts.get("layers", []))
if not gl_jobs or not os.path.exists(merged) or "%d environments" % gl_jobs not in open(merged).read():
    problems.append("GitLab's merge wrote no summary of its %d layer jobs" % gl_jobs)

stop_if_problems()
# Passed: the jobs' checkouts of hostcb go (about 140 MB in all); the logs stay.
for folder, subfolders, _ in os.walk(work):
    if "hostcb" in subfolders and os.path.isdir(os.path.join(folder, "hostcb", ".git")):
        shutil.rmtree(os.path.join(folder, "hostcb"))
        subfolders.remove("hostcb")
print("ci_recipe: docs/ci.md's GitHub (%d jobs, then one runner's GPU gone) and GitLab recipes ran as written" %
      (len(layer_jobs) + 2))
