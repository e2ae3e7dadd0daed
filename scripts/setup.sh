#!/usr/bin/env bash
# Installs what hostcb builds with, from the distribution (Debian 12 or Ubuntu 24.04),
# and checks that a CUDA toolkit (12.0 or newer) is present. Safe to run again.
set -euo pipefail

packages=(cmake ninja-build g++ catch2 libcli11-dev libspdlog-dev libfmt-dev nlohmann-json3-dev libxml2-utils python3-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "hostcb setup: installing ${missing[*]} with ${sudo:+$sudo }apt-get (HOSTCB_SKIP_SETUP=1 skips this in build.sh and ci-steps.sh)"
  # A machine without network (a GPU machine set up by hand) may have these built from
  # source rather than from packages: then the build uses what it finds, and configure
  # names anything truly missing. xmllint alone is optional (scripts/build.sh).
  if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
           --no-install-recommends "${missing[@]}" >/dev/null; }; then
    echo "hostcb setup: could not install ${missing[*]} with apt-get; building with what this machine has" >&2
  fi
fi
for tool in cmake ninja g++; do
  command -v "$tool" >/dev/null 2>&1 || { echo "hostcb setup: $tool not found, and it could not be installed" >&2; exit 1; }
done

if ! command -v nvcc >/dev/null 2>&1 && [ ! -x "${CUDACXX:-/usr/local/cuda/bin/nvcc}" ]; then
  echo "hostcb setup: no CUDA toolkit found (nvcc not on PATH, no /usr/local/cuda/bin/nvcc)." >&2
  echo "Install the CUDA toolkit 12.0 or newer, or set CUDACXX to its nvcc." >&2
  exit 1
fi
