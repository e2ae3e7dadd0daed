"""Fake numba: numba.cuda.external_stream(ptr).add_callback."""
from numba import cuda  # noqa: F401
