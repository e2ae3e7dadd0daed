"""CuPy's Stream.add_callback on a stream CuPy wraps (cupy.cuda.ExternalStream).

What CuPy keeps (cupy/cuda/stream.pyx, cupy_backends/cuda/api/runtime.pyx, v14.2.0):
add_callback wraps the user's callback in `f(stream, status, dummy)` that calls
`callback(self, status, arg)` (the Stream object, not the handle), and
runtime.streamAddCallback Py_INCREFs a (f, 0) tuple that its trampoline Py_DECREFs in the
first call: a stream callback runs once, and cudaStreamAddCallback cannot be captured.

It has no launch_host_func: scenarios that need one are excluded, naming it.
"""
import cupy

from hostcb_layers import _cfuncs

NAME = "cupy_add_callback"


def add_stream_callback(stream, callback, user_data):
    c_callback = _cfuncs.stream_callback(callback)

    def on_done(cupy_stream, status, arg):
        c_callback(cupy_stream.ptr, status, arg)

    cupy.cuda.ExternalStream(stream).add_callback(on_done, user_data)
    return 0


def versions():
    return _cfuncs.package_versions("cupy-cuda13x", "cupy-cuda12x", "cupy")


def describe():
    return "%s: cupy.cuda.ExternalStream(ptr).add_callback" % (
        _cfuncs.first_installed("cupy-cuda13x", "cupy-cuda12x", "cupy") or "cupy")
