#!/usr/bin/env bash
# Builds the Debian package of Minibatch MH Explorer into build-package/ and prints its path.
# Installs what it needs first (the build packages scripts/setup.sh lists, plus dpkg-dev for
# dpkg-shlibdeps and file, which CPack uses to find the programs' runtime libraries).
# The package is built for any x86-64 machine (MHX_NATIVE=OFF: no -march=native) and with no
# build-machine path compiled in (MHX_BUILD_TREE_DATA=OFF: the programs find their data
# relative to where they are installed). Install it with: apt-get install ./<printed path>
set -euo pipefail
cd "$(dirname "$0")/.."

# scripts/setup.sh holds the one list of build packages; read it from there so the two never
# drift apart.
eval "$(sed -n '/^packages=(/,/)/p' scripts/setup.sh)"
[ "${#packages[@]}" -gt 5 ] || { echo "package.sh: could not read the package list from scripts/setup.sh" >&2; exit 1; }
packages+=(dpkg-dev file)
source scripts/install_packages.sh
install_missing_packages "${packages[@]}"

werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
# Debian's hardening flags (fortified libc calls, stack protector, full RELRO, PIE), as a
# Debian build would pass them; -g and -O2 are dropped: CMake's Release flags set -O3, and
# the package is stripped.
export DEB_BUILD_MAINT_OPTIONS=hardening=+all
export CPPFLAGS="$(dpkg-buildflags --get CPPFLAGS)"
export CXXFLAGS="$CPPFLAGS $(dpkg-buildflags --get CXXFLAGS | sed -E 's/(^| )-g( |$)/ /; s/(^| )-O2( |$)/ /')"
export LDFLAGS="$(dpkg-buildflags --get LDFLAGS)"
# CMAKE_SKIP_INSTALL_ALL_DEPENDENCY: cpack then builds nothing itself; only the two programs
# and the packaged files are built below, not the tests and benchmarks.
cmake -S . -B build-package -G Ninja -DCMAKE_BUILD_TYPE=Release -DMHX_WERROR="$werror" \
  -DMHX_NATIVE=OFF -DMHX_BUILD_TREE_DATA=OFF -DCMAKE_INSTALL_PREFIX=/usr \
  -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON > build-package-configure.log 2>&1 \
  || { cat build-package-configure.log; exit 1; }
rm -f build-package-configure.log
cmake --build build-package -j "$(nproc)" --target mh-explorer mh-explorer-cli mhx_package_files
rm -f build-package/*.deb
(cd build-package && cpack -G DEB > cpack.log 2>&1) || { cat build-package/cpack.log; exit 1; }
deb=$(ls build-package/*.deb)
echo "package: $deb"
dpkg-deb --field "$deb" Package Version Architecture Depends
