#!/usr/bin/env bash
# Installs what ascsim needs from Debian's packages (PyPI is not used), only if missing: apt-get
# writes to the system, so it needs root (it uses sudo when not run as root). Nothing is installed
# when everything is already there.
set -euo pipefail
PACKAGES=(
  g++ cmake make
  libgtest-dev libgmock-dev libbenchmark-dev libhwy-dev libeigen3-dev
  pybind11-dev python3-dev python3-pybind11
  python3-numpy python3-pytest python3-pytest-xdist python3-hypothesis python3-matplotlib
  python3-venv python3-pip python3-setuptools
  valgrind
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install_deps: installing missing Debian packages (needs root: apt-get): ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
