"""Fake numba_cuda_mlir: numba_cuda_mlir.cuda.external_stream(ptr).add_callback."""
from numba_cuda_mlir import cuda  # noqa: F401
