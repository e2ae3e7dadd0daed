"""The C functions hostcb passes, as Python callables (ctypes), and the package versions.

A wrapper made here is handed to the layer and dropped by the module: whether it stays alive
for as long as CUDA may call it is up to the layer, as it is for the layer's users.
"""
import ctypes
import importlib.metadata

from hostcb_layers import _environment

HOST_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
STREAM_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)


def host_fn(fn):
    """The C host function at address fn (void fn(void *)) as a ctypes function pointer."""
    return HOST_FN(fn)


def stream_callback(callback):
    """The C stream callback at address callback (void cb(void *, int, void *))."""
    return STREAM_CALLBACK(callback)


def package_versions(*names):
    """{name: version} for each installed distribution in names, and python."""
    return _environment.versions(*names)


def first_installed(*names):
    """The first of names that is installed, for describe(); None if none is."""
    for name in names:
        try:
            return "%s %s" % (name, importlib.metadata.version(name))
        except importlib.metadata.PackageNotFoundError:
            continue
    return None
