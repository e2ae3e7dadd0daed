#!/usr/bin/env bash
# Downloads, for a machine without network (the GPU machine: CPython 3.12, manylinux x86_64),
# the wheels that building and testing the hostcb wheel there needs and its image lacks or
# has in another version: the build backend (scikit-build-core and what it imports), the
# pytest plugin's companion (pytest-xdist, execnet), and cuda-bindings 13.5.0 (the release
# with the replay fix) with cuda-pathfinder. Each goes to DIR/build/ or DIR/layer/.
# Usage: scripts/device-wheels.sh [DIR]   (default .whl; keep it ignored, e.g. in .git/info/exclude)
set -euo pipefail
dir="${1:-.whl}"
platforms=()
for n in 28 27 17; do platforms+=(--platform "manylinux_2_${n}_x86_64"); done
platforms+=(--platform manylinux2014_x86_64 --platform manylinux1_x86_64 --platform any)
get() {  # SUBFOLDER NAME==VERSION...
  local sub="$1"
  shift
  python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    "${platforms[@]}" -d "$dir/$sub" "$@"
}
# Building: scikit-build-core and what it imports on 3.12.
get build scikit-build-core==1.1.2 packaging==26.3 pathspec==1.1.1
# Testing: pytest-xdist for `pytest -n 4` (pytest, pluggy and iniconfig are in the image).
get build pytest-xdist==3.8.0 execnet==2.1.2
# The layer: cuda-bindings 13.5.0 and the cuda-pathfinder it asks for.
get layer cuda-bindings==13.5.0 cuda-pathfinder==1.9.1
ls -1 "$dir"/build "$dir"/layer
du -sh "$dir"
