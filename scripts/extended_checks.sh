#!/usr/bin/env bash
# The checks beyond CI's time, for a change to a kernel, a file reader or the build: the build
# without Qt (-DMHX_BUILD_GUI=OFF) with the documentation's commands run by its CLI, the
# address, leak and undefined-behaviour sanitizer stage on the core and CLI suites, one named
# mutant the core suites must kill (scripts/mutants.sh runs the whole list), and a short smoke
# run of every fuzz target. About 40 min on two cores with a cold compiler cache. Run after
# scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
# Warnings are errors here as in CI (MHX_WERROR=ON in each script under CI=true).
export CI=true
stage() { printf '\n=== %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }
started=$(date +%s)
# Paths under the checkout reach ccache relative to it, so that the mutant stage's scratch copy
# (build-mutants/, laid out as the checkout with its own build-core/) reuses the objects of
# the build without Qt and recompiles only the mutated file.
export CCACHE_BASEDIR="$(pwd)"

stage "the build without Qt: core, CLI and the documented commands run by it (bash scripts/build_core_only.sh)"
bash scripts/build_core_only.sh

stage "a named mutant the suites must kill: SMH without the 1/T on its residuals (bash scripts/mutants.sh --only smh-residual-no-1/T)"
bash scripts/mutants.sh --only smh-residual-no-1/T

stage "AddressSanitizer + LeakSanitizer + UndefinedBehaviorSanitizer: the core and CLI suites (bash scripts/sanitize.sh address core-ci)"
bash scripts/sanitize.sh address core-ci

stage "fuzz targets, a few seconds each"
bash scripts/fuzz.sh --smoke

stage "all extended checks passed in $(( ($(date +%s) - started) / 60 )) min $(( ($(date +%s) - started) % 60 )) s"
