"""hostcb's layer modules: one module per public way a layer enqueues host work, each a thin
shim over that layer's public API implementing the module protocol of the embedded-Python
adapter (docs/adapters.md): module-level functions named after the adapter ABI members
(launch_host_func, begin_capture, end_capture, ...), versions(), describe() and NAME.
A module calls its layer exactly as that layer's users do and keeps nothing the layer should
keep: that is what hostcb tests. `--adapter LAYER:ENTRY` loads hostcb_layers/LAYER_ENTRY.py;
modules whose names start with '_' are helpers."""
