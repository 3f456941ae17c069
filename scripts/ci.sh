#!/usr/bin/env bash
# Every CI stage, in order, on whatever machine runs it (.ci/run runs it inside a brand-new
# Debian 12 when it can): the README's test command on the release build, the README's run
# command, the example model plugin built against the installed package, the build without Qt (-DMHX_BUILD_GUI=OFF) and its CLI suites, the address, leak and undefined-behaviour sanitizer stage on the core and CLI
# suites (the whole suite runs clean too, but its instrumented GUI build does not fit CI's
# time on two cores: `bash scripts/sanitize.sh address`), one named mutant that the core suites
# must kill (scripts/mutants.sh runs the whole list), and a short smoke run of every fuzz target.
set -euo pipefail
cd "$(dirname "$0")/.."
export CI=true
stage() { printf '\n=== %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }
started=$(date +%s)
# Paths under the checkout reach ccache relative to it, so that the mutant stage's scratch copy
# (build-mutants/, laid out as the checkout with its own build-core/) reuses the objects of
# the build without Qt and recompiles only the mutated file.
export CCACHE_BASEDIR="$(pwd)"

stage "release build and the whole test suite: bash scripts/test.sh"
suite_log=$(mktemp)
bash scripts/test.sh 2>&1 | tee "$suite_log"
# ctest's "100% tests passed, 0 tests failed out of 31", restated at the very end.
summary=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests failed out of [0-9]+' "$suite_log" | tail -n 1)
rm -f "$suite_log"

stage "the main job as the README starts it: bash scripts/run.sh (no display: the CLI on the mixture)"
bash scripts/run.sh

stage "a model plugin built outside the tree against the installed package (bash scripts/plugin_example.sh)"
bash scripts/plugin_example.sh

stage "the build without Qt: core, CLI and the CLI's suites (bash scripts/build_core_only.sh)"
bash scripts/build_core_only.sh

stage "a named mutant the suites must kill: SMH without the 1/T on its residuals (bash scripts/mutants.sh --only smh-residual-no-1/T)"
bash scripts/mutants.sh --only smh-residual-no-1/T

stage "AddressSanitizer + LeakSanitizer + UndefinedBehaviorSanitizer: the core and CLI suites (bash scripts/sanitize.sh address core-ci)"
bash scripts/sanitize.sh address core-ci

stage "fuzz targets, a few seconds each"
bash scripts/fuzz.sh --smoke

stage "all stages passed in $(( ($(date +%s) - started) / 60 )) min $(( ($(date +%s) - started) % 60 )) s"
total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<< "$summary")
failed=$(sed -E 's/.* ([0-9]+) tests failed.*/\1/' <<< "$summary")
echo "test suite: $((total - failed)) passed, $failed failed"
