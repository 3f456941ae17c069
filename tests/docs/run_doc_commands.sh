#!/usr/bin/env bash
# The documentation's test (CTest: tst_doc_commands). For README.md and every docs/*.md, in order:
#   - runs each command of its ```sh blocks that starts with build/app/mh-explorer-cli (with the
#     given CLI in its place), backslash-continued lines joined and comment lines dropped, in a
#     fresh scratch directory per file (later commands read what earlier ones wrote), unless the
#     block follows a line `<!-- doc-test: skip (reason) -->`; every skip must give its reason.
#     Other commands in the blocks (bash scripts/..., cmake, apt-get) are not run;
#   - checks that the block after `<!-- doc-test: run-help -->` in docs/cli.md is exactly the
#     output of `mh-explorer-cli run --help`, so the settings table there cannot drift;
#   - checks that every relative link `](path)` or `](path#anchor)` outside code blocks leads to
#     an existing file, and an anchor into a Markdown file to one of its headings.
# Fails naming the file, the command and its output; the last line is
#   doc commands: N passed, M failed, K skipped
#
# usage: run_doc_commands.sh CLI SOURCE_DIR
# The scratch directories stand in for the repository root: each links resources/ from
# SOURCE_DIR, so the examples' paths work as written. Correction tables and design grids go to
# $MHX_CACHE_DIR, or to a cache in the scratch directory when it is not set.
set -uo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 CLI SOURCE_DIR" >&2
  exit 2
fi
cli=$1
src=$(cd "$2" && pwd) || { echo "no source directory $2" >&2; exit 2; }
case "$cli" in /*) ;; *) cli="$PWD/$cli" ;; esac
if [ ! -x "$cli" ]; then
  echo "the CLI $cli is not built (cmake --build build --target mh-explorer-cli)" >&2
  exit 2
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export MHX_CACHE_DIR="${MHX_CACHE_DIR:-$scratch/cache}"
started=$(date +%s)
runner=()
command -v timeout > /dev/null && runner=(timeout 600)

passed=0 failed=0 skipped=0 problems=0
cli_word=build/app/mh-explorer-cli
quoted_cli=$(printf '%q' "$cli")

problem() { # problem FILE MESSAGE
  echo "FAILED: $1: $2"
  problems=$((problems + 1))
}

# run_command REL DIR COMMAND: one documented CLI command, in DIR.
run_command() {
  local rel=$1 dir=$2 command=$3 out t0 rc
  out="$scratch/output"
  t0=$(date +%s)
  (cd "$dir" && "${runner[@]}" bash -c "$quoted_cli${command#"$cli_word"}") > "$out" 2>&1
  rc=$?
  if [ "$rc" -eq 0 ]; then
    passed=$((passed + 1))
    echo "ok ($(( $(date +%s) - t0 )) s)  $rel: $command"
  else
    failed=$((failed + 1))
    echo "FAILED: $rel: exit code $rc from"
    echo "    $command"
    echo "  its output (last 40 lines):"
    tail -n 40 "$out" | sed 's/^/    | /'
  fi
}

# slug TEXT: the anchor a heading gets (GitHub's rule: lower case, punctuation dropped,
# spaces to hyphens).
slug() {
  printf '%s' "$1" | LC_ALL=C tr 'A-Z' 'a-z' \
    | LC_ALL=C sed -E 's/(–|—|▸|·|…|’|‘|“|”|→|←|×|≤|≥|≈)//g; s/[^a-z0-9 _\x80-\xff-]//g; s/ /-/g'
}

# anchors FILE: every heading's anchor in FILE, one a line (repeats get -1, -2, ...).
anchors() {
  local line fence=0 text s
  declare -A seen=()
  while IFS= read -r line || [ -n "$line" ]; do
    if [[ $line =~ ^[[:space:]]*\`\`\` ]]; then fence=$((1 - fence)); continue; fi
    [ "$fence" -eq 1 ] && continue
    if [[ $line =~ ^#{1,6}[[:space:]]+(.*)$ ]]; then
      text=${BASH_REMATCH[1]}
      text=$(sed -E 's/[[:space:]]+#+[[:space:]]*$//; s/[[:space:]]+$//' <<< "$text")
      s=$(slug "$text")
      if [ -n "${seen[$s]+x}" ]; then
        seen[$s]=$((seen[$s] + 1))
        echo "$s-${seen[$s]}"
      else
        seen[$s]=0
        echo "$s"
      fi
    fi
  done < "$1"
}

# check_links FILE REL: relative links outside code blocks must lead to files (and headings).
check_links() {
  local file=$1 rel=$2 dir line fence=0 target path anchor
  dir=$(dirname "$file")
  while IFS= read -r line || [ -n "$line" ]; do
    if [[ $line =~ ^[[:space:]]*\`\`\` ]]; then fence=$((1 - fence)); continue; fi
    [ "$fence" -eq 1 ] && continue
    while IFS= read -r target; do
      [ -z "$target" ] && continue
      target=${target#](}
      target=${target%)}
      target=${target%% *}          # a link title
      target=${target#<}
      target=${target%>}
      case "$target" in http://* | https://* | mailto:* | '') continue ;; esac
      path=${target%%#*}
      anchor=""
      [[ $target == *"#"* ]] && anchor=${target#*#}
      if [ -z "$path" ]; then
        path=$(basename "$file")     # an anchor in this file
      fi
      if [ ! -e "$dir/$path" ]; then
        problem "$rel" "the link ($target) leads to no file ($path, relative to $(dirname "$rel"))"
      elif [ -n "$anchor" ] && [[ $path == *.md ]] && ! grep -qxF -- "$anchor" <<< "$(anchors "$dir/$path")"; then
        problem "$rel" "the link ($target): $path has no heading with the anchor #$anchor"
      fi
    done < <(grep -oE '\]\([^)]*\)' <<< "$line")
  done < "$file"
}

# check_run_help FILE REL: the fenced block after the run-help marker is `run --help`'s output.
check_run_help() {
  local file=$1 rel=$2 expected documented
  documented=$(awk '
    /^<!-- doc-test: run-help -->$/ { marker = 1; next }
    marker == 1 && /^```/ { marker = 2; next }
    marker == 2 && /^```/ { exit }
    marker == 2 { print }
  ' "$file")
  if [ -z "$documented" ]; then
    problem "$rel" "no fenced block after <!-- doc-test: run-help -->"
    return
  fi
  expected=$("$cli" run --help 2>&1)
  if [ "$documented" != "$expected" ]; then
    problem "$rel" "the run --help block differs from the program's output (< documented, > program):"
    diff <(printf '%s\n' "$documented") <(printf '%s\n' "$expected") | sed 's/^/    /' | head -n 40
    echo "    rewrite the block from the program: bash scripts/update_cli_reference.sh"
  fi
}

files=("$src/README.md")
for f in "$src"/docs/*.md; do [ -e "$f" ] && files+=("$f"); done

help_checked=0
for file in "${files[@]}"; do
  rel=${file#"$src/"}
  dir="$scratch/run/${rel//\//_}"
  mkdir -p "$dir"
  ln -s "$src/resources" "$dir/resources"

  check_links "$file" "$rel"
  if grep -qx '<!-- doc-test: run-help -->' "$file"; then
    check_run_help "$file" "$rel"
    help_checked=1
  fi

  in_sh=0 in_other=0 pending="" block_skip="" joined="" lineno=0
  while IFS= read -r line || [ -n "$line" ]; do
    lineno=$((lineno + 1))
    if [ "$in_sh" -eq 0 ] && [ "$in_other" -eq 0 ]; then
      if [[ $line =~ ^\<!--\ doc-test:\ skip ]]; then
        if [[ $line =~ ^\<!--\ doc-test:\ skip\ \((.*[^[:space:]].*)\)\ --\>$ ]]; then
          pending=${BASH_REMATCH[1]}
        else
          problem "$rel" "line $lineno: a skip needs its reason: <!-- doc-test: skip (reason) -->"
        fi
        continue
      fi
      if [[ $line =~ ^[[:space:]]*\`\`\`(sh|bash|shell)[[:space:]]*$ ]]; then
        in_sh=1 block_skip=$pending pending="" joined=""
        continue
      fi
      if [[ $line =~ ^[[:space:]]*\`\`\` ]]; then
        in_other=1
        [ -n "$pending" ] && problem "$rel" "line $lineno: a skip marker before a block that is not \`\`\`sh"
        pending=""
        continue
      fi
      if [ -n "$pending" ] && [[ $line =~ [^[:space:]] ]]; then
        problem "$rel" "line $lineno: a skip marker not followed by a \`\`\`sh block"
        pending=""
      fi
      continue
    fi
    if [[ $line =~ ^[[:space:]]*\`\`\`[[:space:]]*$ ]]; then
      [ "$in_sh" -eq 1 ] && [ -n "$joined" ] && problem "$rel" "line $lineno: the block ends in a continued line"
      in_sh=0 in_other=0
      continue
    fi
    [ "$in_other" -eq 1 ] && continue

    # Inside a ```sh block: join continued lines, drop comments and blank lines.
    if [ -z "$joined" ] && [[ $line =~ ^[[:space:]]*(#|$) ]]; then
      continue
    fi
    if [[ $line =~ \\$ ]]; then
      joined+="${line%\\} "
      continue
    fi
    command="$joined$line"
    joined=""
    command=$(sed -E 's/^[[:space:]]+//; s/[[:space:]]+/ /g' <<< "$command")
    case "$command" in
      "$cli_word" | "$cli_word "*) ;;
      *) continue ;;  # not the CLI: not run
    esac
    if [ -n "$block_skip" ]; then
      skipped=$((skipped + 1))
      echo "skipped ($block_skip)  $rel: $command"
    else
      run_command "$rel" "$dir" "$command"
    fi
  done < "$file"
  [ -n "$pending" ] && problem "$rel" "a skip marker at the end of the file"
done

[ "$help_checked" -eq 1 ] || problem "docs/cli.md" "no <!-- doc-test: run-help --> block: the settings table is unchecked"

echo "$problems other problems (links, the run --help block, markers); $(( $(date +%s) - started )) s"
echo "doc commands: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$problems" -eq 0 ]
