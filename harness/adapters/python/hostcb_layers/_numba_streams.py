"""The stream callback of numba-cuda's Stream API, which numba-cuda-mlir shares.

Both packages' cudadrv/driver.py define the same Stream.add_callback: it keeps a
(stream, callback, arg) tuple, Py_IncRef'd and passed by id() as userData to
cuStreamAddCallback, and its ctypes trampoline _stream_callback calls callback(stream,
status, arg) and Py_DecRefs the tuple in `finally`, i.e. after the first call.
"""
from hostcb_layers import _cfuncs


def _handle(layer_stream):
    # A ctypes handle (numba's own binding) has .value; cuda.bindings' CUstream is an int.
    handle = layer_stream.handle
    return handle.value if hasattr(handle, "value") else int(handle)


def add_stream_callback(cuda, stream, callback, user_data):
    """cuda.external_stream(stream).add_callback, calling the C callback with the stream
    the layer hands back (cuda: numba.cuda or numba_cuda_mlir.cuda)."""
    c_callback = _cfuncs.stream_callback(callback)

    def on_done(layer_stream, status, arg):
        c_callback(_handle(layer_stream), status, arg)

    cuda.external_stream(stream).add_callback(on_done, user_data)
    return 0
