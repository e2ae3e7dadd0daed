"""`-k` in a session with hostcb's items.

pytest matches each name of a -k expression as a substring of any of an item's names, and
its grammar has no '=' (it is -m's, for keyword arguments). For hostcb's ids both go wrong:
`-k replays=2` is a syntax error, and `-k replay` selects every scenario with a `replays=`
axis, whatever its family. So where hostcb items were collected the plugin evaluates -k
itself, with pytest's own parser:

- '=' may be written: the expression goes to the parser with _EQUALS in its place (a
  character its names may hold), and each name gets its '=' back before it is matched;
- a hostcb item matches a name (case aside, as pytest's) that is a whole word of it: one or
  more whole '/'-separated parts of its scenario id (`replay`, `replays=2`,
  `replay/api=runtime`, the whole id), an axis's value alone (`driver`, as in
  `api=driver`), its layer (`hostcb:cuda_bindings:runtime` or `cuda_bindings:runtime`), a
  marker of it (`hostcb`, `gpu`, the family) or the name of a node above it (a folder,
  `conftest.py`); never a piece of one (`replay` is no word of `replays=2`, `update` none
  of `case=exec_update`);
- any other item matches as pytest would match it.

Then it deselects what the expression does not select (telling pytest_deselected, as
pytest does) and clears the option, so that pytest's own -k pass, which would match hostcb's
items by substring again, has nothing left to do.
"""
from __future__ import annotations

from typing import Callable, List, Set

import pytest
from _pytest.mark import KeywordMatcher
from _pytest.mark.expression import Expression

try:
    from _pytest.mark.expression import ParseError
except ImportError:  # pytest 9: SyntaxError
    ParseError = SyntaxError  # type: ignore[misc,assignment]

_EQUALS = "\\"  # '=' while pytest parses: its names may hold a backslash, and no id has one
PREFIX = "hostcb:"  # a layer's collector is named hostcb:LAYER
_DIRECTORY = getattr(pytest, "Directory", ())  # pytest 8 on: folders are nodes (pytest leaves out the root's)


def select(config: pytest.Config, items: List[pytest.Item], is_scenario: Callable[[pytest.Item], bool]) -> None:
    """Apply -k to `items` (in place) if any of them is a hostcb item (`is_scenario`)."""
    expression = (config.option.keyword or "").strip()
    if not expression or not any(is_scenario(item) for item in items):
        return
    try:
        compiled = Expression.compile(expression.replace("=", _EQUALS))
    except (SyntaxError, ParseError) as e:  # pytest 9 raises the one, earlier ones the other; worded as pytest's
        raise pytest.UsageError("Wrong expression passed to '-k': %s: %s" % (expression, e)) from None
    kept, dropped = [], []
    for item in items:
        matches = _scenario_matcher(item) if is_scenario(item) else _pytest_matcher(item)
        (kept if compiled.evaluate(matches) else dropped).append(item)
    config.option.keyword = ""  # done here: pytest's pass would undo the whole-word matching
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def _name(name: str, kwargs) -> str:
    if kwargs:  # `-k 'name(x=1)'`, as pytest refuses it
        raise pytest.UsageError("Keyword expressions do not support call parameters.")
    return name.replace(_EQUALS, "=").lower()


def _pytest_matcher(item: pytest.Item):
    matcher = KeywordMatcher.from_item(item)
    return lambda name, **kwargs: matcher(_name(name, kwargs))


def _words(item: pytest.Item) -> Set[str]:
    """An item's names that are not its id's: as pytest takes them (the nodes above it but the
    session and the root folder, its markers), and its layer without the prefix."""
    words = set()
    for node in item.listchain():
        if isinstance(node, pytest.Session) or (isinstance(node, _DIRECTORY) and isinstance(node.parent, pytest.Session)):
            continue
        words.add(node.name)
        if node.name.startswith(PREFIX):
            words.add(node.name[len(PREFIX):])
    words.update(mark.name for mark in item.iter_markers())
    return {w.lower() for w in words}


def _scenario_matcher(item: pytest.Item):
    scenario_id = item.scenario.id.lower()  # type: ignore[attr-defined]
    words = _words(item) | {part.partition("=")[2] for part in scenario_id.split("/") if "=" in part}
    parts = "/%s/" % scenario_id

    def matches(name: str, **kwargs) -> bool:
        name = _name(name, kwargs)
        return name in words or "/%s/" % name in parts
    return matches
