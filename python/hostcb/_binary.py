"""Where the hostcb binary and its adapters are. A wheel carries the binary in the package
(bin/hostcb, the adapters in lib/hostcb/: the layout `cmake --install` makes, with the
package as its prefix); HOSTCB_BINARY names another one, a build tree's say."""
from __future__ import annotations

import os
from typing import Optional

from ._results import HostcbError

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def prefix() -> str:
    """The installation prefix inside the package: bin/, lib/hostcb/, include/hostcb/ and
    lib/cmake/hostcb/ (give it to CMake as CMAKE_PREFIX_PATH for find_package(hostcb))."""
    return PACKAGE_DIR


def binary(explicit: Optional[str] = None) -> str:
    """The hostcb binary: `explicit`, else $HOSTCB_BINARY, else the one in this package."""
    # binary='' is refused like any path that names nothing; an empty HOSTCB_BINARY is unset.
    for origin, path in (("binary=", explicit), ("HOSTCB_BINARY=", os.environ.get("HOSTCB_BINARY") or None)):
        if path is not None:
            if not (os.path.isfile(path) and os.access(path, os.X_OK)):
                raise HostcbError("%s%s: no such executable" % (origin, path))
            return path
    bundled = os.path.join(PACKAGE_DIR, "bin", "hostcb")
    if os.path.isfile(bundled):
        return bundled
    raise HostcbError("no hostcb binary: this hostcb package carries none (%s); set HOSTCB_BINARY to one" % bundled)


def python_adapter(binary_path: str) -> str:
    """The embedded-Python adapter library that goes with `binary_path`, looked for where
    hostcb looks for it: $HOSTCB_ADAPTER_DIR, beside the binary (a build tree), then
    ../lib/hostcb (an installation)."""
    here = os.path.dirname(os.path.abspath(binary_path))
    folders = [os.environ.get("HOSTCB_ADAPTER_DIR") or "", here, os.path.join(here, "..", "lib", "hostcb")]
    for folder in filter(None, folders):
        library = os.path.join(folder, "libhostcb_python_runtime.so")
        if os.path.isfile(library):
            return os.path.normpath(library)
    raise HostcbError("no libhostcb_python_runtime.so in any of %s (set HOSTCB_ADAPTER_DIR)" % ", ".join(filter(None, folders)))
