from calls import record


class _CUstream(int):
    """cuda.bindings' CUstream, as numba-cuda-mlir's Stream.handle holds it: int() works, no .value."""


class Stream:
    def __init__(self, ptr):
        self.handle = _CUstream(ptr)

    def add_callback(self, callback, arg=None):
        record("numba_cuda_mlir.Stream.add_callback", self, callback, arg)


def external_stream(ptr):
    record("numba_cuda_mlir.external_stream", ptr)
    return Stream(ptr)
