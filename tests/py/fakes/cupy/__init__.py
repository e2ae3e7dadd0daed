"""Fake cupy: cupy.cuda.ExternalStream and cupy.cuda.runtime, as far as hostcb_layers uses them."""
from cupy import cuda  # noqa: F401
