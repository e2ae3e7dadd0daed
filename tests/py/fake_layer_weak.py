"""A layer module that keeps what it will call only in a reference cycle nobody holds,
for testing that the adapter runs gc.collect() after each call. Launches outside a
capture call the function at once. Launches during a capture record it as a graph would,
in a record that refers to itself, and keep only a weak reference; end_capture then
"replays" every record still alive. The adapter's gc.collect() frees the records before
end_capture, so the function is never called: the scenario must fail. Without it they
would live on (automatic collection is off here so that only the adapter's gc.collect()
can free them) and the scenario would pass."""
import gc
import weakref

from fake_layer import HOST_FN
from fake_layer import launch_host_func as _call_at_once

NAME = "py_weak"
gc.disable()
_captured = None  # weak references to the records of the capture under way


class _Record:
    def __init__(self, fn, user_data):
        self.call = lambda: HOST_FN(fn)(user_data)
        self.myself = self  # a cycle, as closures and trampolines make


def launch_host_func(stream, fn, user_data):
    if _captured is None:
        return _call_at_once(stream, fn, user_data)
    _captured.append(weakref.ref(_Record(fn, user_data)))
    return 0


def begin_capture(stream, mode):
    global _captured
    _captured = []
    return 0


def end_capture(stream):
    global _captured
    for ref in _captured:
        record = ref()
        if record is not None:
            record.call()
    _captured = None
    return 0, 0x20
