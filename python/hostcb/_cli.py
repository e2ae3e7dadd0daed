"""The `hostcb` command a wheel installs: the binary in this package, with the same
arguments (it replaces this process, so exit codes and signals are the binary's own). Python
layers it loads run in this Python, as the pytest plugin's and the API's do: in a venv, the
venv's, with what is installed there (HOSTCB_PYTHON, or an adapter's python=, names another)."""
import os
import sys

from ._binary import binary
from ._results import HostcbError


def main() -> None:
    try:
        path = binary()
    except HostcbError as e:
        sys.exit("hostcb: %s" % e)
    if not os.environ.get("HOSTCB_PYTHON") and sys.executable:
        os.environ["HOSTCB_PYTHON"] = sys.executable
    os.execv(path, [path] + sys.argv[1:])
