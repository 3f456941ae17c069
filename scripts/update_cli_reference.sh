#!/usr/bin/env bash
# Rewrites the settings table in docs/cli.md (the block after `<!-- doc-test: run-help -->`) from
# the built CLI's `run --help`, the output of the settings table itself. tst_doc_commands fails
# until this has been run after a setting's help text changed.
# usage: bash scripts/update_cli_reference.sh [CLI]   (default build/app/mh-explorer-cli)
set -euo pipefail
cd "$(dirname "$0")/.."
cli=${1:-build/app/mh-explorer-cli}
help=$(mktemp)
trap 'rm -f "$help" "$help.md"' EXIT
"$cli" run --help > "$help"
awk -v help="$help" '
  /^<!-- doc-test: run-help -->$/ { print; marker = 1; next }
  marker == 1 && /^```/ { print; while ((getline line < help) > 0) print line; marker = 2; next }
  marker == 2 { if (/^```$/) { print; marker = 0 } ; next }
  { print }' docs/cli.md > "$help.md"
mv "$help.md" docs/cli.md
echo "docs/cli.md: settings table rewritten from '$cli run --help'"
