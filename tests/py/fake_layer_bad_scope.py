"""A layer module whose LAUNCH_SCOPE is neither "anywhere" nor "own_capture": refused at init."""
from fake_layer import launch_host_func  # noqa: F401

LAUNCH_SCOPE = "sometimes"
