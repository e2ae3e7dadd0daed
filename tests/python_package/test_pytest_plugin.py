"""The pytest plugin (python/hostcb/pytest_plugin.py), through pytest itself (pytester): the
mixed layer (layers/mixed_layer.py) through the stub CLI's stub_forward family, where its six
operations pass, fail, crash, are excluded and raise."""
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import hostcb

from conftest import MIXED_LAYER, ROOT

NODE = "hostcb:mixed_layer::stub_forward::forward=mixed/op="
ID = "stub_forward/forward=mixed/op="
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
    ids = [line for line in result.outlines if line.startswith("hostcb:")]
    assert ids == [NODE + op for op in OPS]  # hostcb's order; no scenario of another layer or family
    assert result.ret == 0


def test_results_map_onto_pytest_outcomes(pytester, stub, calls):
    result = run(pytester, stub, "-rA")
    result.assert_outcomes(**OUTCOMES)
    assert result.ret == 1
    text = result.stdout.str()
    assert "PASSED " + NODE + "launch_host_func" in text
    assert "SKIPPED [1] hostcb:mixed_layer: excluded: the mixed layer has no begin_capture" in text  # at the layer
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
    result = run(pytester, stub, "-k", "launch_host_func or exec_set_host_node", "--deselect", NODE + "exec_set_host_node")
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


def _cases(path):
    """The JUnit file's test cases: name -> (classname, time, [outcome tags], {property: value}, skip text)."""
    found = {}
    for c in ET.parse(str(path)).getroot().iter("testcase"):
        tags = [child.tag for child in c if child.tag not in ("properties", "system-out", "system-err")]
        skipped = c.find("skipped")
        found[c.get("name")] = (c.get("classname"), c.get("time"), tags,
                                {p.get("name"): p.get("value") for p in c.iter("property")},
                                skipped.text if skipped is not None else None)
    return found


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one-process", "xdist"])
def test_junit_xml_is_hostcbs_layout_with_each_scenarios_seconds(pytester, stub, monkeypatch, workers):
    if workers:
        pytest.importorskip("xdist")
    # The first scenario's layer call takes a while: before, its item carried the batch's time.
    monkeypatch.setenv("HOSTCB_TEST_SLOW", "launch_host_func")
    run(pytester, stub, "--junitxml", "out.xml", *workers, subprocess=bool(workers))
    cases = _cases(pytester.path / "out.xml")
    # As hostcb's own --junit: classname the family, name the rest of the id.
    assert sorted(cases) == sorted("forward=mixed/op=" + op for op in OPS)
    assert {c[0] for c in cases.values()} == {"stub_forward"}
    kinds = {name.rsplit("=", 1)[1]: c[2] for name, c in cases.items()}
    assert kinds == {"launch_host_func": [], "add_host_node": ["failure"], "add_stream_callback": ["error"],
                     "capture": ["skipped"], "graph_set_host_node": ["error"], "exec_set_host_node": []}
    # Each case's time is its own scenario's seconds, as hostcb measured them.
    for name, (_, time, _, properties, _) in cases.items():
        assert "%.3f" % float(time) == properties["hostcb.seconds"], name
    assert float(cases["forward=mixed/op=launch_host_func"][1]) >= 3
    assert max(float(c[1]) for n, c in cases.items() if not n.endswith("launch_host_func")) < 3
    assert cases["forward=mixed/op=add_stream_callback"][3]["hostcb.status"] == "error"
    # A skip's text: the id and hostcb's reason.
    assert cases["forward=mixed/op=capture"][4] == ID + "capture: excluded: the mixed layer has no begin_capture/end_capture"


def _reported_by_worker(result):
    """From `-v` output under xdist, "[gw0] [ 16%] PASSED NODEID": worker -> the ops it reported."""
    found = {}
    for line in result.outlines:
        m = re.match(r"\[(gw\d+)\] \[ *\d+%\] \w+ " + re.escape(NODE) + r"(\w+)", line)
        if m:
            found.setdefault(m.group(1), []).append(m.group(2))
    return found


def _assert_each_worker_ran_only_its_own(counted, calls, result, reported, stopped=False):
    """Each worker's hostcb runs held the items it reported, each item in one run of one
    worker; the layer was called, in each worker's runs, for that worker's items only.
    `stopped` (-x): a worker stops reporting at its first failure, the rest of its batch
    unreported (hostcb stopped there too)."""
    runs = counted.runs_by_worker()
    asked = {worker: [i[len(ID):] for ids in each for i in ids] for worker, each in runs.items()}
    for worker in set(asked) | set(reported):
        mine, told = sorted(asked.get(worker, [])), sorted(reported.get(worker, []))
        assert set(told) <= set(mine) if stopped else mine == told, (worker, runs, result.outlines)
    everything = [op for ops in asked.values() for op in ops]
    assert len(everything) == len(set(everything)), runs  # no item run twice, by one worker or two
    seen = calls.by_worker()
    for worker, ops in seen.items():
        assert set(ops) <= set(asked.get(worker, [])), (worker, seen, runs)
    return runs


@pytest.mark.parametrize("dist", ["load", "loadscope", "loadfile", "loadgroup", "worksteal"])
def test_under_xdist_each_worker_runs_only_its_own_items(pytester, counted, calls, dist):
    # Issue 36: each worker ran the whole layer (xdist sets option.dist="no" on its workers).
    pytest.importorskip("xdist")
    result = run(pytester, counted.binary, "-n", "2", "--dist", dist, "-v", subprocess=True)
    result.assert_outcomes(**OUTCOMES)
    reported = _reported_by_worker(result)
    assert sum(len(ops) for ops in reported.values()) == len(OPS)
    runs = _assert_each_worker_ran_only_its_own(counted, calls, result, reported)
    assert len(counted.calls("list")) == 2  # each worker lists the layer once (pytest collects on each)
    if dist in ("loadscope", "loadfile"):
        # One scope (a family, a layer) holds every item: one worker, one run.
        assert sorted(len(each) for each in runs.values()) == [1], runs
    else:
        assert sum(len(each) for each in runs.values()) <= len(OPS)


def _jobs_of(call):
    return call.args[call.args.index("-j") + 1] if "-j" in call.args else None


def test_under_xdist_the_workers_share_one_pool_and_hostcbs_options_pass(pytester, counted, calls, monkeypatch):
    # Issue 43, item 8: each xdist worker's hostcb run took -j auto, so -n 4 could start four
    # times as many CUDA contexts on one GPU as one run; and -j, --repeat and --until-fail
    # could not be given at all.
    pytest.importorskip("xdist")
    result = run(pytester, counted.binary, "-n", "2", subprocess=True)
    runs = counted.calls("run")
    assert runs and result.ret == 1  # the mixed layer's failures
    auto = min(os.cpu_count() or 1, 8)
    assert {_jobs_of(c) for c in runs} == {str(max(1, auto // 2))}, [c.args for c in runs]
    calls()  # forget them
    os.remove(str(counted.log))
    result = run(pytester, counted.binary, "--hostcb-jobs=3", "--hostcb-repeat=2", "--hostcb-until-fail", subprocess=True)
    runs = counted.calls("run")
    assert runs and all(_jobs_of(c) == "3" and "--until-fail" in c.args and
                        c.args[c.args.index("--repeat") + 1] == "2" for c in runs), [c.args for c in runs]
    os.remove(str(counted.log))
    run(pytester, counted.binary, subprocess=True)  # one process: hostcb's own default, as before
    assert all(_jobs_of(c) is None for c in counted.calls("run"))
    for bad, says in (("--hostcb-jobs=0", "is neither a number of workers (1 to 256) nor 'auto'"),
                      ("--hostcb-repeat=0", "is not a number of runs from 1 to 1000000")):
        refused = pytest_run(pytester, "--hostcb-layer=" + MIXED_LAYER, "--hostcb-binary=" + counted.binary, bad)
        assert refused.ret == pytest.ExitCode.USAGE_ERROR and says in refused.stderr.str(), bad


def test_dash_x_under_xdist_stops_each_worker_at_its_own_failure(pytester, counted, calls):
    # Issue 36: a worker ran the whole layer with -x, stopped at another worker's failure and
    # reported its own items as "not run: --fail-fast stopped the run".
    pytest.importorskip("xdist")
    result = run(pytester, counted.binary, "-x", "-n", "2", "-v", "-rA", subprocess=True)
    assert result.ret == pytest.ExitCode.INTERRUPTED  # as xdist ends any -x session that stopped
    assert "Interrupted: stopping after 1 failures" in result.stdout.str()
    assert "not run" not in result.stdout.str()  # hostcb's skip for what its -x left (-rA shows skips' reasons)
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed", 0) + outcomes.get("errors", 0) >= 1
    _assert_each_worker_ran_only_its_own(counted, calls, result, _reported_by_worker(result), stopped=True)


def test_worksteal_takes_back_no_item_a_worker_has_run(pytester, counted, calls, monkeypatch):
    # gw0's share begins with a slow scenario: gw1 is done long before and asks for gw0's
    # queued items, which gw0's batch has already run. They stay with gw0.
    pytest.importorskip("xdist")
    monkeypatch.setenv("HOSTCB_TEST_SLOW", "launch_host_func")
    result = run(pytester, counted.binary, "-n", "2", "--dist", "worksteal", "-v", subprocess=True)
    result.assert_outcomes(**OUTCOMES)
    _assert_each_worker_ran_only_its_own(counted, calls, result, _reported_by_worker(result))


def test_one_conftest_line(pytester, stub):
    pytester.makeconftest("hostcb_layers = [%r]" % MIXED_LAYER)
    result = pytest_run(pytester, "--hostcb-binary=" + stub, ONLY_STUB_FORWARD, "--collect-only", "-q")
    assert [line for line in result.outlines if "::hostcb:" in line] == [
        "conftest.py::" + NODE + op for op in OPS]


def test_filter_and_axis_go_to_hostcb(pytester, stub):
    result = run(pytester, stub, "--collect-only", "-q", "--hostcb-filter", "*op=capture:*op=add_host_node")
    assert [line for line in result.outlines if line.startswith("hostcb:")] == [NODE + "add_host_node",
                                                                                 NODE + "capture"]
    bad = run(pytester, stub, "--collect-only", "--hostcb-axis", "op=nothing")
    assert bad.ret == pytest.ExitCode.INTERRUPTED
    assert "axis 'op' has no value 'nothing'" in bad.stdout.str()


def test_a_layer_that_cannot_be_listed_is_a_collection_error(pytester, stub):
    result = pytest_run(pytester, "--hostcb-layer", "no_such:layer", "--hostcb-binary=" + stub)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    text = result.stdout.str()
    assert "ERROR collecting hostcb:no_such:layer" in text
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
    # Issue 42, item 12: a flag twice, as hostcb refuses --require-gpu twice; and a timeout
    # hostcb would refuse, said once at the start rather than as an error of every item.
    flag = run(pytester, stub, "--hostcb-require-gpu", "--hostcb-require-gpu")
    assert flag.ret == pytest.ExitCode.USAGE_ERROR
    assert "--hostcb-require-gpu: given twice; give it once" in flag.stderr.str()
    for bad, says in (("0", "is not between 0.1 and 86400 seconds"), ("nan", "is not between"),
                      ("soon", "is not a number of seconds")):
        timeout = run(pytester, stub, "--hostcb-timeout=" + bad)
        assert timeout.ret == pytest.ExitCode.USAGE_ERROR, bad
        assert "--hostcb-timeout: '%s' %s" % (bad, says) in timeout.stderr.str()


def test_hostcbs_warnings_are_pytests(pytester, stub, tmp_path):
    # Issue 43, item 6: hostcb warns of an entry that names nothing (a typo, a dead glob in a
    # list) under `hostcb run`; under pytest it said nothing.
    path = tmp_path / "typo.jsonc"
    path.write_text('{"format": "hostcb-expectations", "format_version": 1, "expectations": ['
                    '{"id": ["stub_forward/forward=mixed/op=add_host_node", "stub_forward/forward=mixed/op=add_hots_node"],'
                    ' "expect": ["failed"], "reason": "never calls the host function"}]}')
    result = run(pytester, stub, "--hostcb-expectations=" + str(path))
    text = result.stdout.str()
    assert "warnings summary" in text
    assert "HostcbWarning" in text
    assert ('warning: "stub_forward/forward=mixed/op=add_hots_node", one of this entry\'s ids, matches no scenario'
            in text)
    assert text.count("add_hots_node\", one of") == 1  # once, though hostcb may say it in every run


def _layer_repository(pytester):
    """A layer's repository as a CI recipe's checkout lays it out: the layer's own tests, and
    hostcb's checkout inside it, one of whose test modules exits when imported outside its
    own suite (as tests/py/test_fakes_isolation.py does)."""
    pytester.makepyfile(test_layers_own="def test_own_suite(): assert False, 'the layer suite ran'")
    checkout = pytester.mkdir("hostcb")  # no __init__.py: the real package hostcb still imports
    (checkout / "test_exits_at_import.py").write_text("raise SystemExit('imported outside its suite')\n")


def test_hostcb_only_collects_no_test_file_in_the_layers_repository(pytester, stub):
    # Issue 43, item 1: the recipe's pytest step collected the layer's suite and hostcb's
    # checkout beside its items: INTERNALERROR at the checkout's module, no tests ran.
    _layer_repository(pytester)
    everything = run(pytester, stub, subprocess=True)
    assert everything.ret != 0 and "imported outside its suite" in everything.stdout.str() + everything.stderr.str()
    only = run(pytester, stub, "--hostcb-only", subprocess=True)
    only.assert_outcomes(**OUTCOMES)  # the layer's six items, and nothing of the suite or the checkout
    assert "the layer suite ran" not in only.stdout.str()
    alone = pytest_run(pytester, "--hostcb-only", "--hostcb-binary=" + stub)
    assert alone.ret == pytest.ExitCode.USAGE_ERROR
    assert "--hostcb-only collects hostcb's items only, and no --hostcb-layer gives any" in alone.stderr.str()


def test_two_layer_files_of_one_name_get_node_ids_of_their_own(pytester, stub, tmp_path):
    # Issue 33, item 14: both were hostcb[mixed_layer], one set of node ids for two layers.
    other = tmp_path / "other"
    other.mkdir()
    (other / "mixed_layer.py").write_text(open(MIXED_LAYER).read())
    result = pytest_run(pytester, "--hostcb-layer=" + MIXED_LAYER, "--hostcb-layer=" + str(other / "mixed_layer.py"),
                        "--hostcb-binary=" + stub, ONLY_STUB_FORWARD, "--collect-only", "-q")
    ids = [line for line in result.outlines if line.startswith("hostcb:")]
    assert ids == ["hostcb:layers/mixed_layer::stub_forward::forward=mixed/op=" + op for op in OPS] + [
        "hostcb:other/mixed_layer::stub_forward::forward=mixed/op=" + op for op in OPS]


def test_one_layer_file_spelled_three_ways_is_one_layer(pytester, stub, calls):
    # Issue 42, item 8: --hostcb-layer=a/x.py --hostcb-layer=./a/x.py gave two items of one
    # node id each, each scenario ran twice, --hostcb-json held two results an id.
    (pytester.path / "a").mkdir()
    (pytester.path / "a" / "mixed_layer.py").write_text(open(MIXED_LAYER).read())
    relative = os.path.join("a", "mixed_layer.py")  # pytester runs in pytester.path
    spellings = [relative, "./" + relative, str(pytester.path / relative)]
    result = pytest_run(pytester, *["--hostcb-layer=" + s for s in spellings], "--hostcb-binary=" + stub,
                        ONLY_STUB_FORWARD, "--hostcb-json=" + str(pytester.path / "once.json"))
    result.assert_outcomes(**OUTCOMES)  # six items, each once
    ids = [r["id"] for r in json.loads((pytester.path / "once.json").read_text())["results"]]
    assert sorted(ids) == sorted(ID + op for op in OPS)
    alone = pytest_run(pytester, "--hostcb-layer=" + relative, "--hostcb-binary=" + stub, ONLY_STUB_FORWARD,
                       "--collect-only", "-q")
    absolute = pytest_run(pytester, "--hostcb-layer=" + spellings[2], "--hostcb-binary=" + stub, ONLY_STUB_FORWARD,
                          "--collect-only", "-q")
    assert [line for line in alone.outlines if line.startswith("hostcb:")] == \
        [line for line in absolute.outlines if line.startswith("hostcb:")]  # one node id however spelled


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
    assert "ERROR at teardown of hostcb:fake:layer::stub_forward::forward=fake/op=x" in text
    assert "hostcb: FAILED hostcb/run=orphans" in text and "found no active scenario" in text


def test_one_hostcb_run_per_layer_without_xdist(pytester, counted, calls):
    result = run(pytester, counted.binary)
    result.assert_outcomes(**OUTCOMES)
    assert [c.command for c in counted.calls()] == ["list", "run"]
    assert counted.runs_by_worker() == {"main": [[ID + op for op in OPS]]}
    assert {w: sorted(set(ops)) for w, ops in calls.by_worker().items()} == {
        "main": sorted(set(OPS) - {"capture"})}


def test_markers_hostcb_family_and_gpu_select_with_dash_m(pytester, stub):
    # Issue 36: no marker to select with. They are registered: --strict-markers passes and
    # pytest warns of no unknown mark.
    pytester.makepyfile("def test_plain(): pass")
    strict = ["--strict-markers", "-W", "error::pytest.PytestUnknownMarkWarning", "--collect-only", "-q"]
    for expression, selected in [("hostcb", 6), ("stub_forward", 6), ("gpu", 6), ("not hostcb", 1),
                                 ("stub_forward and not gpu", 0)]:
        result = run(pytester, stub, "-m", expression, *strict)
        assert result.ret in (0, pytest.ExitCode.NO_TESTS_COLLECTED), result.outlines
        ids = [line for line in result.outlines if "::" in line]
        assert len(ids) == selected, (expression, ids)
    markers = run(pytester, stub, "--markers")
    assert "@pytest.mark.hostcb:" in markers.stdout.str() and "@pytest.mark.gpu:" in markers.stdout.str()


# As the shipped families' ids are: a family's name inside other families' ids ("replay" in
# replays=, "update" in case=exec_update), '=' in every one.
FAMILIES = ["replay/api=driver/forward=fake/replays=2", "replay/api=runtime/forward=fake/replays=20",
            "update/api=runtime/forward=fake/replays=2", "lifetime/api=driver/case=exec_update/forward=fake/replays=2"]


@pytest.mark.parametrize("expression, selected", [
    ("replay", [0, 1]),  # the family, not every id with "replay" in it
    ("update", [2]),
    ("replays=2", [0, 2, 3]),  # '=' is no syntax error; replays=20 is another word
    ("replay and replays=2", [0]),
    ("driver", [0, 3]),  # a value alone
    ("replay/api=runtime", [1]),  # whole parts of the id
    ("api=driver and not replay", [3]),
    ("gpu and hostcb and fake:layer", [0, 1, 2, 3]),  # markers; the layer
    ("REPLAY", [0, 1]),  # case aside, as pytest's
    ("repl or api=run or exec", []),  # no piece of a word
])
def test_dash_k_matches_whole_words_of_an_id(pytester, fake, expression, selected):
    # Issue 36: `-k replays=2` was a syntax error, and `-k replay` chose every id holding it.
    hostcb = fake({i: ["passed", ""] for i in FAMILIES})
    result = pytest_run(pytester, "--hostcb-layer=fake:layer", "--hostcb-binary=" + hostcb.binary, "-k", expression)
    assert result.ret == (pytest.ExitCode.OK if selected else pytest.ExitCode.NO_TESTS_COLLECTED), result.outlines
    result.assert_outcomes(passed=len(selected), deselected=len(FAMILIES) - len(selected))
    assert hostcb.runs() == ({"main": [[FAMILIES[n] for n in selected]]} if selected else {})  # hostcb ran those


def test_dash_k_with_equals_matches_other_tests_as_pytest_does(pytester, stub, calls):
    pytester.makepyfile('''
import pytest
@pytest.mark.parametrize("x", [1, 2], ids=["op=capture", "op=other"])
def test_plain(x): pass
''')
    result = run(pytester, stub, "-k", "op=capt", "-rA")  # a piece of a plain test's name, as pytest matches
    result.assert_outcomes(passed=1, deselected=7)
    assert "PASSED test_dash_k_with_equals_matches_other_tests_as_pytest_does.py::test_plain[op=capture]" in \
        result.stdout.str()
    result = run(pytester, stub, "-k", "op=capture or op=launch_host_func")
    result.assert_outcomes(passed=2, skipped=1, deselected=5)
    assert calls() == ["launch_host_func"]  # hostcb ran those two (capture is excluded: no call)
    bad = run(pytester, stub, "-k", "op=capture and")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    assert "Wrong expression passed to '-k': op=capture and" in bad.stderr.str()


def test_only_what_the_arguments_reach_is_collected(pytester, counted):
    # Issue 36: a conftest's line added every scenario to any run (`pytest FILE::TEST` gave
    # "1 passed, 532 skipped"). A conftest's layers live in its file, as a test file's tests.
    sub = pytester.mkpydir("sub")
    (sub / "conftest.py").write_text("hostcb_layers = [%r]\n" % MIXED_LAYER)
    (sub / "test_sub.py").write_text("def test_sub(): pass\n")
    pytester.makepyfile("def test_top(): pass")
    options = ["--hostcb-binary=" + counted.binary, ONLY_STUB_FORWARD]
    for args, outcomes in [(["test_only_what_the_arguments_reach_is_collected.py::test_top"], {"passed": 1}),
                           (["sub/test_sub.py"], {"passed": 1}),
                           (["sub/test_sub.py::test_sub"], {"passed": 1})]:
        pytest_run(pytester, *options, *args).assert_outcomes(**outcomes)
    assert counted.calls() == []  # not even a listing
    for args in ([], ["sub"], ["sub/conftest.py"], ["."]):
        result = pytest_run(pytester, *options, "--collect-only", "-q", *args)
        ids = [line for line in result.outlines if "::hostcb:" in line]
        assert ids == ["sub/conftest.py::" + NODE + op for op in OPS], (args, result.outlines)


def test_a_conftests_layer_path_is_its_folders(pytester, counted):
    # Issue 43, item 10: `hostcb_layers = ["layers/x.py"]` resolved against pytest's working
    # folder, so the suite collected only when run from the conftest's own folder.
    sub = pytester.mkpydir("sub")
    (sub / "layers").mkdir()
    (sub / "layers" / "mixed_layer.py").write_text(open(MIXED_LAYER).read())
    (sub / "conftest.py").write_text("hostcb_layers = ['layers/mixed_layer.py']\n")
    result = pytest_run(pytester, "--hostcb-binary=" + counted.binary, ONLY_STUB_FORWARD, "--collect-only", "-q")
    ids = [line for line in result.outlines if "::hostcb:" in line]
    assert ids == ["sub/conftest.py::" + NODE + op for op in OPS], result.outlines


def test_node_ids_run_again(pytester, counted):
    # Issue 36: `pytest NODEID` was "path cannot contain [] parametrization".
    options = ["--hostcb-binary=" + counted.binary, ONLY_STUB_FORWARD]
    layer = "--hostcb-layer=" + MIXED_LAYER
    result = pytest_run(pytester, *options, layer, NODE + "capture", "-rA")
    result.assert_outcomes(skipped=1)
    assert counted.runs_by_worker() == {"main": [[ID + "capture"]]}
    # A family's node id is its items', a layer's every item.
    pytest_run(pytester, *options, layer, "hostcb:mixed_layer::stub_forward").assert_outcomes(**OUTCOMES)
    pytest_run(pytester, *options, layer, "hostcb:mixed_layer").assert_outcomes(**OUTCOMES)
    # A conftest's node id, as pytest prints it, with nothing else.
    pytester.makeconftest("hostcb_layers = [%r]" % MIXED_LAYER)
    pytester.makepyfile("def test_plain(): pass")
    result = pytest_run(pytester, *options, "conftest.py::" + NODE + "add_host_node", "-rA")
    result.assert_outcomes(failed=1)
    assert "FAILED conftest.py::" + NODE + "add_host_node" in result.stdout.str()


def test_a_node_id_without_its_layer_or_of_nothing_is_a_usage_error(pytester, stub):
    alone = pytest_run(pytester, "--hostcb-binary=" + stub, NODE + "capture")
    assert alone.ret == pytest.ExitCode.USAGE_ERROR
    # Issue 43, item 10: the hint said "--hostcb-layer mixed_layer", which imports nothing.
    assert ("names a layer no --hostcb-layer gives: add --hostcb-layer with the layer it names, a ready name or "
            "module as it is (mixed_layer), a layer file by its path (PATH/mixed_layer.py)") in alone.stderr.str()
    nothing = run(pytester, stub, NODE + "no_such_op")
    assert nothing.ret == pytest.ExitCode.USAGE_ERROR
    assert "not found: " + NODE + "no_such_op" in nothing.stderr.str()


def test_a_bad_conftest_line_is_one_clear_error(pytester, stub):
    pytester.makeconftest("hostcb_layers = %r" % MIXED_LAYER)  # a string, not a list
    result = pytest_run(pytester, "--hostcb-binary=" + stub)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    assert "hostcb_layers must be a list of layers (non-empty strings), not '" in result.stdout.str()


COMPARE = os.path.join(ROOT, "scripts", "compare-pytest-hostcb.py")


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one-process", "xdist"])
def test_hostcb_json_is_what_hostcb_reported_for_report_and_the_comparison(pytester, counted, workers):
    # Issue 36: no way to write hostcb's JSON from pytest, so `report --summary` could not
    # use a pytest run.
    if workers:
        pytest.importorskip("xdist")
    result = run(pytester, counted.binary, "--hostcb-json", "out/results.json", "--junitxml", "out.xml", *workers,
                 subprocess=bool(workers))
    result.assert_outcomes(**OUTCOMES)
    runs = len(counted.calls("run"))
    assert "hostcb: wrote %s: 6 results of %d hostcb runs" % (pytester.path / "out" / "results.json", runs) in \
        result.stdout.str()
    document = json.loads((pytester.path / "out" / "results.json").read_text())
    assert document["format"] == "hostcb-results"
    assert sorted(r["id"] for r in document["results"]) == sorted(ID + op for op in OPS)  # each once
    assert {k: document["summary"][k] for k in ("total", "passed", "failed", "error", "skipped")} == {
        "total": 6, "passed": 2, "failed": 1, "error": 2, "skipped": 1}
    summary = subprocess.run([counted.binary, "report", str(pytester.path / "out" / "results.json"), "--summary",
                              str(pytester.path / "summary.md")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True)
    assert summary.returncode == 0, summary.stdout
    assert "6 scenarios in 1 environment" in (pytester.path / "summary.md").read_text()
    compared = subprocess.run([sys.executable, COMPARE, str(pytester.path / "out" / "results.json"),
                               str(pytester.path / "out.xml")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True)
    assert compared.returncode == 0 and compared.stdout.rstrip().endswith("agree"), compared.stdout


def test_hostcb_json_refuses_before_anything_runs_what_hostcb_run_json_refuses(pytester, stub, calls, tmp_path):
    # Issue 42, item 2: --hostcb-json replaced a device, a FIFO, a link, the layer's source,
    # the expectations file and the --junitxml file, and found an unwritable path only at
    # the end. hostcb's own rules now apply (hostcb check-reports), before any run.
    layer = tmp_path / "my_layer.py"
    layer.write_text(open(MIXED_LAYER).read())
    expectations = tmp_path / "expect.jsonc"
    expectations.write_text('{"format": "hostcb-expectations", "format_version": 1, "expectations": []}')
    fifo = tmp_path / "fifo"
    os.mkfifo(str(fifo))
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "elsewhere.json")
    junit = tmp_path / "pytest.xml"
    cases = [(str(pytester.path), "is a directory"), (str(fifo), "is a FIFO"), (str(link), "is a symbolic link"),
             (str(layer), "is the layer file"), (str(expectations), "is the expectations file"),
             (str(junit), "and --junitxml %s name the same file" % junit), ("/proc/version", "")]
    for path, says in cases:
        before = open(path).read() if os.path.isfile(path) and path != str(fifo) else None
        result = pytest_run(pytester, "--hostcb-layer=" + str(layer), "--hostcb-binary=" + stub, ONLY_STUB_FORWARD,
                            "--hostcb-json=" + path, "--hostcb-expectations=" + str(expectations),
                            "--junitxml=" + str(junit))
        assert result.ret == pytest.ExitCode.USAGE_ERROR, (path, result.stderr.str())
        assert "--hostcb-json" in result.stderr.str() and says in result.stderr.str(), (path, result.stderr.str())
        assert not calls(), path  # nothing ran
        if before is not None:
            assert open(path).read() == before, path  # untouched
    assert "holds something that is not a JSON report" in run(pytester, stub, "--hostcb-json=" + str(layer)).stderr.str()


def test_hostcb_json_is_written_with_the_mode_hostcb_gives_its_reports(pytester, stub):
    run(pytester, stub, "--hostcb-json=results.json")
    assert (os.stat(str(pytester.path / "results.json")).st_mode & 0o777) == 0o644  # hostcb's: new reports 0644
    os.chmod(str(pytester.path / "results.json"), 0o640)
    run(pytester, stub, "--hostcb-json=results.json")
    assert (os.stat(str(pytester.path / "results.json")).st_mode & 0o777) == 0o640  # a replaced one keeps its own


def test_hostcb_json_of_a_session_without_runs_is_not_written(pytester, stub):
    result = run(pytester, stub, "--hostcb-json", "results.json", "-k", "nothing_is_called_this")
    assert "hostcb: no hostcb run in this session: %s not written" % (pytester.path / "results.json") in \
        result.stdout.str()
    assert not (pytester.path / "results.json").exists()


NO_GPU = "no usable CUDA device: cudaGetDeviceCount returned cudaErrorNoDevice (100)"


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one-process", "xdist"])
def test_require_gpu_fails_a_session_where_nothing_ran_for_want_of_a_gpu(pytester, fake, workers):
    # Issue 36: a broken GPU runner gave "532 skipped", exit 0, for ever.
    if workers:
        pytest.importorskip("xdist")
    scenarios = {"replay/forward=fake/replays=%d" % n: ["skipped", NO_GPU] for n in (1, 2, 5)}
    scenarios["replay/forward=fake/replays=9"] = ["skipped", "excluded: no such thing"]
    hostcb = fake(scenarios)
    options = ["--hostcb-layer=fake:layer", "--hostcb-binary=" + hostcb.binary, *workers]
    skipped = pytest_run(pytester, *options, subprocess=bool(workers))
    skipped.assert_outcomes(skipped=4)
    assert skipped.ret == pytest.ExitCode.OK
    required = pytest_run(pytester, *options, "--hostcb-require-gpu", subprocess=bool(workers))
    required.assert_outcomes(skipped=4)
    assert required.ret == pytest.ExitCode.TESTS_FAILED
    assert "hostcb: --hostcb-require-gpu: no hostcb scenario ran (3 of 4 skipped for want of a GPU): " + NO_GPU in \
        required.stdout.str()
    assert sum(len(ids) for each in hostcb.runs().values() for ids in each) == 8  # each scenario once a session


@pytest.mark.parametrize("other", [["passed", ""], ["failed", "counts"], ["skipped", "excluded: no such thing"]])
def test_require_gpu_leaves_a_session_alone_where_something_ran_or_no_gpu_was_wanted(pytester, fake, other):
    scenarios = {"replay/forward=fake/replays=1": ["skipped", NO_GPU], "stub/forward=fake/x=1": other}
    if other[0] == "skipped":  # nothing ran, but for want of nothing a GPU gives
        scenarios = {"stub/forward=fake/x=%d" % n: other for n in (1, 2)}
    hostcb = fake(scenarios)
    result = pytest_run(pytester, "--hostcb-layer=fake:layer", "--hostcb-binary=" + hostcb.binary, "--hostcb-require-gpu")
    assert result.ret == (pytest.ExitCode.TESTS_FAILED if other[0] == "failed" else pytest.ExitCode.OK)
    assert "--hostcb-require-gpu" not in result.stdout.str()


def test_require_gpu_with_the_real_binary_and_no_gpu(pytester, real):
    # The shipped families need a GPU: hostcb's own reason, as it words it here.
    probe = hostcb.run(MIXED_LAYER, binary=real, filter="replay/*replays=2*")
    if any(r.status is not hostcb.Status.SKIPPED for r in probe):
        pytest.skip("a CUDA device is usable here: the scenarios ran")
    no_gpu = sum(r.reason.startswith("no usable CUDA device") for r in probe)
    assert no_gpu >= 10  # the others are excluded (the mixed layer has no capture)
    options = ["--hostcb-layer=" + MIXED_LAYER, "--hostcb-binary=" + real, "--hostcb-filter=replay/*replays=2*"]
    required = pytest_run(pytester, *options, "--hostcb-require-gpu")
    required.assert_outcomes(skipped=len(probe))
    assert required.ret == pytest.ExitCode.TESTS_FAILED
    assert "hostcb: --hostcb-require-gpu: no hostcb scenario ran (%d of %d skipped for want of a GPU): no usable " \
           "CUDA device: cudaGetDeviceCount" % (no_gpu, len(probe)) in required.stdout.str()
