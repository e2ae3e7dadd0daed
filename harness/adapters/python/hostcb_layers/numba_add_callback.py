"""numba-cuda's Stream.add_callback on numba.cuda.external_stream(ptr).

What numba-cuda keeps (numba_cuda/numba/cuda/cudadrv/driver.py, 0.30.4): a
(stream, callback, arg) tuple, Py_IncRef'd and passed by id() as userData to
cuStreamAddCallback; its ctypes trampoline _stream_callback calls callback(stream, status,
arg) and Py_DecRefs the tuple in `finally`, i.e. after the first call. Stream callbacks run
once and cannot be captured. async_done() is add_callback with a callback that resolves an
asyncio future on a running loop: it calls no user function with userData, so it has no
place in this protocol.

It has no launch_host_func: scenarios that need one are excluded, naming it.
"""
from numba import cuda

from hostcb_layers import _cfuncs

NAME = "numba_add_callback"


def _handle(numba_stream):
    # A ctypes handle (numba's own binding) has .value; cuda.bindings' CUstream is an int.
    handle = numba_stream.handle
    return handle.value if hasattr(handle, "value") else int(handle)


def add_stream_callback(stream, callback, user_data):
    c_callback = _cfuncs.stream_callback(callback)

    def on_done(numba_stream, status, arg):
        c_callback(_handle(numba_stream), status, arg)

    cuda.external_stream(stream).add_callback(on_done, user_data)
    return 0


def versions():
    return _cfuncs.package_versions("numba-cuda", "numba", "cuda-bindings")


def describe():
    return "%s: numba.cuda.external_stream(ptr).add_callback" % (
        _cfuncs.first_installed("numba-cuda") or "numba-cuda")
