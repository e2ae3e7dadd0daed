"""hostcb's layer modules: one module per public way a layer enqueues host work.

Each module follows the Python layer-module protocol of hostcb's embedded-Python adapter
(harness/adapters/python_adapter.cpp): module-level functions named after the adapter ABI
members (launch_host_func, begin_capture, end_capture, ...), versions(), describe() and NAME.
A module calls its layer's public API exactly as that layer's users do and keeps nothing the
layer should keep: that is what hostcb tests.
"""
