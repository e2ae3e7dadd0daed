"""The Python API (hostcb.list, hostcb.run and their types), against real hostcb processes:
the stub CLI and the mixed layer (layers/mixed_layer.py)."""
import glob
import json
import os
import re
import subprocess
import sys

import pytest

import hostcb
from hostcb import _api
from conftest import MIXED_LAYER

PREFIX = "stub_forward/forward=mixed/op="
# The stub CLI's sim_* families run through any layer too; these tests are about stub_forward.
ONLY_STUB_FORWARD = "stub_forward/*"


def test_list_gives_the_layers_scenarios_typed(stub):
    listing = hostcb.list(MIXED_LAYER, binary=stub, filter=ONLY_STUB_FORWARD)
    assert [s.id for s in listing] == [PREFIX + op for op in (
        "launch_host_func", "add_host_node", "add_stream_callback", "capture", "graph_set_host_node",
        "exec_set_host_node")]
    capture = listing.scenarios[3]
    assert isinstance(capture, hostcb.Scenario)
    assert capture.family == "stub_forward" and capture.params == {"forward": "mixed", "op": "capture"}
    assert capture.excluded == "the mixed layer has no begin_capture/end_capture"
    assert [a.name for a in listing.adapters] == ["mixed"]
    assert listing.adapters[0].describe == "mixed layer for the plugin's tests"


def test_run_gives_every_status_with_hostcbs_messages(stub):
    run = hostcb.run(MIXED_LAYER, binary=stub, filter=ONLY_STUB_FORWARD)
    assert isinstance(run, hostcb.Run) and run.exit_code == 1
    status = {r.id[len(PREFIX):]: r.status for r in run}
    assert status == {"launch_host_func": hostcb.Status.PASSED, "add_host_node": hostcb.Status.FAILED,
                      "add_stream_callback": hostcb.Status.ERROR, "capture": hostcb.Status.SKIPPED,
                      "graph_set_host_node": hostcb.Status.ERROR, "exec_set_host_node": hostcb.Status.PASSED}
    failed = run.result(PREFIX + "add_host_node")
    assert [str(f) for f in failed.failures] == ["[runner] [count] host function #0 was called 0 times; expected exactly 3",
                                                 "[runner] [count] host functions were called 0 times in all; expected exactly 3"]
    assert failed.describe() == "\n".join(str(f) for f in failed.failures)
    crashed = run.result(PREFIX + "add_stream_callback")
    assert "SIGABRT" in crashed.reason and "at launch 1 of 3" in crashed.reason
    assert run.result("nosuch/id") is None
    assert run.environment["adapters"][0]["name"] == "mixed"


def test_expectations_give_xfail_and_xpass(stub, expectations):
    run = hostcb.run(MIXED_LAYER, binary=stub, expectations=expectations, filter="*op=add_host_node:*op=launch*")
    assert {r.id[len(PREFIX):]: r.status for r in run} == {"launch_host_func": hostcb.Status.XPASS,
                                                          "add_host_node": hostcb.Status.XFAIL}
    assert run.result(PREFIX + "add_host_node").expectation.startswith("never calls the host function")
    assert run.exit_code == 1  # an xpass fails the run


def test_a_failure_carries_its_launch_and_source_line(stub):
    run = hostcb.run(filter="stub/behave=fail/*", binary=stub)
    (failure,) = run.result("stub/behave=fail/copy=1").failures
    assert (failure.launch, failure.thread, failure.file) == (1, "runner", "tests/stub_cases.cpp")
    assert str(failure) == "[launch 1] [runner] tests/stub_cases.cpp:%d: %s" % (failure.line, failure.message)
    assert "the stub failed on purpose" in failure.message


def test_without_a_layer_filter_and_axes_select(stub):
    run = hostcb.run(filter="stub/behave=pass/*", axes={"copy": [1, 2]}, binary=stub)
    assert [(r.id, r.status) for r in run] == [("stub/behave=pass/copy=1", hostcb.Status.PASSED),
                                               ("stub/behave=pass/copy=2", hostcb.Status.PASSED)]
    assert [s.id for s in hostcb.list(filter="stub/behave=pass/*", axes=["copy=3"], binary=stub)] == [
        "stub/behave=pass/copy=3"]
    assert run.exit_code == 0


def test_many_ids_run_in_several_hostcb_runs_and_come_back_in_order(stub, monkeypatch):
    monkeypatch.setattr(_api, "_FILTER_CHARS", 60)  # about two ids a run
    run = hostcb.run(filter="stub/behave=pass/*", axes={"copy": list(range(1, 8))}, binary=stub)
    assert [r.id for r in run] == ["stub/behave=pass/copy=%d" % n for n in range(1, 8)]
    assert run.output.count("exit 0") >= 3


def test_exact_patterns_survive_the_filter_separators():
    assert _api._exact("fam/a=1-2/b=x:y") == "fam/a=1?2/b=x?y"


def test_bad_input_is_hostcbs_one_line(stub):
    with pytest.raises(hostcb.UsageError, match="matches no scenario"):
        hostcb.list(filter="nosuch/*", binary=stub)
    with pytest.raises(hostcb.UsageError, match="no such ready name"):
        hostcb.run("no_such:layer", binary=stub)
    with pytest.raises(hostcb.UsageError, match="neither a ready name"):
        hostcb.list("not a layer!", binary=stub)
    with pytest.raises(hostcb.HostcbError, match="no such executable"):
        hostcb.list(binary="/nonexistent/hostcb")


def _where_am_i(folder):
    """A layer module, where_am_i.py in `folder`, whose describe() names its interpreter."""
    layer = folder / "where_am_i.py"
    layer.write_text("import sys\nNAME = 'where'\n"
                     "def launch_host_func(stream, fn, user_data):\n    return 0\n"
                     "def describe():\n    return 'on ' + sys.executable\n")
    return layer


def test_the_layers_python_is_the_one_calling(stub, tmp_path, monkeypatch):
    monkeypatch.delenv("HOSTCB_PYTHON", raising=False)
    layer = _where_am_i(tmp_path)
    listing = hostcb.list(str(layer), binary=stub)
    assert listing.adapters[0].describe == "on " + sys.executable


def test_the_hostcb_command_runs_layers_in_its_own_python(stub, tmp_path, monkeypatch):
    # Issue 43, item 3: `venv/bin/hostcb --adapter cuda_bindings:runtime` used python3 on PATH,
    # which lacks what the venv has. Here no python3 is on PATH at all: the layer runs only
    # if the command hands hostcb its own interpreter.
    monkeypatch.delenv("HOSTCB_PYTHON", raising=False)
    _where_am_i(tmp_path)
    adapter = os.path.join(os.environ["HOSTCB_ADAPTER_DIR"], "libhostcb_python_runtime.so")
    package_folder = os.path.dirname(os.path.dirname(os.path.abspath(hostcb.__file__)))
    env = dict(os.environ, HOSTCB_BINARY=stub, PATH=str(tmp_path), PYTHONPATH=os.pathsep.join([str(tmp_path), package_folder]))
    listed = subprocess.run([sys.executable, "-m", "hostcb", "list", "--adapter", adapter + "@module=where_am_i",
                             "--filter", "*forward=where*"], env=env, capture_output=True, text=True)
    assert listed.returncode == 0, listed.stderr
    assert "forward=where" in listed.stdout
    env["HOSTCB_PYTHON"] = os.path.join(str(tmp_path), "no-such-python")  # one named is used, not replaced
    named = subprocess.run([sys.executable, "-m", "hostcb", "list", "--adapter", adapter + "@module=where_am_i"],
                           env=env, capture_output=True, text=True)
    assert named.returncode == 2 and "no-such-python" in named.stderr, named.stderr


def test_an_installed_wheels_version_is_its_binarys():
    # Issue 43, item 2: the wheel was 0.1.0 at every commit; it now names its commit, as the
    # binary's --version does (cmake/hostcb_version.py runs the binary's own rule).
    if "site-packages" not in hostcb.__file__:
        pytest.skip("hostcb is imported from the source tree (%s), not installed" % hostcb.__file__)
    from importlib.metadata import version
    said = subprocess.run([os.path.join(hostcb.prefix(), "bin", "hostcb"), "--version"], capture_output=True, text=True, check=True).stdout.strip()
    assert version("hostcb") == said
    assert re.match(r"^\d+\.\d+\.\d+(\.dev\d+)?(\+g[0-9a-z.]+)?$", said), said


def _another_python():
    """A CPython 3.9+ of another version than this one, or None."""
    here = "%d.%d" % sys.version_info[:2]
    candidates = sorted(glob.glob("/usr/bin/python3.[0-9]*") + glob.glob(os.path.expanduser("~/.pyenv/versions/3.*/bin/python3")))
    for python in candidates:
        if python.endswith("-config") or not os.access(python, os.X_OK):
            continue
        version = subprocess.run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                 capture_output=True, text=True).stdout.strip()
        if version != here and tuple(map(int, version.split("."))) >= (3, 9):
            return python, version
    return None


def test_a_layer_on_another_python_gets_none_of_this_ones_path(stub, tmp_path):
    found = _another_python()
    if not found:
        pytest.skip("no CPython 3.9+ of another version than %d.%d here" % sys.version_info[:2])
    python, version = found
    layer = tmp_path / "other.py"
    layer.write_text("import sys\nNAME = 'other'\n"
                     "def launch_host_func(stream, fn, user_data):\n    return 0\n"
                     "def describe():\n    return '%d.%d' % sys.version_info[:2]\n")
    listing = hostcb.list("%s@python=%s" % (layer, python), binary=stub)
    assert listing.adapters[0].describe == version


def test_fail_fast_runs_one_worker_unless_the_arguments_say_how_many(stub):
    # -x stops at the first bad item in order: hostcb -x -j 1; a -j of the caller's is kept, not doubled.
    first = hostcb.run(MIXED_LAYER, binary=stub, filter=ONLY_STUB_FORWARD, fail_fast=True)
    assert [r.id[len(PREFIX):] for r in first if r.status != hostcb.Status.SKIPPED] == ["launch_host_func", "add_host_node"]
    own = hostcb.run(MIXED_LAYER, binary=stub, filter=ONLY_STUB_FORWARD, fail_fast=True, arguments=["-j", "2"])
    assert own.exit_code == 1  # ran (a usage error would be 2)


def test_every_repeat_pass_is_kept_and_the_worst_decides(stub):
    # Issue 33, item 3: results were kept by id, so a later pass hid the one that failed.
    run = hostcb.run(filter="stub_flaky", binary=stub, arguments=("--repeat", "4", "-j", "1"))
    passes = run.results_for("stub_flaky")
    assert [(r.iteration, r.status) for r in passes] == [(1, hostcb.Status.PASSED), (2, hostcb.Status.PASSED),
                                                          (3, hostcb.Status.FAILED), (4, hostcb.Status.PASSED)]
    assert run.result("stub_flaky") is passes[2]  # the worst pass speaks for the id
    assert (run.summary["total"], run.summary["failed"], run.exit_code) == (4, 1, 1)


def test_the_summary_counts_every_run_of_a_long_command_line(stub, monkeypatch):
    # Issue 33, item 4: the summary was the last run's alone.
    monkeypatch.setattr(_api, "_FILTER_CHARS", 60)  # about two ids a run
    run = hostcb.run(filter="stub/behave=pass/*:stub/behave=fail/*", axes={"copy": [1, 2, 3, 4, 5]}, binary=stub)
    assert run.output.count("exit ") >= 4
    assert (run.summary["total"], run.summary["passed"], run.summary["failed"]) == (10, 5, 5) == (
        len(run), sum(r.status is hostcb.Status.PASSED for r in run), sum(r.status is hostcb.Status.FAILED for r in run))


def test_the_documents_of_several_runs_merge_into_one_that_hostcb_report_reads(stub, monkeypatch, tmp_path):
    # What pytest's --hostcb-json writes: every run's document (a long command line's, a
    # session's batches, its xdist workers') as one.
    monkeypatch.setattr(_api, "_FILTER_CHARS", 60)  # about two ids a run
    run = hostcb.run(filter="stub/behave=pass/*:stub/behave=fail/*", axes={"copy": [1, 2, 3, 4, 5]}, binary=stub)
    assert len(run.documents) >= 4 and all(d["format"] == "hostcb-results" for d in run.documents)
    merged = _api.merged_documents(run.documents)
    assert [r["id"] for r in merged["results"]] == [r["id"] for d in run.documents for r in d["results"]]
    assert sorted(r["id"] for r in merged["results"]) == sorted(r.id for r in run)  # each once
    assert (merged["summary"]["total"], merged["summary"]["passed"], merged["summary"]["failed"]) == (10, 5, 5)
    assert merged["seconds"] == pytest.approx(sum(d["seconds"] for d in run.documents))
    path = tmp_path / "merged.json"
    path.write_text(json.dumps(merged))
    done = subprocess.run([stub, "report", str(path), "--summary", str(tmp_path / "summary.md")],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    assert done.returncode == 0, done.stdout
    assert "10 scenarios in 1 environment" in (tmp_path / "summary.md").read_text()
    with pytest.raises(hostcb.HostcbError, match="no results documents to merge"):
        _api.merged_documents([])


def test_a_host_function_after_its_scenario_fails_it(stub):
    # Issue 33, item 1: hostcb exited 1, and every result read passed.
    run = hostcb.run(filter="stub/behave=orphan/*:stub/behave=pass/*", binary=stub)
    assert run.exit_code == 1
    orphan = run.result("stub/behave=orphan/copy=1")
    assert orphan.status is hostcb.Status.FAILED
    assert "1 host-function call found no active scenario or armed probe" in orphan.describe()
    assert run.result("stub/behave=pass/copy=1").status is hostcb.Status.PASSED


def test_empty_and_repeated_values_are_refused_as_hostcb_refuses_them(stub):
    # Issue 33, item 8: '' and 0 were taken for "not given"; hostcb's one rule decides.
    with pytest.raises(hostcb.UsageError, match="--filter is given an empty value"):
        hostcb.run(filter="", binary=stub)
    with pytest.raises(hostcb.UsageError, match="--filter is given an empty value"):
        hostcb.list(filter="", binary=stub)
    with pytest.raises(hostcb.UsageError, match="--timeout: '0' is not between"):
        hostcb.run(filter="stub/behave=pass/*", timeout=0, binary=stub)
    with pytest.raises(hostcb.UsageError, match="--timeout is given 2 times"):
        hostcb.run(filter="stub/behave=pass/*", timeout=5, arguments=("--timeout", "6"), binary=stub)
    with pytest.raises(hostcb.UsageError, match="--expectations is given an empty value"):
        hostcb.run(filter="stub/behave=pass/*", expectations="", binary=stub)
    with pytest.raises(hostcb.UsageError, match="no name before '@'"):
        hostcb.list("", binary=stub)
    with pytest.raises(hostcb.HostcbError, match="binary=: no such executable"):
        hostcb.list(binary="")
