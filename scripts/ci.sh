#!/usr/bin/env bash
# The CI stages, in order, on whatever machine runs it (.ci/run runs it inside a brand-new
# Debian 12 when it can): the README's test command on the release build, the README's run
# command, and the example model plugin built against the installed package. CI must finish
# well inside its time on a cold two-core machine, so the longer checks (the build without Qt,
# the sanitizers, a mutant, the fuzz targets: scripts/extended_checks.sh) and the README's two
# commands in a brand-new Debian 13 are run before a change to a kernel, a reader or the build
# lands, not in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
export CI=true
stage() { printf '\n=== %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }
started=$(date +%s)

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

stage "all stages passed in $(( ($(date +%s) - started) / 60 )) min $(( ($(date +%s) - started) % 60 )) s"
total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<< "$summary")
failed=$(sed -E 's/.* ([0-9]+) tests failed.*/\1/' <<< "$summary")
echo "test suite: $((total - failed)) passed, $failed failed"
