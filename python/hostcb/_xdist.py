"""What the pytest plugin needs from a pytest-xdist worker: which items xdist has handed it.

A worker collects every item, but runs only those the controller sends it, a few indices
into session.items at a time (all of a scope at once under --dist loadscope, loadfile and
loadgroup; chunks under load; an equal share, less what others steal, under worksteal). The
plugin runs a layer's items in one `hostcb run` at the first of them, so it must know which
of them are this worker's: the one running, the next one and the queue (xdist's
WorkerInteractor: item_index, nextitem_index, torun). xdist has no public API for this;
where its internals are not as expected, `take` gives None and the plugin runs each item
alone, which is slow but right.

Under worksteal the controller may take back items still queued. Those this worker has
already run in a batch must stay with it (their results are here; run elsewhere they would
run twice), so once the plugin takes items it refuses a steal of any of them, with the
answer xdist's own steal gives when it finds none of them (none stolen). A lock of the
plugin's own, held around a steal and around reading and claiming the queue, keeps the two
apart; the queue itself is read under its own lock (xdist's TestQueue, 3.7 on, or the
queue.Queue of earlier releases).
"""
from __future__ import annotations

import threading
from typing import Callable, List, Optional, Set, Tuple

import pytest


def is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def worker_count(config: pytest.Config) -> int:
    """How many xdist workers share this machine (1 outside xdist)."""
    if not is_worker(config):
        return 1
    try:
        return max(1, int(config.workerinput.get("workercount", 1)))
    except (TypeError, ValueError):
        return 1


def _interactor(config: pytest.Config):
    for plugin in config.pluginmanager.get_plugins():
        if type(plugin).__name__ == "WorkerInteractor" and hasattr(plugin, "torun"):
            return plugin
    return None


def take(config: pytest.Config, wanted: Callable[[int], bool]) -> Optional[List[int]]:
    """On an xdist worker, inside the run of an item: the indices into session.items that
    xdist has handed this worker and it has not finished, in the order it will run them,
    for which `wanted(index)` holds; they are this worker's from now on (a steal of them is
    refused). None when xdist's worker is not one this knows."""
    interactor = _interactor(config)
    if interactor is None or not isinstance(getattr(interactor, "item_index", None), int):
        return None
    claimed, lock = _guard_steals(interactor)
    with lock:  # no steal between reading the queue and claiming from it
        queued = _queued(interactor.torun)  # a steal of an older xdist replaces torun: read it here
        if queued is None:
            return None
        handed = [interactor.item_index, getattr(interactor, "nextitem_index", None)] + queued
        mine = [i for i in dict.fromkeys(handed) if isinstance(i, int) and wanted(i)]
        claimed.update(mine)
    return mine


def _queued(queue) -> Optional[List[object]]:
    """What xdist's queue of items to run holds now (indices, and markers that are no int)."""
    if callable(getattr(queue, "lock", None)):  # xdist's TestQueue (3.7 on)
        with queue.lock() as items:  # xdist's handler thread adds to it
            return list(items)
    if hasattr(queue, "mutex") and hasattr(queue, "queue"):  # a queue.Queue (before)
        with queue.mutex:
            return list(queue.queue)
    return None


def _guard_steals(interactor) -> Tuple[Set[int], "threading.RLock"]:
    """The indices this worker keeps and the lock that guards them, made once per worker:
    from then on a steal that asks for any of them gets none (xdist's answer when it finds
    none of them queued), and a steal runs under the lock."""
    guard = getattr(interactor, "_hostcb_guard", None)
    if guard is not None:
        return guard
    claimed: Set[int] = set()
    lock = threading.RLock()
    interactor._hostcb_guard = (claimed, lock)
    steal = getattr(interactor, "steal", None)
    if callable(steal) and callable(getattr(interactor, "sendevent", None)):
        def guarded(indices):
            with lock:
                if claimed.intersection(indices):
                    interactor.sendevent("unscheduled", indices=[])
                    return
                steal(indices)
        interactor.steal = guarded
    return claimed, lock
