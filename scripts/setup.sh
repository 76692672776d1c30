#!/usr/bin/env bash
# Installs the Debian packages dlayout needs, if any is missing.
# Safe to run again: it does nothing when everything is there.
set -euo pipefail

packages=(
  build-essential gfortran cmake ninja-build pkg-config git
  llvm-19-dev llvm-19-tools llvm-19 clang-19 libclang-19-dev flang-19 libflang-19-dev
  libmlir-19-dev lld-19
  libclang-rt-19-dev
  libzstd-dev libz3-dev nlohmann-json3-dev libgtest-dev libcli11-dev libfmt-dev
  libopenmpi-dev openmpi-bin libsimgrid-dev libtcmalloc-minimal4 libgoogle-perftools-dev
  python3 python3-jsonschema
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages are installed"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install packages" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
