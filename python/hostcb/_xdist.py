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
answer xdist's own steal gives when an item has already left the queue (none stolen). That
needs the queue xdist 3.6 brought (TestQueue, whose lock a steal holds); with an older
xdist's queue.Queue the items are read all the same, unguarded.
"""
from __future__ import annotations

from typing import Callable, List, Optional, Set

import pytest


def is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


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
    queue = interactor.torun

    def chosen(queued) -> List[int]:
        handed = [interactor.item_index, getattr(interactor, "nextitem_index", None)] + list(queued)
        return [i for i in dict.fromkeys(handed) if isinstance(i, int) and wanted(i)]

    if callable(getattr(queue, "lock", None)):  # xdist 3.6 on
        claimed: Set[int] = _guard_steals(interactor)
        with queue.lock() as queued:  # xdist's handler thread adds to it and steals from it
            mine = chosen(queued)
            claimed.update(mine)
        return mine
    if hasattr(queue, "mutex") and hasattr(queue, "queue"):  # an older xdist's queue.Queue
        with queue.mutex:
            return chosen(queue.queue)
    return None


def _guard_steals(interactor) -> Set[int]:
    """The set of indices this worker keeps, once per worker: a steal that asks for any of
    them gets none (xdist's answer when an item has left the queue)."""
    claimed = getattr(interactor, "_hostcb_claimed", None)
    if claimed is not None:
        return claimed
    claimed = interactor._hostcb_claimed = set()
    steal = getattr(interactor, "steal", None)
    if callable(steal) and callable(getattr(interactor, "sendevent", None)):
        def guarded(indices):
            with interactor.torun.lock():  # the lock take() holds: a steal sees all or none of a batch
                if claimed.intersection(indices):
                    interactor.sendevent("unscheduled", indices=[])
                    return
                steal(indices)
        interactor.steal = guarded
    return claimed
