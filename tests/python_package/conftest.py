"""Fixtures for the tests of the hostcb Python package (the API and the pytest plugin).

They run real hostcb processes: the stub command line (tests/stub_main.cpp: the real CLI over
CPU-only families, so scenarios pass, fail and crash without a GPU) and the Python adapter of
a build. Point them at a build with HOSTCB_TEST_BUILD (default: build/ of this checkout):

    HOSTCB_TEST_BUILD=build python3 -m pytest tests/python_package
"""
import json
import os
import sys
from collections import namedtuple

import pytest

pytest_plugins = ["pytester"]

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MIXED_LAYER = os.path.join(HERE, "layers", "mixed_layer.py")


BUILD = os.path.abspath(os.environ.get("HOSTCB_TEST_BUILD", os.path.join(ROOT, "build")))  # before any chdir


def _build():
    build = BUILD
    for needed in ("tests/hostcb_stub", "libhostcb_python_runtime.so"):
        if not os.path.exists(os.path.join(build, needed)):
            raise pytest.UsageError("no %s in %s: build hostcb first, or set HOSTCB_TEST_BUILD" % (needed, build))
    return build


@pytest.fixture
def stub(monkeypatch):
    """The stub binary, with the build's adapters found (HOSTCB_ADAPTER_DIR)."""
    build = _build()
    monkeypatch.setenv("HOSTCB_ADAPTER_DIR", build)
    return os.path.join(build, "tests", "hostcb_stub")


class Calls:
    """The operations the mixed layer was called for since the last look (HOSTCB_TEST_CALLS):
    calls() their names, sorted, once each; calls.by_worker() each xdist worker's, in order."""

    def __init__(self, path):
        self.path = path

    def _take(self):
        lines = self.path.read_text().splitlines() if self.path.exists() else []
        if self.path.exists():
            self.path.unlink()
        return [line.split() for line in lines]

    def __call__(self):
        return sorted({op for _, op in self._take()})

    def by_worker(self):
        found = {}
        for worker, op in self._take():
            found.setdefault(worker, []).append(op)
        return found


@pytest.fixture
def calls(tmp_path, monkeypatch):
    path = tmp_path / "calls.txt"
    monkeypatch.setenv("HOSTCB_TEST_CALLS", str(path))
    _not_an_xdist_worker(monkeypatch)
    return Calls(path)


def _not_an_xdist_worker(monkeypatch):
    """These tests may run under xdist themselves: the pytest they run in-process must not
    pass for a worker in what the calls record (pytest-xdist sets this for its workers)."""
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)


# One call of hostcb: the xdist worker that made it ("main" without xdist), its command
# (list, run, ...) and, for a run, the ids its --filter names (the stub's ids have no '-' or
# ':', which the plugin's filter would turn into '?').
HostcbCall = namedtuple("HostcbCall", "worker command ids args")  # args: the whole command line

_COUNTING = """#!{python}
import json, os, sys
with open({log!r}, "a") as f:
    f.write(json.dumps([os.environ.get("PYTEST_XDIST_WORKER", "main")] + sys.argv[1:]) + "\\n")
os.execv({binary!r}, [{binary!r}] + sys.argv[1:])
"""


class Counted:
    """A hostcb binary that writes down each call, then runs the stub: `binary` its path,
    `calls(command)` the calls so far (of that command)."""

    def __init__(self, folder, binary):
        self.log = folder / "hostcb-calls.jsonl"
        self.binary = str(folder / "counted-hostcb")
        with open(self.binary, "w") as f:
            f.write(_COUNTING.format(python=sys.executable, log=str(self.log), binary=binary))
        os.chmod(self.binary, 0o755)

    def calls(self, command=None):
        found = []
        for line in (self.log.read_text().splitlines() if self.log.exists() else []):
            worker, *args = json.loads(line)
            ids = args[args.index("--filter") + 1].split(":") if "--filter" in args and args[0] == "run" else []
            found.append(HostcbCall(worker, args[0], ids, args))
        return [c for c in found if command is None or c.command == command]

    def runs_by_worker(self):
        """Each worker's `hostcb run` calls: worker -> [ids of each run]."""
        found = {}
        for call in self.calls("run"):
            found.setdefault(call.worker, []).append(call.ids)
        return found


@pytest.fixture
def counted(stub, tmp_path_factory, monkeypatch):
    _not_an_xdist_worker(monkeypatch)
    return Counted(tmp_path_factory.mktemp("counted"), stub)


_FAKE = r"""#!{python}
# A hostcb of a few scenarios through the layer "fake" (a file the test wrote: id -> [status,
# reason]): `list` lists them, `run` gives each id of its --filter its status and writes the
# run's ids to the runs file, a line a run, with the xdist worker that made it.
import json, os, sys
scenarios = json.load(open({scenarios!r}))
args = sys.argv[1:]
def params(id):
    return dict(part.split("=", 1) for part in id.split("/")[1:])
if args[0] == "list":
    print(json.dumps({{"format": "hostcb-list", "format_version": 1,
                      "scenarios": [{{"id": i, "family": i.split("/")[0], "params": params(i)}} for i in scenarios],
                      "adapters": [{{"name": "fake", "path": "fake", "describe": "fake"}}]}}))
    sys.exit(0)
ids = args[args.index("--filter") + 1].split(":")
with open({runs!r}, "a") as f:
    f.write(json.dumps([os.environ.get("PYTEST_XDIST_WORKER", "main"), ids]) + "\n")
results = [{{"id": i, "family": i.split("/")[0], "params": params(i), "status": scenarios[i][0],
             "reason": scenarios[i][1], "seconds": 0.001, "failures": [], "properties": {{}}}} for i in ids]
counts = {{s: sum(r["status"] == s for r in results) for s in ("passed", "failed", "error", "skipped")}}
json.dump({{"format": "hostcb-results", "format_version": 3, "environment": {{}},
           "summary": dict(total=len(results), **counts), "results": results}},
          open(args[args.index("--json") + 1], "w"))
sys.exit(1 if counts["failed"] or counts["error"] else 0 if counts["passed"] else 77)
"""


class Fake:
    """A hostcb of the scenarios given (id -> (status, reason)), each run written down:
    `binary` its path, `runs()` the ids of each run so far, by worker ("main" without xdist).
    Its layer is any name; its scenarios go through it (forward=fake)."""

    def __init__(self, folder, scenarios):
        self.runs_file = folder / "runs.jsonl"
        (folder / "scenarios.json").write_text(json.dumps(scenarios))
        self.binary = str(folder / "fake-hostcb")
        with open(self.binary, "w") as f:
            f.write(_FAKE.format(python=sys.executable, scenarios=str(folder / "scenarios.json"),
                                 runs=str(self.runs_file)))
        os.chmod(self.binary, 0o755)

    def runs(self):
        found = {}
        for line in (self.runs_file.read_text().splitlines() if self.runs_file.exists() else []):
            worker, ids = json.loads(line)
            found.setdefault(worker, []).append(ids)
        return found


@pytest.fixture
def fake(tmp_path_factory, monkeypatch):
    """fake(scenarios): a Fake hostcb of them."""
    _not_an_xdist_worker(monkeypatch)
    return lambda scenarios: Fake(tmp_path_factory.mktemp("fake"), scenarios)


@pytest.fixture
def real(monkeypatch):
    """The build's hostcb (the shipped families, which need a GPU), its adapters found."""
    build = _build()
    if not os.path.exists(os.path.join(build, "hostcb")):
        raise pytest.UsageError("no hostcb in %s: build hostcb first, or set HOSTCB_TEST_BUILD" % build)
    monkeypatch.setenv("HOSTCB_ADAPTER_DIR", build)
    return os.path.join(build, "hostcb")


@pytest.fixture
def expectations(tmp_path):
    """An expectations file: the mixed layer's add_host_node failure is known (xfail), and so,
    wrongly, is a failure of launch_host_func, which passes (xpass)."""
    path = tmp_path / "expectations.jsonc"
    path.write_text('''{
  "format": "hostcb-expectations", "format_version": 1,
  "expectations": [
    {"id": "stub_forward/forward=mixed/op=add_host_node", "expect": ["failed"], "reason": "never calls the host function",
     "link": "https://example.invalid/never-calls"},
    {"id": "stub_forward/forward=mixed/op=launch_host_func", "expect": ["failed"], "reason": "fixed since",
     "link": "https://example.invalid/fixed"}
  ]
}
''')
    return str(path)
