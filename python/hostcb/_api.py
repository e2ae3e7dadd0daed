"""hostcb from Python: list and run scenarios by shelling out to the binary and reading its
JSON. The binary runs every scenario in worker processes it watches, so a layer that crashes
is a scenario's error, never the death of the Python calling this."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from ._binary import binary as find_binary
from ._layer import adapter_argument
from ._results import HostcbError, Listing, Result, Run, UsageError, listing_from_json, run_from_json

Axes = Union[Mapping[str, Union[str, int, Sequence[Union[str, int]]]], Sequence[str], None]

# hostcb reads the selection from its command line; Linux caps one argument at 128 KiB.
_FILTER_CHARS = 100_000


def _axis_arguments(axes: Axes) -> List[str]:
    """--axis name=v1,v2 for each axis: from {"replays": [1, 2]} or ["replays=1,2"]."""
    if not axes:
        return []
    if isinstance(axes, Mapping):
        texts = []
        for name, values in axes.items():
            if isinstance(values, (str, int)):
                values = [values]
            texts.append("%s=%s" % (name, ",".join(str(v) for v in values)))
    else:
        texts = list(axes)
    return [a for text in texts for a in ("--axis", text)]


@dataclass(frozen=True)
class Invocation:
    """How to call hostcb for one layer (or none): the binary, its --adapter arguments and
    the environment. The layer's Python is the one running this, importing modules as this
    one does (sys.path goes on PYTHONPATH), unless the layer's python= or HOSTCB_PYTHON names
    another: then only the layer file's folder is added, since another Python's sys.path
    (its standard library above all) is its own."""

    binary: str
    adapter: Tuple[str, ...]
    env: Mapping[str, str]

    @staticmethod
    def make(layer: Optional[str], binary: Optional[str] = None) -> "Invocation":
        path = find_binary(binary)
        env = dict(os.environ)
        if layer is None:  # '' is a layer with no name: adapter_argument refuses it
            return Invocation(path, (), env)
        argument = adapter_argument(layer, path)
        folders = list(argument.pythonpath)
        options = layer.partition("@")[2].split(",")
        if not env.get("HOSTCB_PYTHON") and not any(o.startswith("python=") for o in options):
            env["HOSTCB_PYTHON"] = sys.executable
            folders += [p for p in sys.path if p and os.path.isdir(p)]
        folders += [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
        env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(folders))  # in order, once each
        return Invocation(path, ("--adapter", argument.spec), env)

    def call(self, arguments: Sequence[str]) -> subprocess.CompletedProcess:
        command = [self.binary, *arguments[:1], *self.adapter, *arguments[1:]]
        try:
            done = subprocess.run(command, env=dict(self.env), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, universal_newlines=True)
        except OSError as e:
            raise HostcbError("cannot run %s: %s" % (self.binary, e)) from None
        if done.returncode == 2:  # refused before anything ran: hostcb's one line says why
            lines = [line for line in done.stderr.splitlines() if line.strip()]
            raise UsageError(lines[-1] if lines else "hostcb exited 2")
        return done


def check_report_paths(targets: Sequence[Tuple[str, str]], inputs: Sequence[Tuple[str, str]] = (),
                       binary: Optional[str] = None) -> None:
    """hostcb's own rules for report paths (`hostcb check-reports`), for a report this package
    writes: each target is (what, path), e.g. ("JSON report", "out.json"); each input a file
    the command reads. Raises UsageError with hostcb's one line for a path hostcb would refuse."""
    arguments = ["check-reports"]
    for what, path in targets:
        arguments += ["--target", "%s=%s" % (what, path)]
    for what, path in inputs:
        arguments += ["--input", "%s=%s" % (what, path)]
    done = Invocation.make(None, binary).call(arguments)
    if done.returncode != 0:
        raise HostcbError("hostcb check-reports exited %d: %s" % (done.returncode, done.stderr.strip()))


def _layer_only(listing: Listing) -> Listing:
    """The scenarios that go through the layer loaded (the last adapter): forward=its name."""
    if not listing.adapters:
        raise HostcbError("hostcb listed no adapter for the layer")
    name = listing.adapters[-1].name
    return Listing(tuple(s for s in listing.scenarios if s.params.get("forward") == name), listing.adapters)


def list_scenarios(layer: Optional[str] = None, *, filter: Optional[str] = None, axes: Axes = None,
                   binary: Optional[str] = None) -> Listing:
    """The scenarios hostcb would run: with `layer`, those that go through it (its forward
    axis value), narrowed by `filter` (hostcb's 'POS[:POS][-NEG[:NEG]]' globs) and `axes`
    ({"replays": [1, 2]}). Raises UsageError with hostcb's line for bad input."""
    return _list(Invocation.make(layer, binary), layer, filter, axes)


def _list(invocation: Invocation, layer: Optional[str], filter: Optional[str], axes: Axes) -> Listing:
    # None is "not given"; anything else, '' included, goes to hostcb, which refuses what it
    # refuses on its own command line (an empty filter: one line, UsageError).
    arguments = ["list", "--format", "json"] + (["--filter", filter] if filter is not None else []) + _axis_arguments(axes)
    done = invocation.call(arguments)
    if done.returncode != 0:
        raise HostcbError("hostcb list exited %d: %s" % (done.returncode, done.stderr.strip()[-500:]))
    try:
        listing = listing_from_json(json.loads(done.stdout))
    except (ValueError, KeyError, TypeError) as e:
        raise HostcbError("hostcb list printed no listing this package reads: %s" % e) from None
    return _layer_only(listing) if layer is not None else listing


def _exact(scenario_id: str) -> str:
    """A filter pattern matching `scenario_id`: '-' and ':' are the filter's separators, so
    they become '?' (one character); anything else that pattern matches is dropped by id."""
    return scenario_id.replace("-", "?").replace(":", "?")


def _chunks(ids: Sequence[str]) -> Iterable[List[str]]:
    chunk: List[str] = []
    size = 0
    for i in ids:
        if chunk and size + len(i) + 1 > _FILTER_CHARS:
            yield chunk
            chunk, size = [], 0
        chunk.append(i)
        size += len(i) + 1
    if chunk:
        yield chunk


def _worst(codes: Sequence[int]) -> int:
    """One exit code for several runs: an interrupt, then 1 (something failed), then 0
    (something passed), then 77 (nothing ran)."""
    for code in codes:
        if code not in (0, 1, 77):
            return code
    return 1 if 1 in codes else 0 if 0 in codes else 77


def _summed(total: Mapping[str, Any], more: Mapping[str, Any]) -> Dict[str, Any]:
    """Two runs' summaries as one: counts added, nested ones (each layer's) too."""
    out = dict(total)
    for key, value in more.items():
        if isinstance(value, Mapping):
            out[key] = _summed(out.get(key, {}), value)
        elif isinstance(value, int) and not isinstance(value, bool):
            out[key] = out.get(key, 0) + value
        else:
            out[key] = value
    return out


def run_ids(invocation: Invocation, ids: Sequence[str], *, axes: Axes = None, expectations: Optional[str] = None,
            fail_fast: bool = False, timeout: Optional[float] = None, arguments: Sequence[str] = ()) -> Run:
    """Runs exactly `ids` (as listed with the same axes) in as few hostcb runs as the
    command line allows; the results come back in `ids` order, each id with every result it
    has (one per --repeat pass and device), then the runs' own (family "hostcb")."""
    wanted = set(ids)
    results: Dict[str, List[Result]] = {}
    own: List[Result] = []  # results of a run itself, not of a scenario: they fail it too
    codes, outputs, environment = [], [], {}
    documents: List[Dict[str, Any]] = []
    summary: Dict[str, Any] = {}
    # As for list: None is "not given", every other value goes to hostcb to judge.
    options = _axis_arguments(axes) + (["--expectations", expectations] if expectations is not None else [])
    # -x with one worker: the first bad result in id order stops the run, as pytest's -x means;
    # workers side by side stop at whichever fails first, and the earlier items would be cut.
    own_jobs = any(a in ("-j", "--jobs") or a.startswith(("-j", "--jobs=")) for a in arguments)
    options += (["-x"] + ([] if own_jobs else ["-j", "1"]) if fail_fast else [])
    options += ["--timeout", str(timeout)] if timeout is not None else []
    options += list(arguments)
    with tempfile.TemporaryDirectory(prefix="hostcb-") as folder:
        for n, chunk in enumerate(_chunks(ids)):
            report = os.path.join(folder, "results-%d.json" % n)
            done = invocation.call(["run", "--filter", ":".join(_exact(i) for i in chunk), "--json", report] + options)
            outputs.append(done.stdout + done.stderr)
            if not os.path.isfile(report):
                raise HostcbError("hostcb run exited %s and wrote no results: %s"
                                  % (_exit_text(done.returncode), (done.stdout + done.stderr).strip()[-500:]))
            with open(report, encoding="utf-8") as f:
                run = run_from_json(json.load(f), done.returncode)
            documents += run.documents
            codes.append(done.returncode)
            environment, summary = run.environment, _summed(summary, run.summary)
            for r in run.results:
                if r.id in wanted:
                    results.setdefault(r.id, []).append(r)
                elif r.family == "hostcb":
                    own.append(r)
            if fail_fast and done.returncode == 1:
                break
    ordered = tuple(r for i in ids for r in results.get(i, ())) + tuple(own)
    return Run(_worst(codes), ordered, environment, summary, "".join(outputs), tuple(documents))


def _exit_text(code: int) -> str:
    return "by signal %d" % -code if code < 0 else "with %d" % code


def run(layer: Optional[str] = None, *, filter: Optional[str] = None, axes: Axes = None,
        expectations: Optional[str] = None, fail_fast: bool = False, timeout: Optional[float] = None,
        binary: Optional[str] = None, arguments: Sequence[str] = ()) -> Run:
    """Runs the scenarios `list_scenarios` names (with `layer`: those through it) and returns
    their results. `expectations` is an expectations file (xfail/xpass), `fail_fast` stops
    at the first failure, `timeout` is seconds per scenario, `arguments` go to `hostcb run`
    as they are. Raises UsageError with hostcb's line for bad input, HostcbError when
    hostcb wrote no results."""
    invocation = Invocation.make(layer, binary)
    ids = [s.id for s in _list(invocation, layer, filter, axes)]
    return run_ids(invocation, ids, axes=axes, expectations=expectations, fail_fast=fail_fast, timeout=timeout,
                   arguments=arguments)


def merged_documents(documents: Sequence[Mapping[str, Any]]) -> Dict[str, Any]:
    """Several `hostcb run --json` documents of one session (the runs a long list of ids
    took, a pytest session's batches and its xdist workers') as one, which `hostcb report`
    reads as one run: every result, in the order given; the summaries added up; the runs'
    seconds added up; the first run's start and environment (each run's own, one machine's)."""
    if not documents:
        raise HostcbError("no results documents to merge")
    merged = dict(documents[0])
    merged["results"] = [r for d in documents for r in d.get("results", [])]
    summary: Dict[str, Any] = {}
    for d in documents:
        summary = _summed(summary, d.get("summary", {}))
    merged["summary"] = summary
    if all(isinstance(d.get("seconds"), (int, float)) for d in documents):
        merged["seconds"] = sum(d["seconds"] for d in documents)
    return merged
