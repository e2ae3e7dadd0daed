"""A layer module whose host functions exist only in graphs it captures itself, and only on
the stream its capture began on (as cuda.core's graph builder, which forks with its own
API): LAUNCH_SCOPE = "own_capture_stream", so hostcb must also exclude every launch on a
side stream forked into that capture, naming it."""
from fake_layer import begin_capture, end_capture, launch_host_func  # noqa: F401

LAUNCH_SCOPE = "own_capture_stream"
