#!/usr/bin/env bash
# Installs every Debian 12 package Apertura needs to build, test and run. Idempotent: packages
# already present are skipped, so README commands and CI can call it every time.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev libqt6opengl6-dev libgl-dev
  libvtk9-dev libfftw3-dev libeigen3-dev casacore-dev casacore-data casacore-tools
  libcfitsio-dev wcslib-dev nlohmann-json3-dev libcli11-dev libtbb-dev
  xvfb xauth python3-casacore clang-format clang-tidy
  # The external reference imager for the agreement tests (label external).
  wsclean
  # Distributed runs (apertura_mpi, tests label mpi): Open MPI's headers/libraries and mpirun.
  libopenmpi-dev openmpi-bin
  # Packaging (CPack's .deb and the packaging test): dependencies from shared libraries,
  # ELF inspection, and validators of the package and its desktop integration files.
  dpkg-dev file lintian desktop-file-utils appstream shared-mime-info
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
echo "install-deps: installing ${missing[*]}"
"${sudo_cmd[@]}" apt-get update
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
