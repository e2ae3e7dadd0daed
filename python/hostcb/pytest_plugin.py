"""The pytest plugin (entry point `pytest11: hostcb`): hostcb's scenarios through a layer as
pytest items.

    pytest --hostcb-layer cuda_bindings:runtime [--hostcb-filter F] [--hostcb-axis name=v1,v2]
           [--hostcb-expectations FILE]
    # or, in a conftest.py:  hostcb_layers = ["cuda_bindings:runtime"]

Each layer is one collector, `hostcb[LAYER]` (of a file, its name without folder or suffix),
with one item per scenario that goes through the layer, named by the scenario id: node ids
`hostcb[LAYER]::replay/api=runtime/...`, so `-k`, `--deselect`, `-x` and `--lf` select as usual. The items run through hostcb's supervisor, in
worker processes: a layer that crashes is that item's error, never pytest's death. The items
of a layer this process will run go to one `hostcb run` at the first of them (with
pytest-xdist: the whole layer under `--dist loadscope`, a family under `--dist loadgroup`,
one item at a time otherwise). hostcb's results map onto pytest's: passed, failed (the
failures with their launch index), error (raised in setup), skipped (hostcb's reason); xfail
and xpass from an expectations file become pytest's xfail and strict XPASS.
"""
from __future__ import annotations

import argparse
import os
from typing import Dict, List, Optional

import pytest

from ._api import Invocation, _list, run_ids
from ._results import HostcbError, Result, Run, Scenario, Status

_BAD = (Status.FAILED, Status.ERROR, Status.XPASS)  # what fails a run (hostcb's is_bad)


class _Once(argparse.Action):
    """hostcb's rule for an option's values, as its command line has it: an empty value is
    refused (an unset variable must not widen or drop anything), and so is a second value
    of an option that takes one (which of two would win is a guess). pytest shows the
    line and exits with its usage error."""

    def __call__(self, parser, namespace, values, option_string=None):
        if values == "":
            raise argparse.ArgumentError(self, "an empty value; leave the option out instead")
        if getattr(namespace, self.dest, None) not in (None, self.default):
            raise argparse.ArgumentError(self, "given twice; give it once")
        setattr(namespace, self.dest, values)


class _Each(_Once):
    """The same for a repeatable option: every value is kept, none may be empty."""

    def __call__(self, parser, namespace, values, option_string=None):
        if values == "":
            raise argparse.ArgumentError(self, "an empty value; leave the option out instead")
        setattr(namespace, self.dest, list(getattr(namespace, self.dest, None) or []) + [values])


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hostcb", "hostcb: CUDA host callbacks under graph replay, through a layer")
    group.addoption("--hostcb-layer", action=_Each, default=[], metavar="LAYER",
                    help="collect the scenarios through LAYER: a ready name (cuda_bindings:runtime), a layer module "
                         "(mypackage.mylayer or path/to/mylayer.py) or an adapter library; options after '@'. "
                         "Repeatable; a conftest.py's `hostcb_layers = [...]` adds to these")
    group.addoption("--hostcb-filter", action=_Once, metavar="FILTER",
                    help="hostcb's --filter: 'POS[:POS][-NEG[:NEG]]' globs over ids")
    group.addoption("--hostcb-axis", action=_Each, default=[], metavar="NAME=VALUES",
                    help="hostcb's --axis: replace an axis's values (repeatable)")
    group.addoption("--hostcb-expectations", action=_Once, metavar="FILE",
                    help="hostcb's --expectations: known failures (xfail)")
    group.addoption("--hostcb-timeout", action=_Once, type=float, metavar="SECONDS", help="hostcb's --timeout per scenario")
    group.addoption("--hostcb-binary", action=_Once, metavar="PATH",
                    help="the hostcb binary (default: $HOSTCB_BINARY, else the one this package carries)")


def _layers(config: pytest.Config) -> List[str]:
    """--hostcb-layer, then each loaded conftest.py's `hostcb_layers`, once each."""
    layers = list(config.getoption("hostcb_layer"))
    for plugin in config.pluginmanager.get_plugins():
        if (getattr(plugin, "__file__", None) or "").endswith("conftest.py"):
            layers += list(getattr(plugin, "hostcb_layers", []))
    return list(dict.fromkeys(layers))


def _collector_names(layers: List[str]) -> List[str]:
    """hostcb[LAYER] for each layer: a file's name without its folder and suffix, the options
    kept. Files that would share a name keep as many of their last folders as tell them
    apart (hostcb[a/mylayer], hostcb[b/mylayer]): no two layers share node ids."""
    def parts(layer: str) -> List[str]:
        name = layer.partition("@")[0]
        if "/" not in name and not name.endswith((".py", ".so")):
            return [name]  # a ready name or a module: as it is
        return os.path.splitext(os.path.normpath(name))[0].split(os.sep)

    def named(layer: str, depth: int) -> str:
        _, at, options = layer.partition("@")
        return "hostcb[%s%s%s]" % ("/".join(parts(layer)[-depth:]), at, options)

    depth = [1] * len(layers)
    while True:
        names = [named(layer, d) for layer, d in zip(layers, depth)]
        clashing = [i for i, name in enumerate(names) if names.count(name) > 1 and depth[i] < len(parts(layers[i]))]
        if not clashing:
            return names
        for i in clashing:
            depth[i] += 1


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: List[pytest.Item]) -> None:
    # First, so that -k, -m, --deselect and --lf select among these items too. genitems
    # reports a layer that cannot be listed as a collection error, as for a broken file.
    layers = _layers(config)
    for layer, name in zip(layers, _collector_names(layers)):
        items.extend(session.genitems(LayerCollector.from_parent(session, name=name, nodeid=name, layer=layer)))


class ScenarioProblem(Exception):
    """A result that is not a pass, with the text pytest shows for it."""

    def __init__(self, result: Result, *more: Result):
        super().__init__(result.reason)
        self.text = "\n".join("hostcb: %s %s (%.3f s)\n%s" % (r.status.value.upper(), r.id, r.seconds, r.describe())
                              for r in (result,) + more)


class LayerCollector(pytest.Collector):
    """One layer: its scenarios, listed by hostcb, and the results of the runs made for them."""

    def __init__(self, *, layer: str, **kwargs):
        super().__init__(**kwargs)
        self.layer = layer
        self.results: Dict[str, object] = {}  # scenario id -> Result, or the HostcbError its run raised
        # A run's own bad results (family "hostcb": a host-function call after its scenario
        # ended that no scenario can be named for), by the last item of that run: they fail
        # it at its teardown, so the session is red, under pytest-xdist too.
        self.run_problems: Dict[str, List[Result]] = {}

    def _option(self, name: str):
        return self.config.getoption(name)

    def collect(self) -> List["ScenarioItem"]:
        self.invocation = Invocation.make(self.layer, self._option("hostcb_binary"))
        listing = _list(self.invocation, self.layer, self._option("hostcb_filter"), self._option("hostcb_axis"))
        items = [ScenarioItem.from_parent(self, name=s.id, scenario=s) for s in listing]
        if self.config.pluginmanager.hasplugin("xdist"):  # --dist loadgroup: a family to a worker
            for item in items:
                item.add_marker(pytest.mark.xdist_group(name="%s:%s" % (self.name, item.scenario.family)))
        return items

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, HostcbError):
            return "%s: %s" % (self.name, excinfo.value)
        return super().repr_failure(excinfo)

    def _batch(self, item: "ScenarioItem") -> List["ScenarioItem"]:
        """The items of this layer, not run yet, that this process will run with `item`: all of them without pytest-xdist (or under --dist loadscope, which sends a layer
        to one worker), the item's family under --dist loadgroup, else the item alone."""
        mine = [i for i in self.session.items if isinstance(i, ScenarioItem) and i.parent is self
                and i.scenario.id not in self.results]
        dist = getattr(self.config.option, "dist", "no") if hasattr(self.config, "workerinput") else "no"
        if dist in ("no", "loadscope"):
            return mine
        if dist == "loadgroup":
            return [i for i in mine if i.scenario.family == item.scenario.family]
        return [item]

    def result_for(self, item: "ScenarioItem") -> Result:
        if item.scenario.id not in self.results:
            batch = self._batch(item)
            ids = [i.scenario.id for i in batch]
            try:
                run: Optional[Run] = run_ids(self.invocation, ids, axes=self._option("hostcb_axis"),
                                             expectations=self._option("hostcb_expectations"),
                                             fail_fast=self.config.option.maxfail == 1,
                                             timeout=self._option("hostcb_timeout"))
            except HostcbError as e:
                self.results.update((i, e) for i in ids)
                run = None
            if run is not None:
                for i in ids:  # of several results (--repeat passes), the worst
                    self.results[i] = run.result(i) or HostcbError(
                        "hostcb run (exit %d) gave no result for %s" % (run.exit_code, i))
                own = [r for r in run.results if r.family == "hostcb" and r.status in _BAD]
                if own:
                    self.run_problems[ids[-1]] = own
        found = self.results[item.scenario.id]
        if isinstance(found, HostcbError):
            raise found
        return found  # type: ignore[return-value]


class ScenarioItem(pytest.Item):
    """One scenario. Setup gets its result (running the batch it is in): an error is raised
    there, a skip skips; xfail and xpass put a strict xfail mark on the item. The call then
    fails for a failure (and an xfail, which the mark turns into pytest's xfail)."""

    def __init__(self, *, scenario: Scenario, **kwargs):
        super().__init__(**kwargs)
        self.scenario = scenario
        self.result: Optional[Result] = None

    def setup(self) -> None:
        parent = self.parent
        assert isinstance(parent, LayerCollector)
        result = self.result = parent.result_for(self)
        self.user_properties += [("hostcb.status", result.status.value), ("hostcb.seconds", "%.3f" % result.seconds)]
        if result.reason:
            self.user_properties.append(("hostcb.reason", result.reason))
        if result.status is Status.SKIPPED:
            pytest.skip(result.reason)
        if result.status is Status.ERROR:
            raise ScenarioProblem(result)
        if result.status in (Status.XFAIL, Status.XPASS):
            self.add_marker(pytest.mark.xfail(reason=result.expectation or "hostcb expectations", strict=True))

    def runtest(self) -> None:
        assert self.result is not None
        if self.result.status in (Status.FAILED, Status.XFAIL):
            raise ScenarioProblem(self.result)

    def teardown(self) -> None:
        parent = self.parent
        assert isinstance(parent, LayerCollector)
        problems = parent.run_problems.pop(self.scenario.id, None)
        if problems:
            raise ScenarioProblem(*problems)

    def reportinfo(self):
        return self.path, None, self.nodeid


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """hostcb's text for an item's problem, in setup (an error) or the call (a failure), in
    place of a traceback through this plugin; a skip is shown at the layer, not at this file."""
    outcome = yield
    report = outcome.get_result()
    if not isinstance(item, ScenarioItem) or call.excinfo is None:
        return
    problem = call.excinfo.value
    if report.failed and isinstance(problem, ScenarioProblem):
        report.longrepr = problem.text
    elif report.failed and isinstance(problem, HostcbError):
        report.longrepr = "hostcb: %s" % problem
    elif report.skipped and isinstance(report.longrepr, tuple):
        report.longrepr = (item.parent.name, None, report.longrepr[2])
