"""The `hostcb` command a wheel installs: the binary in this package, with the same
arguments (it replaces this process, so exit codes and signals are the binary's own)."""
import os
import sys

from ._binary import binary
from ._results import HostcbError


def main() -> None:
    try:
        path = binary()
    except HostcbError as e:
        sys.exit("hostcb: %s" % e)
    os.execv(path, [path] + sys.argv[1:])
