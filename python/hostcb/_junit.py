"""pytest's JUnit XML (--junitxml) for the plugin's items, written as hostcb's own --junit
writes a scenario: classname the family, name the rest of the id (the node id's last part),
and a skip's text `ID: REASON` (pytest writes `FILE:LINE: REASON`, and an item with no file
line read `hostcb:LAYER:None: ...`). pytest has no public hook for either: this sets them on
its junitxml plugin's record of the test case (LogXML.node_reporter), on the process that
writes the file (the xdist controller too), and leaves pytest's own where that has changed.
The times are the reports' durations, which the plugin sets (pytest_plugin._own_seconds)."""
from __future__ import annotations

from typing import Generator

import pytest

try:
    from _pytest.junitxml import bin_xml_escape, xml_key
except ImportError:  # a pytest without them: its own classname and text stay
    xml_key = None


def _reporter(config: pytest.Config, report: pytest.TestReport):
    xml = config.stash.get(xml_key, None) if xml_key is not None else None
    return xml.node_reporter(report) if xml is not None and hasattr(xml, "node_reporter") else None


class JunitLayout:
    """Registered by the plugin when --junitxml is given. A report of one of its items
    carries hostcb_family and hostcb_id (set where it is made, sent by xdist with it)."""

    def __init__(self, config: pytest.Config):
        self.config = config

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> Generator[None, None, None]:
        family = getattr(report, "hostcb_family", None)
        reporter = _reporter(self.config, report) if family is not None else None
        if reporter is not None and hasattr(reporter, "attrs"):
            # Set before junitxml records the report: it keeps attributes set before it.
            reporter.add_attribute("classname", family)
        yield
        if reporter is None or not report.skipped or hasattr(report, "wasxfail"):
            return
        for node in reversed(getattr(reporter, "nodes", [])):
            if getattr(node, "tag", None) == "skipped" and isinstance(report.longrepr, tuple):
                reason = str(report.longrepr[2])
                reason = reason[len("Skipped: "):] if reason.startswith("Skipped: ") else reason
                node.text = bin_xml_escape("%s: %s" % (report.hostcb_id, reason))
                break
