"""Fixtures for the tests of the hostcb Python package (the API and the pytest plugin).

They run real hostcb processes: the stub command line (tests/stub_main.cpp: the real CLI over
CPU-only families, so scenarios pass, fail and crash without a GPU) and the Python adapter of
a build. Point them at a build with HOSTCB_TEST_BUILD (default: build/ of this checkout):

    HOSTCB_TEST_BUILD=build python3 -m pytest tests/python_package
"""
import os

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


@pytest.fixture
def calls(tmp_path, monkeypatch):
    """A function giving the operations the mixed layer was called for, since the last call."""
    path = tmp_path / "calls.txt"
    monkeypatch.setenv("HOSTCB_TEST_CALLS", str(path))

    def taken():
        ops = sorted(set(path.read_text().split())) if path.exists() else []
        if path.exists():
            path.unlink()
        return ops
    return taken


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
