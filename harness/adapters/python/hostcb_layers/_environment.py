"""What a layer module reports about the Python it runs in: versions and a describe line."""
import importlib.metadata
import platform
import sys


def installed(distribution):
    """The installed version of `distribution`, or None."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def versions(*distributions):
    """{"python": "3.x.y", distribution: version, ...} for those installed."""
    found = {"python": platform.python_version()}
    for distribution in distributions:
        version = installed(distribution)
        if version is not None:
            found[distribution] = version
    return found


def describe(what, *distributions):
    """One line: what is driven, the distributions' versions, and which Python."""
    parts = ["%s %s" % (d, installed(d)) for d in distributions if installed(d) is not None]
    parts.append("Python %s (%s)" % (platform.python_version(), sys.executable))
    return "%s; %s" % (what, "; ".join(parts))
