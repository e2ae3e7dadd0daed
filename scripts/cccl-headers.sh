#!/usr/bin/env bash
# Puts newer CCCL headers (the ones with cuda::host_launch) in DEST/include, from the
# nvidia-cuda-cccl wheel on PyPI: the CUDA 13.0 toolkit bundles CCCL 3.0, which has no
# host_launch. Used by the build for the CCCL adapters (harness/adapters/cccl), which it
# skips with a message when this fails.
# Usage: scripts/cccl-headers.sh [DEST] [VERSION]
#   DEST     default build/cccl; the wheel is kept in DEST/wheels (a cache: a wheel already
#            there is used without network, so an offline machine can be given one)
#   VERSION  nvidia-cuda-cccl version, default 13.3.5.0.6 (CCCL 3.5.0)
# Prints the include folder on its last line. Needs python3 with pip (only for a download).
# The wheel comes through pip, from its own configured index; no host is named here.
set -euo pipefail
dest="${1:-build/cccl}"
version="${2:-13.3.5.0.6}"
if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
include="$dest/include"
if [ -f "$include/cuda/__launch/host_launch.h" ] && [ -f "$dest/.version" ] && [ "$(cat "$dest/.version")" = "$version" ]; then
  echo "$include"
  exit 0
fi
mkdir -p "$dest/wheels"
wheel="$(ls "$dest"/wheels/nvidia_cuda_cccl-"$version"-*.whl 2>/dev/null | head -1 || true)"
if [ -z "$wheel" ]; then
  echo "cccl-headers.sh: nvidia-cuda-cccl==$version through pip" >&2
  python3 -m pip download --quiet --no-deps --only-binary=:all: --retries 1 --timeout 20 \
    -d "$dest/wheels" "nvidia-cuda-cccl==$version" >&2
  wheel="$(ls "$dest"/wheels/nvidia_cuda_cccl-"$version"-*.whl | head -1)"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m zipfile -e "$wheel" "$work"
# The folder that holds cuda/, cub/, thrust/ and nv/ (nvidia/cu13/include/cccl in 13.3.x).
version_h="$(find "$work" -path '*/cuda/std/__cccl/version.h' | head -1)"
if [ -z "$version_h" ]; then echo "cccl-headers.sh: no CCCL headers in $wheel" >&2; exit 1; fi
root="${version_h%/cuda/std/__cccl/version.h}"
rm -rf "$include"
mkdir -p "$include"
cp -r "$root"/. "$include"/
echo "$version" >"$dest/.version"
if [ ! -f "$include/cuda/__launch/host_launch.h" ]; then
  echo "cccl-headers.sh: nvidia-cuda-cccl $version has no cuda/__launch/host_launch.h" >&2
  exit 1
fi
echo "cccl-headers.sh: CCCL $(sed -n 's/^#define CCCL_VERSION \([0-9]*\).*/\1/p' "$include/cuda/std/__cccl/version.h") in $include" >&2
echo "$include"
