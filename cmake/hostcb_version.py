"""The wheel's version (pyproject.toml: scikit-build-core's version provider): the one the
binary reports, from the same rule, cmake/hostcb_git_revision.cmake run with -DPRINT=1 over
project()'s VERSION in CMakeLists.txt. PEP 440: BASE at a release tag, BASE.devN+gREV between
releases (see that file). Without cmake on PATH, BASE."""
import os
import re
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def base_version() -> str:
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        found = re.search(r"project\(hostcb VERSION ([0-9.]+)", f.read())
    if not found:
        raise ValueError("CMakeLists.txt names no project(hostcb VERSION ...)")
    return found.group(1)


def version() -> str:
    base = base_version()
    cmake = shutil.which("cmake")
    if not cmake:
        return base
    done = subprocess.run([cmake, "-DSOURCE_DIR=" + ROOT, "-DBASE=" + base, "-DPRINT=1",
                           "-DGIVEN=" + (os.environ.get("HOSTCB_GIT_REVISION") or "unknown"),
                           "-P", os.path.join(ROOT, "cmake", "hostcb_git_revision.cmake")],
                          capture_output=True, text=True)
    said = done.stdout.strip()
    if done.returncode != 0 or not said:
        raise RuntimeError("cmake/hostcb_git_revision.cmake gave no version: %s" % done.stderr.strip())
    return said


def dynamic_metadata(field, settings=None):
    if field != "version":
        raise ValueError("hostcb_version provides the version only, not %s" % field)
    return version()


if __name__ == "__main__":
    print(version())
