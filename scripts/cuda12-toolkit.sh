#!/usr/bin/env bash
# Puts a CUDA 12.4 toolkit that can compile hostcb in DEST (default /opt/cuda-12.4), on a
# Debian or Ubuntu machine without one, from public packages:
#   Debian trixie's nvidia-cuda-toolkit .deb   nvcc, cudafe++, fatbinary, nvlink, ptxas,
#                                               cicc, libdevice
#   PyPI nvidia-cuda-nvcc-cu12 12.4.131         libnvvm, crt headers
#   PyPI nvidia-cuda-runtime-cu12 12.4.127      cuda_runtime_api.h, cuda.h, libcudart.so.12
# (hostcb needs no CCCL: thrust and cub are left out.)
# NVIDIA's PyPI wheels for 12.x carry no nvcc driver, and Debian's toolkit package needs
# nvidia-cuda-dev (900 MB); this takes what it needs. There is no static cudart: builds
# link libcudart.so.12, which the binary finds through its RPATH (or next to it).
#
# The .deb comes through apt, from the Debian mirror this machine's own apt configuration
# names (no host is written here): a throwaway apt state in a temporary folder whose one
# source is that mirror's trixie non-free, then `apt-get download` of the pinned version.
# On a machine whose apt names no Debian mirror (Ubuntu), set HOSTCB_DEBIAN_MIRROR to the
# URI of one. The wheels come through pip, from its own configured index.
# Usage: scripts/cuda12-toolkit.sh [DEST]; then cmake -C DEST/hostcb-cuda12.cmake ...
# (that file names the compiler and the toolkit and selects the shared cudart).
# Needs apt-get, python3 -m pip and dpkg-deb.
set -euo pipefail
dest="${1:-/opt/cuda-12.4}"
if [ -x "$dest/bin/nvcc" ]; then echo "CUDA 12.4 already in $dest"; exit 0; fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
version='12.4.131~12.4.1-2'

# The Debian mirror: the archive labelled "Debian" in apt's index targets (known once the
# machine has run apt-get update), else, on Debian, the source of the machine's own release.
mirror="${HOSTCB_DEBIAN_MIRROR:-}"
if [ -z "$mirror" ]; then
  mirror="$(apt-get indextargets --format '$(LABEL) $(REPO_URI)' 2>/dev/null | awk '$1 == "Debian" { print $2; exit }')"
fi
if [ -z "$mirror" ] && [ -r /etc/os-release ]; then
  # shellcheck disable=SC1091
  codename="$(. /etc/os-release && [ "${ID:-}" = debian ] && echo "${VERSION_CODENAME:-}")" || codename=
  if [ -n "$codename" ]; then
    mirror="$(apt-get indextargets --no-release-info --format '$(RELEASE) $(REPO_URI)' 2>/dev/null |
      awk -v c="$codename" '$1 == c { print $2; exit }')"
  fi
fi
if [ -z "$mirror" ]; then
  echo "cuda12-toolkit.sh: this machine's apt configuration names no Debian mirror; set HOSTCB_DEBIAN_MIRROR to one's URI" >&2
  exit 1
fi
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
signed_by=""
[ -r "$keyring" ] && signed_by="Signed-By: $keyring"
mkdir -p "$work/apt/sources.list.d" "$work/apt/preferences.d" "$work/apt/lists/partial" "$work/apt/cache/archives/partial"
cat >"$work/apt/sources.list.d/trixie.sources" <<SOURCES
Types: deb
URIs: $mirror
Suites: trixie
Components: non-free
$signed_by
SOURCES
apt_options=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$work/apt/sources.list.d"
  -o "Dir::Etc::PreferencesParts=$work/apt/preferences.d" -o "Dir::State::Lists=$work/apt/lists"
  -o "Dir::Cache=$work/apt/cache" -o "Dir::State::status=/dev/null" -o "APT::Sandbox::User=root")
echo "cuda12-toolkit.sh: nvidia-cuda-toolkit $version from $mirror (trixie non-free)"
apt-get "${apt_options[@]}" -qq update
(cd "$work" && apt-get "${apt_options[@]}" -qq download "nvidia-cuda-toolkit=$version")
deb="$(ls "$work"/nvidia-cuda-toolkit_*_amd64.deb)"
python3 -m pip download --quiet --no-deps -d "$work/wheels" \
  nvidia-cuda-nvcc-cu12==12.4.131 nvidia-cuda-runtime-cu12==12.4.127
dpkg-deb -x "$deb" "$work/deb"
for wheel in "$work"/wheels/*.whl; do python3 -m zipfile -e "$wheel" "$work/py"; done

mkdir -p "$dest/bin" "$dest/include" "$dest/lib64"
for tool in cudafe++ fatbinary nvlink ptxas bin2c; do cp "$work/deb/usr/bin/$tool" "$dest/bin/"; done
cp "$work/deb/usr/lib/nvidia-cuda-toolkit/bin/nvcc" "$dest/bin/"
cp -r "$work/deb/usr/lib/nvidia-cuda-toolkit/bin/crt" "$dest/bin/"
cp -r "$work/py/nvidia/cuda_nvcc/nvvm" "$dest/"
mkdir -p "$dest/nvvm/bin"
cp "$work/deb/usr/lib/nvidia-cuda-toolkit/bin/cicc" "$dest/nvvm/bin/"
cp -r "$work/deb/usr/lib/nvidia-cuda-toolkit/libdevice/." "$dest/nvvm/libdevice/"
for part in cuda_nvcc cuda_runtime; do cp -r "$work/py/nvidia/$part/include/." "$dest/include/"; done
cp "$work/py/nvidia/cuda_runtime/lib/libcudart.so.12" "$dest/lib64/"
ln -sf libcudart.so.12 "$dest/lib64/libcudart.so"
find "$dest" -name '__init__.py' -delete
chmod +x "$dest"/bin/nvcc "$dest"/bin/cudafe++ "$dest"/bin/fatbinary "$dest"/bin/nvlink "$dest"/bin/ptxas "$dest"/nvvm/bin/cicc
# nvcc finds its pieces through this file, relative to itself.
cat >"$dest/bin/nvcc.profile" <<'PROFILE'
TOP              = $(_HERE_)/..
NVVMIR_LIBRARY_DIR = $(TOP)/nvvm/libdevice
LD_LIBRARY_PATH += $(TOP)/lib64:
PATH            += $(TOP)/nvvm/bin:$(_HERE_):
INCLUDES        +=  "-I$(TOP)/include" $(_SPACE_)
LIBRARIES        =+ $(_SPACE_) "-L$(TOP)/lib64"
CUDAFE_FLAGS    +=
PTXAS_FLAGS     +=
PROFILE
cat >"$dest/hostcb-cuda12.cmake" <<CACHE
# cmake -C $dest/hostcb-cuda12.cmake: build hostcb with this CUDA 12.4 toolkit.
set(CMAKE_CUDA_COMPILER "$dest/bin/nvcc" CACHE FILEPATH "")
set(CUDAToolkit_ROOT "$dest" CACHE PATH "")
set(CMAKE_CUDA_FLAGS "--cudart=shared" CACHE STRING "")  # no libcudart_static.a here
set(HOSTCB_STATIC_CUDART OFF CACHE BOOL "")
set(CMAKE_CUDA_RUNTIME_LIBRARY Shared CACHE STRING "")  # also for the compiler checks
CACHE
"$dest/bin/nvcc" --version | tail -2
