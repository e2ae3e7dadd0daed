"""CuPy's cupy.cuda.runtime.launchHostFunc(stream, callback, arg).

What CuPy keeps (cupy_backends/cuda/api/runtime.pyx, v14.2.0): a (callback, arg) tuple,
Py_INCREF'd at the launch and Py_DECREF'd by its trampoline _HostFnFunc in the first call.
Its own comment says it "should not be called during CUDA graph capture, as the reference to
the callback/arg will be DECREFed on the first callback"; Stream.launch_host_func switched to
_launchHostFuncUnmanaged under capture (PR #9279), this public function did not.
`arg` is an intptr_t, so the callback gets userData back as an int.
"""
import cupy

from hostcb_layers import _cfuncs

NAME = "cupy_runtime"


def launch_host_func(stream, fn, user_data):
    c_fn = _cfuncs.host_fn(fn)

    def host_func(arg):
        c_fn(arg)

    cupy.cuda.runtime.launchHostFunc(stream, host_func, user_data)
    return 0


def versions():
    return _cfuncs.package_versions("cupy-cuda13x", "cupy-cuda12x", "cupy")


def describe():
    return "%s: cupy.cuda.runtime.launchHostFunc" % (
        _cfuncs.first_installed("cupy-cuda13x", "cupy-cuda12x", "cupy") or "cupy")
