"""hostcb's layer modules: one module per way a Python layer enqueues host work, each a
thin shim over that layer's public API implementing the module protocol of the
embedded-Python adapter (docs/adapters.md). `--adapter LAYER:ENTRY` loads
hostcb_layers/LAYER_ENTRY.py; modules whose names start with '_' are helpers."""
