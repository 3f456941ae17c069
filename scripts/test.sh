#!/usr/bin/env bash
# Sets up and builds (as scripts/setup.sh), then runs the whole test suite with CTest. Arguments
# go to ctest (`bash scripts/test.sh -R tst_glm` runs the suites of the regression models).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export QT_QPA_PLATFORM=offscreen
# Correction tables solved by the tests are cached per run, not in the user's cache.
export MHX_CACHE_DIR="$(mktemp -d)"
trap 'rm -rf "$MHX_CACHE_DIR"' EXIT
ctest --test-dir build --output-on-failure -j 2 "$@"
