"""A layer module whose host functions exist only in graphs it captures itself (as
cuda.core's graph builder): LAUNCH_SCOPE = "own_capture", so hostcb must exclude every
launch outside build=capture_by_layer, naming the scope, and never call it there."""
from fake_layer import begin_capture, end_capture, launch_host_func  # noqa: F401

LAUNCH_SCOPE = "own_capture"
