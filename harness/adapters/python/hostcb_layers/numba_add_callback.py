"""numba-cuda's Stream.add_callback on numba.cuda.external_stream(ptr).

What numba-cuda keeps (numba_cuda/numba/cuda/cudadrv/driver.py, 0.30.4): see
_numba_streams. Stream callbacks run once and cannot be captured. async_done() is
add_callback with a callback that resolves an asyncio future on a running loop: it calls no
user function with userData, so it has no place in this protocol.

It has no launch_host_func: scenarios that need one are excluded, naming it.
"""
from numba import cuda

from hostcb_layers import _cfuncs, _numba_streams

NAME = "numba_add_callback"


def add_stream_callback(stream, callback, user_data):
    return _numba_streams.add_stream_callback(cuda, stream, callback, user_data)


def versions():
    return _cfuncs.package_versions("numba-cuda", "numba", "cuda-bindings")


def describe():
    return "%s: numba.cuda.external_stream(ptr).add_callback" % (
        _cfuncs.first_installed("numba-cuda") or "numba-cuda")
