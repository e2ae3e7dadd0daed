"""numba-cuda-mlir's Stream.add_callback on numba_cuda_mlir.cuda.external_stream(ptr).

numba-cuda-mlir (0.6.0) carries numba-cuda's driver as numba_cuda_mlir/numba_cuda/cudadrv/
driver.py, Stream.add_callback and its trampoline unchanged: see _numba_streams. It has no
launch_host_func: scenarios that need one are excluded, naming it.
"""
from numba_cuda_mlir import cuda

from hostcb_layers import _cfuncs, _numba_streams

NAME = "numba_cuda_mlir_add_callback"


def add_stream_callback(stream, callback, user_data):
    return _numba_streams.add_stream_callback(cuda, stream, callback, user_data)


def versions():
    return _cfuncs.package_versions("numba-cuda-mlir", "cuda-bindings")


def describe():
    return "%s: numba_cuda_mlir.cuda.external_stream(ptr).add_callback" % (
        _cfuncs.first_installed("numba-cuda-mlir") or "numba-cuda-mlir")
