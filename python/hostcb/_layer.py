"""A layer, as a user names it, turned into hostcb's --adapter argument:

  cuda_bindings:runtime[@OPTIONS]   a ready name (a module hostcb ships): passed as it is
  path/to/libmylayer.so[@OPTIONS]   a C or C++ adapter: passed as it is
  path/to/mylayer.py[@OPTIONS]      a layer module file: its folder goes on PYTHONPATH
  mypackage.mylayer[@OPTIONS]       a layer module importable by the Python running this

A module runs through the embedded-Python adapter beside the binary, as
`LIBRARY@module=NAME[,OPTIONS]` (docs/adapters.md)."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Tuple

from ._binary import python_adapter
from ._results import UsageError

_READY = re.compile(r"[A-Za-z0-9_]+:[A-Za-z0-9_]+")  # hostcb's own rule (cuda/adapter_names.cpp)
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


@dataclass(frozen=True)
class AdapterArgument:
    spec: str                         # what follows --adapter
    pythonpath: Tuple[str, ...] = ()  # folders the layer module needs on PYTHONPATH


def adapter_argument(layer: str, binary_path: str) -> AdapterArgument:
    name, at, options = layer.partition("@")
    if not name:
        raise UsageError("layer '%s': no name before '@'" % layer)
    if os.path.isfile(name) and not name.endswith(".py"):
        return AdapterArgument(layer)
    if _READY.fullmatch(name):
        return AdapterArgument(layer)
    folders: Tuple[str, ...] = ()
    if name.endswith(".py"):
        if not os.path.isfile(name):
            raise UsageError("layer '%s': no such file %s" % (layer, name))
        folders = (os.path.dirname(os.path.abspath(name)),)
        name = os.path.basename(name)[:-3]
    if not _MODULE.fullmatch(name):
        raise UsageError("layer '%s': neither a ready name (LAYER:ENTRY), an adapter library, a .py file nor a "
                         "module name" % layer)
    library = python_adapter(binary_path)
    return AdapterArgument("%s@module=%s%s" % (library, name, "," + options if at and options else ""), folders)
