"""The pytest plugin (entry point `pytest11: hostcb`): hostcb's scenarios through a layer as
pytest items.

    pytest --hostcb-layer cuda_bindings:runtime [--hostcb-filter F] [--hostcb-axis name=v1,v2]
           [--hostcb-expectations FILE] [--hostcb-json PATH] [--hostcb-require-gpu] [--hostcb-only]
    # or, in a conftest.py:  hostcb_layers = ["cuda_bindings:runtime"]

A layer is one collector, `hostcb:LAYER` (of a file, its name without folder or suffix),
with a collector per family and an item per scenario that goes through the layer:

    hostcb:cuda_bindings:runtime::replay::api=runtime/forward=cuda_bindings_runtime/...
    tests/conftest.py::hostcb:cuda_bindings:runtime::replay::api=runtime/...   (a conftest's)

A conftest's layers live in its file, so pytest collects them where it collects that folder,
and their node ids run again as any test's; the command line's live at the top, and their
node ids are taken off pytest's arguments here (they name no file). Markers: `hostcb`, the
family, `gpu`. The items run through hostcb's supervisor, in worker processes: a layer that
crashes is that item's error, never pytest's death. The items of a layer that this process
will run go to one `hostcb run` at the first of them: without pytest-xdist all of them, on an
xdist worker those xdist has handed it (_xdist.py). hostcb's results map onto pytest's:
passed, failed (the failures with their launch index), error (raised in setup), skipped
(hostcb's reason); xfail and xpass from an expectations file become pytest's xfail and
strict XPASS.

Each report's duration is its scenario's seconds, and JUnit's layout is hostcb's (_junit.py).
--hostcb-json writes the session's results (every hostcb run's) as one hostcb document.
`-k` matches a hostcb item by whole words of its id (_keyword.py).
--hostcb-require-gpu fails the session when nothing ran for want of a GPU. --hostcb-only
collects no test file, only the layers' items (a CI job run in the layer's own repository).
"""
from __future__ import annotations

import argparse
import json
import os
import tempfile
import warnings
from typing import Any, Dict, Generator, List, Optional, Set

import pytest

from . import _keyword, _xdist
from ._api import Invocation, _list, check_report_paths, merged_documents, run_ids
from ._junit import JunitLayout
from ._results import HostcbError, HostcbWarning, Result, Run, Scenario, Status, UsageError

_BAD = (Status.FAILED, Status.ERROR, Status.XPASS)  # what fails a run (hostcb's is_bad)
_PREFIX = _keyword.PREFIX  # a layer's collector: hostcb:LAYER
_NO_DEVICE = "no usable CUDA device"  # how hostcb's reason begins for a scenario skipped without a GPU


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


class _Flag(argparse.Action):
    """A flag, given once: hostcb's command line refuses a flag given twice too."""

    def __init__(self, option_strings, dest, default=False, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=default, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        if getattr(namespace, self.dest, False):
            raise argparse.ArgumentError(self, "given twice; give it once")
        setattr(namespace, self.dest, True)


def _seconds(text: str) -> float:
    """--hostcb-timeout's value, in hostcb's own range for --timeout: a usage error at once,
    not one error per item when each hostcb run refuses it."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("'%s' is not a number of seconds" % text) from None
    if not 0.1 <= value <= 86400:  # also false for nan
        raise argparse.ArgumentTypeError("'%s' is not between 0.1 and 86400 seconds" % text)
    return value


def _jobs(text: str) -> str:
    """--hostcb-jobs: hostcb's -j, N (1 to 256) or auto, refused at once as hostcb would."""
    if text != "auto" and not (text.isdigit() and 1 <= int(text) <= 256):
        raise argparse.ArgumentTypeError("'%s' is neither a number of workers (1 to 256) nor 'auto'" % text)
    return text


def _repeat(text: str) -> int:
    """--hostcb-repeat: hostcb's --repeat, 1 to 1000000."""
    if not (text.isdigit() and 1 <= int(text) <= 1000000):
        raise argparse.ArgumentTypeError("'%s' is not a number of runs from 1 to 1000000" % text)
    return int(text)


# hostcb's -j auto: one worker a core, at most this many a device (harness/app/options.hpp,
# kAutoWorkersPerDevice). xdist's workers share it: each gets its part (see _jobs_for).
_AUTO_WORKERS_PER_DEVICE = 8


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hostcb", "hostcb: CUDA host callbacks under graph replay, through a layer")
    group.addoption("--hostcb-layer", action=_Each, default=[], metavar="LAYER",
                    help="collect the scenarios through LAYER: a ready name (cuda_bindings:runtime), a layer module "
                         "(mypackage.mylayer or path/to/mylayer.py) or an adapter library; options after '@'. "
                         "Repeatable; a conftest.py's `hostcb_layers = [...]` adds its own, collected with its folder")
    group.addoption("--hostcb-filter", action=_Once, metavar="FILTER",
                    help="hostcb's --filter: 'POS[:POS][-NEG[:NEG]]' globs over ids")
    group.addoption("--hostcb-axis", action=_Each, default=[], metavar="NAME=VALUES",
                    help="hostcb's --axis: replace an axis's values (repeatable)")
    group.addoption("--hostcb-expectations", action=_Once, metavar="FILE",
                    help="hostcb's --expectations: known failures (xfail)")
    group.addoption("--hostcb-timeout", action=_Once, type=_seconds, metavar="SECONDS",
                    help="hostcb's --timeout per scenario (0.1 to 86400)")
    group.addoption("--hostcb-jobs", action=_Once, type=_jobs, metavar="N|auto",
                    help="hostcb's -j for each hostcb run (default: auto; under pytest-xdist each worker's share "
                         "of auto, so that all of them together start no more CUDA contexts than one run would)")
    group.addoption("--hostcb-repeat", action=_Once, type=_repeat, metavar="N",
                    help="hostcb's --repeat: run each scenario N times; an item is the worst of its runs")
    group.addoption("--hostcb-until-fail", action=_Flag, default=False,
                    help="hostcb's --until-fail: repeat until the first failure (at most --hostcb-repeat times)")
    group.addoption("--hostcb-binary", action=_Once, metavar="PATH",
                    help="the hostcb binary (default: $HOSTCB_BINARY, else the one this package carries)")
    group.addoption("--hostcb-json", action=_Once, metavar="PATH",
                    help="write hostcb's results of this session (every hostcb run, the xdist workers' too) to PATH "
                         "as one `hostcb run --json` document, for `hostcb report`")
    group.addoption("--hostcb-only", action=_Flag, default=False,
                    help="collect hostcb's items only: no test file is collected or imported (the layer's own "
                         "suite, a hostcb checkout in the workspace), as a CI job for hostcb's scenarios wants")
    group.addoption("--hostcb-require-gpu", action=_Flag, default=False,
                    help="fail the session (exit 1, with hostcb's reason) when no hostcb scenario ran because there "
                         "is no usable CUDA device (every item skipped, for want of one): for a job that must run on a "
                         "GPU, where a run of skips would pass")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "hostcb: a hostcb scenario through a layer (the hostcb plugin's items)")
    config.addinivalue_line("markers", "gpu: needs a usable CUDA device (every hostcb scenario)")
    config.pluginmanager.register(HostcbSession(config), "hostcb-session")
    if config.getoption("xmlpath", None):
        config.pluginmanager.register(JunitLayout(config), "hostcb-junit")


def _session(config: pytest.Config) -> "HostcbSession":
    return config.pluginmanager.get_plugin("hostcb-session")


def _collector_names(layers: List[str]) -> List[str]:
    """hostcb:LAYER for each layer: a file's name without its folder and suffix, the options
    kept. Files that would share a name keep as many of their last folders as tell them
    apart (hostcb:a/mylayer, hostcb:b/mylayer): no two layers share node ids."""
    def parts(layer: str) -> List[str]:
        name = layer.partition("@")[0]
        if "/" not in name and not name.endswith((".py", ".so")):
            return [name]  # a ready name or a module: as it is
        return os.path.splitext(os.path.normpath(name))[0].split(os.sep)

    def named(layer: str, depth: int) -> str:
        _, at, options = layer.partition("@")
        return "%s%s%s%s" % (_PREFIX, "/".join(parts(layer)[-depth:]), at, options)

    depth = [1] * len(layers)
    while True:
        names = [named(layer, d) for layer, d in zip(layers, depth)]
        clashing = [i for i, name in enumerate(names) if names.count(name) > 1 and depth[i] < len(parts(layers[i]))]
        if not clashing:
            return names
        for i in clashing:
            depth[i] += 1


def _one_spelling(layer: str) -> str:
    """A layer file by its real, absolute path (the options kept): ./a/x.py, a/x.py and
    /abs/a/x.py are one layer with one set of node ids, run once. A ready name or a module
    stays as it is."""
    path, at, options = layer.partition("@")
    if not os.path.isfile(path):
        return layer
    return os.path.realpath(path) + at + options


def _within(nodeid: str, selection: str) -> bool:
    """Whether a node id argument selects the node: itself or a node under it."""
    return nodeid == selection or nodeid.startswith(selection + "::")


class HostcbSession:
    """The plugin's state in one pytest process: the command line's layers, the node ids of
    theirs given as arguments, the results documents of the runs made (for --hostcb-json)
    and each item's hostcb status (for --hostcb-require-gpu); on the xdist controller, the
    workers' too, and the controller alone writes the file and judges the session."""

    def __init__(self, config: pytest.Config):
        self.config = config
        self.layers = list(dict.fromkeys(_one_spelling(layer) for layer in config.getoption("hostcb_layer")))
        self.names = _collector_names(self.layers)
        self.selected = self._take_node_ids(config)
        self.only = config.getoption("hostcb_only")
        if self.only and not self.layers:
            raise pytest.UsageError("--hostcb-only collects hostcb's items only, and no --hostcb-layer gives any")
        path = config.getoption("hostcb_json")
        self.json_path = os.path.abspath(path) if path is not None else None
        if self.json_path is not None:
            self._check_json_path(path)
        self.documents: List[Dict[str, Any]] = []  # this process's runs'
        self.worker_documents: Dict[str, List[Dict[str, Any]]] = {}  # the xdist controller's, by worker
        self.json_note = ""
        self.require_gpu = config.getoption("hostcb_require_gpu")
        self.outcomes: Dict[str, Any] = {}  # node id -> (hostcb's status or None, its reason), as reported
        self.gpu_note = ""
        self.warned: Set[str] = set()  # hostcb's warning lines already shown

    def _check_json_path(self, given: str) -> None:
        """Before anything runs, --hostcb-json is held to hostcb's own rules for report paths
        (no folder, device, FIFO or link; nothing that is not a hostcb report; not a file the
        session reads): hostcb check-reports says, in one line. Nor pytest's --junitxml."""
        os.makedirs(os.path.dirname(self.json_path), exist_ok=True)  # as pytest makes --junitxml's
        junitxml = getattr(self.config.option, "xmlpath", None)
        if junitxml and os.path.realpath(junitxml) == os.path.realpath(self.json_path):
            raise pytest.UsageError("--hostcb-json %s and --junitxml %s name the same file; each report needs its own"
                                    % (given, junitxml))
        inputs = [("layer file", layer.partition("@")[0]) for layer in self.layers
                  if os.path.isfile(layer.partition("@")[0])]
        expectations = self.config.getoption("hostcb_expectations")
        if expectations:
            inputs.append(("expectations file", expectations))
        try:
            check_report_paths([("JSON report", given)], inputs, self.config.getoption("hostcb_binary"))
        except UsageError as e:
            raise pytest.UsageError("--hostcb-json: %s" % e) from None

    def _take_node_ids(self, config: pytest.Config) -> List[str]:
        """The arguments that are node ids of the command line's layers, taken off pytest's
        (they name no file: pytest would refuse them). One that looks like one but names no
        layer given is a usage error that says which option is missing."""
        args = list(config.args)
        ours = [a for a in args if any(_within(a, name) for name in self.names)]
        if ours:
            config.args = [a for a in args if a not in ours]
        for arg in config.args:
            root = arg.split("::")[0]
            if root.startswith(_PREFIX) and not os.path.exists(root):
                name = root[len(_PREFIX):]
                # A node id names a file's layer by its stem, which imports as nothing: say both forms.
                raise pytest.UsageError("%s names a layer no --hostcb-layer gives: add --hostcb-layer with the layer "
                                        "it names, a ready name or module as it is (%s), a layer file by its path "
                                        "(PATH/%s.py)" % (arg, name, name.rsplit("/", 1)[-1]))
        return ours

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config,
                                      items: List[pytest.Item]) -> None:
        # First, so that -k, -m, --deselect and --lf select among these items too. genitems
        # reports a layer that cannot be listed as a collection error, as for a broken file.
        found: List[pytest.Item] = []
        failed = session.testsfailed
        for layer, name in zip(self.layers, self.names):
            found += session.genitems(LayerCollector.from_parent(session, name=name, nodeid=name, layer=layer))
        if self.selected:
            missing = [s for s in self.selected if not any(_within(i.nodeid, s) for i in found)]
            if missing and session.testsfailed == failed:
                raise pytest.UsageError("not found: %s" % " ".join(missing))
            found = [i for i in found if any(_within(i.nodeid, s) for s in self.selected)]
        items.extend(found)
        _keyword.select(config, items, lambda item: isinstance(item, ScenarioItem))

    def pytest_ignore_collect(self, collection_path, config: pytest.Config) -> Optional[bool]:
        """--hostcb-only: no folder or file is collected, so no test module is imported (one
        that exits at import ends pytest's collection); the layers' items are added after."""
        return True if self.only else None

    def pytest_collect_file(self, file_path, parent: pytest.Collector) -> Optional[pytest.Collector]:
        """A conftest.py with `hostcb_layers`: a node of its own, whose children are its layers."""
        if file_path.name != "conftest.py":
            return None
        for plugin in self.config.pluginmanager.get_plugins():
            module_file = getattr(plugin, "__file__", None)
            if module_file and os.path.realpath(module_file) == os.path.realpath(str(file_path)):
                if hasattr(plugin, "hostcb_layers"):
                    return ConftestLayers.from_parent(parent, path=file_path, layers=plugin.hostcb_layers)
        return None

    def add(self, run: Run) -> None:
        self.documents += run.documents

    def warn(self, lines) -> None:
        """hostcb's warnings as pytest's (its warnings summary), each once a process."""
        for line in lines:
            if line not in self.warned:
                self.warned.add(line)
                warnings.warn(HostcbWarning(line), stacklevel=2)

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node, error) -> None:
        """On the xdist controller: a worker's results documents (sent in its workeroutput)."""
        output = getattr(node, "workeroutput", None) or {}
        self.worker_documents[getattr(getattr(node, "gateway", None), "id", str(node))] = list(
            output.get("hostcb_documents", []))

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Each item's hostcb status, from its setup report (the xdist workers' too, on the controller)."""
        if report.when == "setup" and getattr(report, "hostcb_id", None) is not None:
            self.outcomes[report.nodeid] = (getattr(report, "hostcb_status", None), getattr(report, "hostcb_reason", ""))

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if _xdist.is_worker(self.config):  # the controller judges the session and writes the file
            if self.json_path is not None:
                self.config.workeroutput["hostcb_documents"] = self.documents  # type: ignore[attr-defined]
            return
        if self.require_gpu:
            self._require_gpu(session)
        if self.json_path is not None:
            self._write_json()

    def _require_gpu(self, session: pytest.Session) -> None:
        """--hostcb-require-gpu: when hostcb items were run and every one was skipped, some
        of them for want of a GPU (the others excluded), nothing ran because there is no GPU:
        the session fails, with hostcb's reason. An item whose run gave no result counts as
        run (it is an error already); items that ran with skips beside them pass, as ever."""
        outcomes = list(self.outcomes.values())
        no_device = [reason for status, reason in outcomes
                     if status == Status.SKIPPED.value and reason.startswith(_NO_DEVICE)]
        if not no_device or any(status != Status.SKIPPED.value for status, _ in outcomes):
            return
        self.gpu_note = "hostcb: --hostcb-require-gpu: no hostcb scenario ran (%d of %d skipped for want of a GPU): %s" % (
            len(no_device), len(outcomes), no_device[0])
        if session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def _write_json(self) -> None:
        documents = self.documents + [d for worker in sorted(self.worker_documents) for d in self.worker_documents[worker]]
        if not documents:
            self.json_note = "hostcb: no hostcb run in this session: %s not written" % self.json_path
            return
        document = merged_documents(documents)
        folder = os.path.dirname(self.json_path)
        with tempfile.NamedTemporaryFile("w", dir=folder, prefix=".hostcb-", suffix=".json", delete=False,
                                         encoding="utf-8") as f:
            json.dump(document, f, indent=2)
        # The mode hostcb gives its own reports: an existing file's, else 0644 (a temporary
        # file is made 0600).
        try:
            mode = os.stat(self.json_path).st_mode & 0o7777
        except FileNotFoundError:
            mode = 0o644
        os.chmod(f.name, mode)
        os.replace(f.name, self.json_path)  # whole or not at all, as hostcb writes its own
        self.json_note = "hostcb: wrote %s: %d results of %d hostcb runs" % (
            self.json_path, len(document["results"]), len(documents))

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if self.json_note:
            terminalreporter.write_line(self.json_note)
        if self.gpu_note:
            terminalreporter.write_line(self.gpu_note, red=True, bold=True)


class ScenarioProblem(Exception):
    """A result that is not a pass, with the text pytest shows for it."""

    def __init__(self, result: Result, *more: Result):
        super().__init__(result.reason)
        self.text = "\n".join("hostcb: %s %s (%.3f s)\n%s" % (r.status.value.upper(), r.id, r.seconds, r.describe())
                              for r in (result,) + more)


class ConftestLayers(pytest.File):
    """The layers a conftest.py names (`hostcb_layers = [...]`), as children of its file:
    pytest collects them where it collects that folder, and runs them again by node id. A
    layer the command line gives too is left to it."""

    def __init__(self, *, layers, **kwargs):
        super().__init__(**kwargs)
        self.layers = layers

    def collect(self) -> List["LayerCollector"]:
        layers = self.layers
        if isinstance(layers, str) or not isinstance(layers, (list, tuple)) or not all(
                isinstance(layer, str) and layer for layer in layers):
            raise HostcbError("hostcb_layers must be a list of layers (non-empty strings), not %r" % (layers,))
        layers = [self._from_here(layer) for layer in layers]
        layers = [layer for layer in dict.fromkeys(layers) if layer not in _session(self.config).layers]
        return [LayerCollector.from_parent(self, name=name, layer=layer)
                for layer, name in zip(layers, _collector_names(layers))]

    def _from_here(self, layer: str) -> str:
        """A layer file's relative path is the conftest's folder's, as an import in it would be,
        not pytest's working folder's (issue 43, item 10); a ready name or a module stays."""
        path, at, options = layer.partition("@")
        if os.path.isabs(path) or ("/" not in path and not path.endswith((".py", ".so"))):
            return layer
        return _one_spelling(os.path.join(os.path.dirname(str(self.path)), path) + at + options)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, HostcbError):
            return "%s: %s" % (self.nodeid, excinfo.value)
        return super().repr_failure(excinfo)


class LayerCollector(pytest.Collector):
    """One layer: its scenarios, listed by hostcb, a collector per family, and the results of
    the runs made for them."""

    def __init__(self, *, layer: str, **kwargs):
        super().__init__(**kwargs)
        self.layer = layer
        self.add_marker("hostcb")
        self.results: Dict[str, object] = {}  # scenario id -> Result, or the HostcbError its run raised
        # A run's own bad results (family "hostcb": a host-function call after its scenario
        # ended that no scenario can be named for), by the last item of that run: they fail
        # it at its teardown, so the session is red, under pytest-xdist too.
        self.run_problems: Dict[str, List[Result]] = {}

    def _option(self, name: str):
        return self.config.getoption(name)

    def _run_arguments(self) -> List[str]:
        """hostcb run's -j, --repeat and --until-fail. Under xdist, unless --hostcb-jobs says,
        each of W workers asks for auto's 1/W (at least 1): W runs at once then start about as
        many CUDA contexts as one run of -j auto would, not W times as many. With -x, one
        worker (run_ids: the first failure in order stops the run)."""
        arguments: List[str] = []
        jobs = self._option("hostcb_jobs")
        if jobs is not None:
            arguments += ["-j", jobs]
        elif _xdist.is_worker(self.config) and self.config.option.maxfail != 1:
            auto = min(os.cpu_count() or 1, _AUTO_WORKERS_PER_DEVICE)
            arguments += ["-j", str(max(1, auto // _xdist.worker_count(self.config)))]
        if self._option("hostcb_repeat") is not None:
            arguments += ["--repeat", str(self._option("hostcb_repeat"))]
        if self._option("hostcb_until_fail"):
            arguments.append("--until-fail")
        return arguments

    def collect(self) -> List["FamilyCollector"]:
        self.invocation = Invocation.make(self.layer, self._option("hostcb_binary"))
        listing = _list(self.invocation, self.layer, self._option("hostcb_filter"), self._option("hostcb_axis"))
        families: Dict[str, List[Scenario]] = {}
        for scenario in listing:
            families.setdefault(scenario.family, []).append(scenario)
        for family in families:  # a marker per family, registered: no warning, --strict-markers passes
            self.config.addinivalue_line("markers", "%s: hostcb's %s family" % (family, family))
        return [FamilyCollector.from_parent(self, name=family, scenarios=scenarios)
                for family, scenarios in families.items()]

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, HostcbError):
            return "%s: %s" % (self.name, excinfo.value)
        return super().repr_failure(excinfo)

    def _batch(self, item: "ScenarioItem") -> List["ScenarioItem"]:
        """The items of this layer, not run yet, that this process will run with `item`:
        without pytest-xdist every one; on an xdist worker those xdist has handed it (the
        whole scope or group under --dist loadscope, loadfile or loadgroup, what has come so
        far under load and worksteal), else the item alone."""
        items = self.session.items

        def mine(index: int) -> bool:
            other = items[index]
            return isinstance(other, ScenarioItem) and other.layer is self and other.scenario.id not in self.results

        if not _xdist.is_worker(self.config):
            return [i for n, i in enumerate(items) if mine(n)]
        handed = _xdist.take(self.config, mine)
        return [items[n] for n in handed] if handed else [item]

    def result_for(self, item: "ScenarioItem") -> Result:
        if item.scenario.id not in self.results:
            ids = [i.scenario.id for i in self._batch(item)]
            try:
                run: Optional[Run] = run_ids(self.invocation, ids, axes=self._option("hostcb_axis"),
                                             expectations=self._option("hostcb_expectations"),
                                             fail_fast=self.config.option.maxfail == 1,
                                             timeout=self._option("hostcb_timeout"), arguments=self._run_arguments())
            except HostcbError as e:
                self.results.update((i, e) for i in ids)
                run = None
            if run is not None:
                _session(self.config).add(run)
                _session(self.config).warn(run.warnings)
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


class FamilyCollector(pytest.Collector):
    """A family's scenarios of a layer, marked with the family's name and `gpu`."""

    def __init__(self, *, scenarios: List[Scenario], **kwargs):
        super().__init__(**kwargs)
        self.scenarios = scenarios
        self.add_marker(self.name)
        self.add_marker("gpu")

    def collect(self) -> List["ScenarioItem"]:
        prefix = self.name + "/"
        return [ScenarioItem.from_parent(self, name=s.id[len(prefix):] if s.id.startswith(prefix) else s.id,
                                         scenario=s, layer=self.parent) for s in self.scenarios]


class ScenarioItem(pytest.Item):
    """One scenario. Setup gets its result (running the batch it is in): an error is raised
    there, a skip skips; xfail and xpass put a strict xfail mark on the item. The call then
    fails for a failure (and an xfail, which the mark turns into pytest's xfail)."""

    def __init__(self, *, scenario: Scenario, layer: LayerCollector, **kwargs):
        super().__init__(**kwargs)
        self.scenario = scenario
        self.layer = layer
        self.result: Optional[Result] = None

    def setup(self) -> None:
        result = self.result = self.layer.result_for(self)
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
        problems = self.layer.run_problems.pop(self.scenario.id, None)
        if problems:
            raise ScenarioProblem(*problems)

    def reportinfo(self):
        return self.path, None, self.nodeid


def _own_seconds(item: ScenarioItem, report: pytest.TestReport) -> None:
    """An item's duration (JUnit's time, --durations) is its scenario's seconds, as hostcb
    measured them, in the phase that ends it: the setup of a skip or an error, else the
    call; the batch's wall time, spent in the setup of its first item, is no item's, nor
    is pytest's own in the other phases. An item whose run gave no result keeps pytest's
    measure."""
    result = item.result
    if result is None:
        return
    ending = "setup" if result.status in (Status.SKIPPED, Status.ERROR) else "call"
    report.duration = result.seconds if report.when == ending else 0.0


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Generator[None, Any, None]:
    """hostcb's text for an item's problem, in setup (an error) or the call (a failure), in
    place of a traceback through this plugin; a skip is shown at the layer, not at this
    file; the report carries the family and id (for the JUnit file) and its seconds."""
    outcome = yield
    report = outcome.get_result()
    if not isinstance(item, ScenarioItem):
        return
    report.hostcb_family = item.scenario.family
    report.hostcb_id = item.scenario.id
    if item.result is not None:  # for --hostcb-require-gpu, on the process that judges the session
        report.hostcb_status, report.hostcb_reason = item.result.status.value, item.result.reason
    _own_seconds(item, report)
    if call.excinfo is None:
        return
    problem = call.excinfo.value
    if report.failed and isinstance(problem, ScenarioProblem):
        report.longrepr = problem.text
    elif report.failed and isinstance(problem, HostcbError):
        said = str(problem)  # hostcb's own line already begins "hostcb: "
        report.longrepr = said if said.startswith("hostcb: ") else "hostcb: " + said
    elif report.skipped and isinstance(report.longrepr, tuple):
        report.longrepr = (item.layer.nodeid, None, report.longrepr[2])
