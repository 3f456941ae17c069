#!/usr/bin/env bash
# Builds what works without Qt (a server or cluster machine): the core library, the CLI, the
# benchmarks and the core's test suites (Boost.Test), into build-core/. Installs only the
# non-Qt Debian packages that needs, runs every command of the documentation against the CLI
# built without Qt (tst_doc_commands: the part that differs from the full build; the core's
# suites are the same code as in scripts/test.sh's build, which runs them, so running them
# again here would only repeat its figures, and the CLI's own suites drive it through QtTest,
# so they exist only in the full build), then one short CLI run on the built-in Gaussian
# mixture. The GUI and its suites need scripts/setup.sh's full build. `ctest --test-dir
# build-core` runs every core suite of this build.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ ninja-build ccache libeigen3-dev libboost-dev libboost-test-dev zlib1g-dev nlohmann-json3-dev libcli11-dev)
source scripts/install_packages.sh
install_missing_packages "${packages[@]}"

werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
# CMAKE_DISABLE_FIND_PACKAGE_Qt6: even where Qt is installed, nothing in this build may use it.
cmake -S . -B build-core -G Ninja -DCMAKE_BUILD_TYPE=Release -DMHX_WERROR="$werror" \
  -DMHX_BUILD_GUI=OFF -DCMAKE_DISABLE_FIND_PACKAGE_Qt6=TRUE > build-core-configure.log 2>&1 \
  || { cat build-core-configure.log; exit 1; }
rm -f build-core-configure.log
cmake --build build-core -j "$(nproc)"

# Correction tables solved by the tests are cached per run, not in the user's cache.
export MHX_CACHE_DIR="$(mktemp -d)"
trap 'rm -rf "$MHX_CACHE_DIR"' EXIT
# --no-tests=error: a filter that matches nothing fails here instead of passing silently.
ctest --test-dir build-core --output-on-failure --no-tests=error -R '^tst_doc_commands$'

build-core/app/mh-explorer-cli run --dataset gmm --samples 1000
