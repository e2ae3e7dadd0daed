"""The pytest plugin (python/hostcb/pytest_plugin.py), through pytest itself (pytester): the
mixed layer (layers/mixed_layer.py) through the stub CLI's stub_forward family, where its six
operations pass, fail, crash, are excluded and raise."""
import sys
import xml.etree.ElementTree as ET

import pytest

import hostcb

from conftest import MIXED_LAYER

NODE = "hostcb[mixed_layer]::stub_forward/forward=mixed/op="
OPS = ["launch_host_func", "add_host_node", "add_stream_callback", "capture", "graph_set_host_node",
       "exec_set_host_node"]
OUTCOMES = {"passed": 2, "failed": 1, "errors": 2, "skipped": 1}  # the six operations, as above


def _entry_point_installed():
    from importlib.metadata import entry_points
    group = entry_points(group="pytest11") if sys.version_info >= (3, 10) else entry_points().get("pytest11", [])
    return any(e.value == "hostcb.pytest_plugin" for e in group)


# An installed hostcb (a wheel) registers the plugin through its entry point; from the source
# tree (PYTHONPATH=python) it is named with -p.
PLUGIN = [] if _entry_point_installed() else ["-p", "hostcb.pytest_plugin"]


def pytest_run(pytester, *args, subprocess=False):
    return (pytester.runpytest_subprocess if subprocess else pytester.runpytest)(*PLUGIN, *args)


# The stub CLI also has the sim_* families (the shipped families on a CPU stand-in of CUDA),
# which run through any layer too; these tests are about the stub_forward family's six items.
ONLY_STUB_FORWARD = "--hostcb-filter=stub_forward/*"


def run(pytester, stub, *args, subprocess=False):
    # OPTION=VALUE: a path given apart would count in pytest's choice of rootdir.
    own_filter = any(a.startswith("--hostcb-filter") for a in args)
    return pytest_run(pytester, "--hostcb-layer=" + MIXED_LAYER, "--hostcb-binary=" + stub,
                      *([] if own_filter else [ONLY_STUB_FORWARD]), *args, subprocess=subprocess)


def test_the_plugin_is_the_pytest11_entry_point_of_an_installed_hostcb():
    if "site-packages" not in hostcb.__file__:
        pytest.skip("hostcb is imported from the source tree (%s), not installed" % hostcb.__file__)
    assert _entry_point_installed()


def test_collects_one_item_per_scenario_of_the_layer_named_by_its_id(pytester, stub):
    result = run(pytester, stub, "--collect-only", "-q")
    ids = [line for line in result.outlines if line.startswith("hostcb[")]
    assert ids == [NODE + op for op in OPS]  # hostcb's order; no scenario of another layer or family
    assert result.ret == 0


def test_results_map_onto_pytest_outcomes(pytester, stub, calls):
    result = run(pytester, stub, "-rA")
    result.assert_outcomes(**OUTCOMES)
    assert result.ret == 1
    text = result.stdout.str()
    assert "PASSED " + NODE + "launch_host_func" in text
    assert "SKIPPED [1] hostcb[mixed_layer]: excluded: the mixed layer has no begin_capture" in text  # at the layer
    # A failure shows hostcb's message and the launch it happened at.
    assert "FAILED " + NODE + "add_host_node" in text
    assert "hostcb: FAILED stub_forward/forward=mixed/op=add_host_node" in text
    assert "[runner] [count] host function #0 was called 0 times; expected exactly 3" in text
    # The crash is that item's error; pytest lives on and reports the items after it.
    assert "ERROR " + NODE + "add_stream_callback" in text
    assert "SIGABRT" in text and "at launch 1 of 3" in text  # hostcb's message, with the launch
    assert "RuntimeError: the mixed layer refuses graph_set_host_node" in text
    assert "PASSED " + NODE + "exec_set_host_node" in text
    # One hostcb run for the layer, which called every operation it has.
    assert calls() == sorted(set(OPS) - {"capture"})


def test_xfail_and_xpass_from_expectations(pytester, stub, expectations):
    result = run(pytester, stub, "-rA", "--hostcb-expectations=" + expectations)
    result.assert_outcomes(passed=1, failed=1, errors=2, skipped=1, xfailed=1)
    text = result.stdout.str()
    assert "XFAIL " + NODE + "add_host_node - never calls the host function" in text
    assert "[XPASS(strict)] fixed since" in text  # a pass the expectations call a failure fails


def test_dash_k_and_deselect_choose_what_hostcb_runs(pytester, stub, calls):
    result = run(pytester, stub, "-k", "launch_host_func or exec_set", "--deselect", NODE + "exec_set_host_node")
    result.assert_outcomes(passed=1, deselected=5)
    assert calls() == ["launch_host_func"]  # hostcb ran the selection only


def test_dash_x_stops_at_the_first_failure(pytester, stub, calls):
    result = run(pytester, stub, "-x")
    result.assert_outcomes(passed=1, failed=1)
    assert result.ret == 1
    # hostcb stopped too (-x): its worker may have begun the next scenario, which crashes,
    # but no new worker ran the ones after it.
    assert set(calls()) - {"add_stream_callback"} == {"launch_host_func", "add_host_node"}


def test_last_failed_runs_the_failures_again(pytester, stub, calls):
    run(pytester, stub).assert_outcomes(**OUTCOMES)
    calls()
    result = run(pytester, stub, "--lf")
    result.assert_outcomes(failed=1, errors=2, deselected=3)
    assert calls() == ["add_host_node", "add_stream_callback", "graph_set_host_node"]


def test_junit_xml(pytester, stub):
    run(pytester, stub, "--junitxml", "out.xml")
    suite = ET.parse(str(pytester.path / "out.xml")).getroot().find("testsuite")
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == ["stub_forward/forward=mixed/op=" + op for op in OPS]
    assert {c.get("classname") for c in cases} == {"hostcb[mixed_layer]"}
    kinds = {c.get("name").rsplit("=", 1)[1]: [child.tag for child in c if child.tag != "properties"] for c in cases}
    assert kinds == {"launch_host_func": [], "add_host_node": ["failure"], "add_stream_callback": ["error"],
                     "capture": ["skipped"], "graph_set_host_node": ["error"], "exec_set_host_node": []}
    statuses = {c.get("name"): {p.get("name"): p.get("value") for p in c.iter("property")}["hostcb.status"]
                for c in cases}
    assert statuses["stub_forward/forward=mixed/op=add_stream_callback"] == "error"


def test_xdist_gives_the_same_outcomes(pytester, stub):
    pytest.importorskip("xdist")
    for dist in ("load", "loadgroup"):  # an item a run; a family a run (loadscope: a layer, as without xdist)
        result = run(pytester, stub, "-n", "2", "--dist", dist, subprocess=True)
        result.assert_outcomes(**OUTCOMES)


def test_one_conftest_line(pytester, stub):
    pytester.makeconftest("hostcb_layers = [%r]" % MIXED_LAYER)
    result = pytest_run(pytester, "--hostcb-binary=" + stub, ONLY_STUB_FORWARD, "--collect-only", "-q")
    assert [line for line in result.outlines if line.startswith("hostcb[")] == [NODE + op for op in OPS]


def test_filter_and_axis_go_to_hostcb(pytester, stub):
    result = run(pytester, stub, "--collect-only", "-q", "--hostcb-filter", "*op=capture:*op=add_host_node")
    assert [line for line in result.outlines if line.startswith("hostcb[")] == [NODE + "add_host_node",
                                                                                 NODE + "capture"]
    bad = run(pytester, stub, "--collect-only", "--hostcb-axis", "op=nothing")
    assert bad.ret == pytest.ExitCode.INTERRUPTED
    assert "axis 'op' has no value 'nothing'" in bad.stdout.str()


def test_a_layer_that_cannot_be_listed_is_a_collection_error(pytester, stub):
    result = pytest_run(pytester, "--hostcb-layer", "no_such:layer", "--hostcb-binary=" + stub)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    text = result.stdout.str()
    assert "ERROR collecting hostcb[no_such:layer]" in text
    assert "no such ready name" in text


def test_without_a_layer_the_plugin_adds_nothing(pytester, stub):
    pytester.makepyfile("def test_plain(): pass")
    result = pytest_run(pytester, "--hostcb-binary=" + stub)
    result.assert_outcomes(passed=1)


def test_an_empty_or_repeated_option_is_a_usage_error(pytester, stub):
    # Issue 33, item 8: hostcb's rule for its own options, here too.
    empty = run(pytester, stub, "--hostcb-filter=")
    assert empty.ret == pytest.ExitCode.USAGE_ERROR
    assert "--hostcb-filter: an empty value; leave the option out instead" in empty.stderr.str()
    twice = run(pytester, stub, "--hostcb-timeout=5", "--hostcb-timeout=6")
    assert twice.ret == pytest.ExitCode.USAGE_ERROR
    assert "--hostcb-timeout: given twice; give it once" in twice.stderr.str()
    layers = run(pytester, stub, "--hostcb-layer", "")
    assert layers.ret == pytest.ExitCode.USAGE_ERROR
    assert "--hostcb-layer: an empty value" in layers.stderr.str()


def test_two_layer_files_of_one_name_get_node_ids_of_their_own(pytester, stub, tmp_path):
    # Issue 33, item 14: both were hostcb[mixed_layer], one set of node ids for two layers.
    other = tmp_path / "other"
    other.mkdir()
    (other / "mixed_layer.py").write_text(open(MIXED_LAYER).read())
    result = pytest_run(pytester, "--hostcb-layer=" + MIXED_LAYER, "--hostcb-layer=" + str(other / "mixed_layer.py"),
                        "--hostcb-binary=" + stub, ONLY_STUB_FORWARD, "--collect-only", "-q")
    ids = [line for line in result.outlines if line.startswith("hostcb[")]
    assert ids == ["hostcb[layers/mixed_layer]::stub_forward/forward=mixed/op=" + op for op in OPS] + [
        "hostcb[other/mixed_layer]::stub_forward/forward=mixed/op=" + op for op in OPS]


FAKE_HOSTCB = r'''#!PYTHON
# A hostcb that lists one scenario and runs it: it passes, and the run has a failure of its
# own, a host-function call no scenario can be named for.
import json, sys
args = sys.argv[1:]
scenario = {"id": "stub_forward/forward=fake/op=x", "family": "stub_forward", "params": {"forward": "fake", "op": "x"}}
if args[0] == "list":
    print(json.dumps({"format": "hostcb-list", "format_version": 1, "scenarios": [scenario],
                      "adapters": [{"name": "fake", "path": "fake", "describe": "fake"}]}))
    sys.exit(0)
def result(id, family, status, reason):
    return {"id": id, "family": family, "params": {}, "status": status, "reason": reason, "seconds": 0,
            "failures": [], "failures_dropped": 0, "properties": {}, "device": None, "expectation": ""}
own = result("hostcb/run=orphans", "hostcb", "failed", "1 host-function call found no active scenario or armed probe")
results = [dict(result(scenario["id"], "stub_forward", "passed", ""), params=scenario["params"]), own]
json.dump({"format": "hostcb-results", "format_version": 3, "environment": {}, "summary": {}, "results": results},
          open(args[args.index("--json") + 1], "w"))
sys.exit(1)
'''


def test_a_runs_own_failure_fails_the_session(pytester, tmp_path):
    # Issue 33, item 1: orphans no scenario can be named for fail the run, and so pytest.
    fake = tmp_path / "fake_hostcb"
    fake.write_text(FAKE_HOSTCB.replace("PYTHON", sys.executable))
    fake.chmod(0o755)
    result = pytest_run(pytester, "--hostcb-layer=fake:layer", "--hostcb-binary=" + str(fake), "-rA")
    result.assert_outcomes(passed=1, errors=1)
    assert result.ret == 1
    text = result.stdout.str()
    assert "ERROR at teardown of hostcb[fake:layer]::stub_forward/forward=fake/op=x" in text
    assert "hostcb: FAILED hostcb/run=orphans" in text and "found no active scenario" in text
