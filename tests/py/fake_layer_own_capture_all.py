"""fake_layer_own_capture with every operation of the protocol: only its LAUNCH_SCOPE keeps
hostcb from launching through it outside its own capture (fuzz plans such a layer as any other)."""
from fake_layer import *  # noqa: F401,F403

LAUNCH_SCOPE = "own_capture"
