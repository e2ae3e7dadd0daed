"""What hostcb reports, as typed Python values: the documents of `hostcb list --format json`
(format "hostcb-list") and `hostcb run --json` (format "hostcb-results", docs/reports.md)."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, Mapping, Optional, Tuple


class HostcbError(Exception):
    """hostcb could not do what was asked: no binary, no results written, a document it
    cannot read. The message is one line."""


class HostcbWarning(UserWarning):
    """A warning hostcb gave (its text is hostcb's line), shown in pytest's warnings summary."""


class UsageError(HostcbError):
    """hostcb refused the request before anything ran (its exit code 2): a bad filter, axis,
    adapter or layer. The message is hostcb's own line."""


class Status(str, enum.Enum):
    """A scenario's result. The four kinds never fold together; xfail and xpass come only
    from an expectations file."""

    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"
    SKIPPED = "skipped"
    XFAIL = "xfail"
    XPASS = "xpass"


@dataclass(frozen=True)
class Failure:
    """One failure carried out of a callback or the runner, shown as hostcb shows it:
    `[launch k] [thread] file:line: message`. `launch` is -1 for one found after the launches
    (a wrong count, say), `file` "" where no source line is known."""

    launch: int
    thread: str
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        text = "[launch %d] " % self.launch if self.launch >= 0 else ""
        text += "[%s] " % self.thread if self.thread else ""
        text += "%s:%d: " % (self.file, self.line) if self.file else ""
        return text + self.message


@dataclass(frozen=True)
class Result:
    """One scenario's result. `reason` is hostcb's message (a skip's reason, an error's
    cause, "at launch k of N" for a crash); `failures` are the failures it carried out,
    each with its launch index; `expectation` is the matching expectations entry for xfail
    and xpass."""

    id: str
    family: str
    params: Mapping[str, str]
    status: Status
    reason: str
    seconds: float
    failures: Tuple[Failure, ...] = ()
    failures_dropped: int = 0
    properties: Mapping[str, str] = field(default_factory=dict)
    expectation: str = ""
    iteration: int = 0             # which --repeat pass (1, 2, ...); 0 without --repeat
    device: Optional[int] = None   # the device, when one run covered several (--device all)

    def describe(self) -> str:
        """The reason and every failure, one a line: what the console prints for it."""
        lines = [self.reason] if self.reason else []
        lines += [str(f) for f in self.failures]
        if self.failures_dropped:
            lines.append("(%d more failure(s) dropped: the channel keeps the first %d)"
                         % (self.failures_dropped, len(self.failures)))
        return "\n".join(lines)


# hostcb's order of badness for several results of one scenario (its --repeat passes,
# its devices): the worst decides, as `hostcb result` and `hostcb report` decide
# (reports/results_file.cpp, worst_status).
_SEVERITY = {Status.ERROR: 5, Status.FAILED: 4, Status.XPASS: 3, Status.PASSED: 2, Status.XFAIL: 1, Status.SKIPPED: 0}


@dataclass(frozen=True)
class Run:
    """What one `hostcb run` gave: its exit code (0 passed, 1 failed/error/xpass, 77
    nothing ran), every result (each --repeat pass and device its own), the environment it
    recorded, its summary, and its console output. Results of the run itself (family
    "hostcb": a host-function call no scenario can be named for, say) come last."""

    exit_code: int
    results: Tuple[Result, ...]
    environment: Mapping[str, Any]
    summary: Mapping[str, int]
    output: str = ""
    # The documents the runs wrote (`hostcb run --json`), as read, one a run: what
    # merged_documents makes one file of for `hostcb report`.
    documents: Tuple[Mapping[str, Any], ...] = field(default=(), repr=False, compare=False)

    def __iter__(self) -> Iterator[Result]:
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    @property
    def warnings(self) -> Tuple[str, ...]:
        """hostcb's warning lines ("FILE:LINE: warning: ..."; an expectations entry that
        matches nothing, a layer version that is no PEP 440 version), each once, in order."""
        return tuple(dict.fromkeys(line.strip() for line in self.output.splitlines() if ": warning: " in line))

    def results_for(self, scenario_id: str) -> Tuple[Result, ...]:
        """Every result of `scenario_id`: one, or one per --repeat pass and device."""
        return tuple(r for r in self.results if r.id == scenario_id)

    def result(self, scenario_id: str) -> Optional[Result]:
        """The result of `scenario_id` (of several, the worst: a failing pass is never
        hidden behind one that passed), or None when the run has none."""
        found = self.results_for(scenario_id)
        return max(found, key=lambda r: _SEVERITY[r.status]) if found else None


@dataclass(frozen=True)
class Scenario:
    """One scenario of a listing. `excluded` is the reason a combination cannot run ("" when
    it can); `control` describes a known-bad control's expected end (None for a scenario)."""

    id: str
    family: str
    params: Mapping[str, str]
    excluded: str = ""
    control: Optional[str] = None
    timeout_s: float = 0.0


@dataclass(frozen=True)
class Adapter:
    """A loaded adapter: the forward-axis name it took, its file and what it drives."""

    name: str
    path: str
    describe: str


@dataclass(frozen=True)
class Listing:
    """What `hostcb list` gave: the scenarios, in hostcb's order, and the adapters loaded."""

    scenarios: Tuple[Scenario, ...]
    adapters: Tuple[Adapter, ...] = ()

    def __iter__(self) -> Iterator[Scenario]:
        return iter(self.scenarios)

    def __len__(self) -> int:
        return len(self.scenarios)


def _checked(document: Any, expected_format: str, versions: Tuple[int, ...]) -> Dict[str, Any]:
    if not isinstance(document, dict) or document.get("format") != expected_format:
        raise HostcbError("not a %s document" % expected_format)
    if document.get("format_version") not in versions:
        raise HostcbError("%s format_version %r; this hostcb package reads %s"
                          % (expected_format, document.get("format_version"), ", ".join(map(str, versions))))
    return document


def listing_from_json(document: Any) -> Listing:
    doc = _checked(document, "hostcb-list", (1,))
    scenarios = tuple(Scenario(id=s["id"], family=s["family"], params=dict(s["params"]), excluded=s.get("excluded", ""),
                               control=s.get("control"), timeout_s=float(s.get("timeout_s", 0.0)))
                      for s in doc["scenarios"])
    adapters = tuple(Adapter(name=a["name"], path=a["path"], describe=a["describe"]) for a in doc.get("adapters", []))
    return Listing(scenarios=scenarios, adapters=adapters)


def result_from_json(r: Mapping[str, Any]) -> Result:
    return Result(id=r["id"], family=r["family"], params=dict(r["params"]), status=Status(r["status"]),
                  reason=r["reason"], seconds=float(r["seconds"]),
                  failures=tuple(Failure(launch=f["launch"], thread=f["thread"], file=f["file"], line=f["line"],
                                         message=f["message"]) for f in r["failures"]),
                  failures_dropped=int(r.get("failures_dropped", 0)), properties=dict(r.get("properties", {})),
                  expectation=r.get("expectation") or "", iteration=int(r.get("iteration", 0)),
                  device=r.get("device"))


def run_from_json(document: Any, exit_code: int, output: str = "") -> Run:
    doc = _checked(document, "hostcb-results", (1, 2, 3))
    return Run(exit_code=exit_code, results=tuple(result_from_json(r) for r in doc["results"]),
               environment=doc.get("environment", {}), summary=doc.get("summary", {}), output=output,
               documents=(doc,))
