"""A layer module with two of the protocol's operations (add_host_node and
add_stream_callback, and no launch_host_func, as a layer with stream callbacks only): the
adapter must leave the others NULL, so hostcb excludes the scenarios that need them. No
NAME: the forward-axis name is the module's own."""
from fake_layer import add_host_node, add_stream_callback  # noqa: F401
