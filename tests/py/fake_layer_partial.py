"""A layer module with two of the protocol's operations (launch_host_func and
add_stream_callback): the adapter must leave the others NULL, so hostcb excludes the
scenarios that need them. No NAME: the forward-axis name is the module's own."""
from fake_layer import add_stream_callback, launch_host_func  # noqa: F401
