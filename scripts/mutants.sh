#!/usr/bin/env bash
# Named mutants that the core suites must kill. Each is a one-line change to the core that a
# reviewer fears (a 1/T dropped, a bound from a prefix of the data, the finite-population factor
# removed, a sign flipped in a control variate, the correction's σ doubled, R-hat without the
# split), applied to a scratch copy of the tree, never to the working tree. For each mutant the
# core test targets it names are built in one build directory of the scratch copy (no Qt, ccache
# on), the named suites (or test cases, suite/case) run, the line is put back, and a table says
# which test killed it with its first failing figure, or SURVIVED. Exit status 1 when a mutant
# survives, 2 when the list no longer fits the source (a target line not found, or found twice,
# or a mutant that does not build).
#
#   bash scripts/mutants.sh                  every mutant
#   bash scripts/mutants.sh --only NAME      one mutant (scripts/extended_checks.sh runs one as a smoke check)
#   bash scripts/mutants.sh --list           the names, files and tests
#   bash scripts/mutants.sh --check-list     the catalogue fits the tree (no build; a ctest runs it)
#   options: --head (copy the last commit instead of the working tree's tracked and untracked,
#            not ignored files), --scratch DIR (default build-mutants/, ignored by git; kept
#            between runs so that its build is incremental)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
shopt -u patsub_replacement 2>/dev/null || true # '&' in a replacement is a literal '&'
# The catalogue: tests/mutants/catalogue.txt, one block of name, file, tests, from and to per
# mutant (the file's head says their form).
catalogue="$root/tests/mutants/catalogue.txt"
names=() files=() tests=() originals=() replacements=()
catalogue_error() { echo "mutants.sh: $catalogue, line $1: $2" >&2; exit 2; }
read_catalogue() {
  local line number=0 name="" file="" tests_="" from="" to="" seen=0
  end_block() {
    [ "$seen" -eq 0 ] && return 0
    [ -n "$name" ] && [ -n "$file" ] && [ -n "$tests_" ] && [ -n "$from" ] \
      || catalogue_error "$number" "the block before this line lacks one of name, file, tests, from"
    names+=("$name"); files+=("$file"); tests+=("$tests_"); originals+=("$from"); replacements+=("$to")
    name="" file="" tests_="" from="" to="" seen=0
  }
  while IFS= read -r line || [ -n "$line" ]; do
    number=$((number + 1))
    case "$line" in
      '#'*) ;;
      '') end_block ;;
      'name: '*) name=${line#name: }; seen=1 ;;
      'file: '*) file=${line#file: }; seen=1 ;;
      'tests: '*) tests_=${line#tests: }; seen=1 ;;
      'from: '*) from=${line#from: }; seen=1 ;;
      'to: '*|'to:') to=${line#to:}; to=${to# }; seen=1 ;;
      *) catalogue_error "$number" "not 'key: value' with a key of name, file, tests, from or to: $line" ;;
    esac
  done < "$catalogue"
  end_block
}
read_catalogue

# --check-list: that the catalogue still fits the tree, without building anything: each file
# holds its target text exactly once, and each named suite (and case) exists.
check_catalogue() {
  local k t suite case_ file content rest problems=0
  for k in "${!names[@]}"; do
    file="$root/${files[$k]}"
    if [ ! -f "$file" ]; then
      echo "${names[$k]}: no file ${files[$k]}"; problems=$((problems + 1)); continue
    fi
    content=$(cat "$file"; printf x)
    rest=${content//"${originals[$k]}"/}
    if [ $(( (${#content} - ${#rest}) / ${#originals[$k]} )) -ne 1 ]; then
      echo "${names[$k]}: the target text does not occur exactly once in ${files[$k]}"; problems=$((problems + 1))
    fi
    for t in ${tests[$k]}; do
      suite=${t%%/*} case_=""
      [ "$t" != "$suite" ] && case_=${t#*/}
      suite_file=$(find "$root/tests" -name "$suite.cpp" -print -quit)
      if [ -z "$suite_file" ]; then
        echo "${names[$k]}: no suite $suite under tests/"; problems=$((problems + 1))
      elif [ -n "$case_" ] && ! grep -qE "TEST_CASE[A-Z_]*\(\s*$case_\b" "$suite_file"; then
        echo "${names[$k]}: no case $case_ in ${suite_file#"$root"/}"; problems=$((problems + 1))
      fi
    done
  done
  echo "${#names[@]} mutants, $problems problems"
  [ "$problems" -eq 0 ]
}

only="" from_head=false check_list=false scratch="$root/build-mutants"
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only="${2:?--only needs a mutant name}"; shift 2 ;;
    --list)
      for k in "${!names[@]}"; do printf '%-40s %-46s %s\n' "${names[$k]}" "${files[$k]}" "${tests[$k]}"; done
      exit 0 ;;
    --check-list) check_list=true; shift ;;
    --head) from_head=true; shift ;;
    --scratch) scratch="${2:?--scratch needs a directory}"; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "mutants.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

if $check_list; then
  check_catalogue && exit 0
  exit 2
fi

selected=()
for k in "${!names[@]}"; do
  if [ -z "$only" ] || [ "${names[$k]}" = "$only" ]; then selected+=("$k"); fi
done
if [ ${#selected[@]} -eq 0 ]; then
  echo "mutants.sh: no mutant named '$only' (see --list)" >&2
  exit 2
fi

# The scratch copy: the working tree's tracked and untracked, not ignored files (or the last
# commit with --head), refreshed file by file so that unchanged files keep their times and the
# build stays incremental. Sources live at the top of the scratch directory and the build in its
# build-core/, the same layout as the repository's own build-core/, so that with CCACHE_BASEDIR
# the compiler's command lines match and ccache's objects are shared between runs.
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
stage_dir=$(mktemp -d)
trap 'rm -rf "$stage_dir"' EXIT
in_git_checkout=false
command -v git > /dev/null && git rev-parse --is-inside-work-tree > /dev/null 2>&1 && in_git_checkout=true
if $from_head && $in_git_checkout; then
  git archive HEAD | tar -x -C "$stage_dir"
elif $in_git_checkout; then
  git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' path; do
    [ -f "$path" ] && printf '%s\0' "$path"
  done | tar --null -T - -c | tar -x -C "$stage_dir"
else
  # An exported tree without git (a release tarball, or CI's copy of the commit): every file but
  # the build directories that .gitignore names (/build/, /build-*/).
  find . \( -path ./build -o -path './build-*' -o -path ./.git \) -prune -o -type f -print0 \
    | tar --null -T - -c | tar -x -C "$stage_dir"
fi
(cd "$stage_dir" && find . -type f -print0) | while IFS= read -r -d '' path; do
  if ! cmp -s "$stage_dir/$path" "$scratch/$path"; then
    mkdir -p "$(dirname "$scratch/$path")"
    cp "$stage_dir/$path" "$scratch/$path"
  fi
done
# Files gone from the tree go from the copy too (a removed suite must not be globbed in again).
(cd "$scratch" && find . -path ./build-core -prune -o -type f -print0) | while IFS= read -r -d '' path; do
  [ -e "$stage_dir/$path" ] || rm -f "$scratch/$path"
done

export CCACHE_BASEDIR="$scratch"
export MHX_CACHE_DIR="$stage_dir/cache" # correction tables solved by the tests: not the user's cache
build="$scratch/build-core"
werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$scratch" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMHX_WERROR="$werror" \
    -DMHX_BUILD_GUI=OFF -DCMAKE_DISABLE_FIND_PACKAGE_Qt6=TRUE > "$stage_dir/configure.log" 2>&1 \
    || { cat "$stage_dir/configure.log"; exit 2; }
fi

# The suites the selected mutants name: built once before any mutation, and they must pass
# there, or a kill would mean nothing.
declare -A wanted=()
for k in "${selected[@]}"; do
  for t in ${tests[$k]}; do wanted[${t%%/*}]=1; done
done
targets=("${!wanted[@]}")
build_targets() { cmake --build "$build" -j "$(nproc)" --target "$@"; }
executable() { find "$build/tests" -type f -name "$1" -perm -u+x | head -n 1; }

# Runs suite[/case]; on failure prints the first failing check as "figure".
run_one() {
  local spec=$1 suite=${1%%/*} exe log
  exe=$(executable "$suite")
  [ -n "$exe" ] || { echo "no executable for $suite" >&2; return 2; }
  log="$stage_dir/$(tr '/' '_' <<< "$spec").log"
  local args=()
  [ "$spec" != "$suite" ] && args=(--run_test="${spec#*/}")
  if (cd "$build" && timeout 900 "$exe" "${args[@]}" --log_level=error --report_level=no --color_output=no > "$log" 2>&1); then
    return 0
  fi
  # Boost.Test's first failure: 'file(line): error: in "case": <message> [a vs b]', then the
  # context lines of BOOST_TEST_INFO, indented.
  figure=$(awk '/error: in "|fatal error: in "/ && !found { sub(/^.*error: in "/, ""); sub(/": /, ": "); line = $0; found = 1; next }
                found == 1 && /^    / { sub(/^ +/, ""); line = line " | " $0; found = 2 }
                END { print line }' "$log" | cut -c1-300)
  [ -n "$figure" ] || figure=$(grep -m 1 -iE 'error|failed|timeout' "$log" | cut -c1-300 || true)
  [ -n "$figure" ] || figure="exit status non-zero, no check failed (see $log)"
  return 1
}

echo "=== building the core and ${targets[*]} in $build"
if ! build_targets "${targets[@]}" > "$stage_dir/build.log" 2>&1; then
  tail -n 40 "$stage_dir/build.log"
  echo "mutants.sh: the unmutated copy does not build" >&2
  exit 2
fi
echo "=== the unmutated suites must pass"
declare -A passed=()
for k in "${selected[@]}"; do
  for t in ${tests[$k]}; do
    [ -n "${passed[$t]:-}" ] && continue
    figure=""
    if ! run_one "$t"; then
      echo "mutants.sh: $t fails without any mutation: $figure" >&2
      exit 2
    fi
    passed[$t]=1
  done
done

results=() status=0
for k in "${selected[@]}"; do
  name=${names[$k]} file=${files[$k]} original=${originals[$k]} replacement=${replacements[$k]}
  target="$scratch/$file"
  content=$(cat "$target"; printf x)
  content=${content%x}
  rest=${content//"$original"/}
  occurrences=$(( (${#content} - ${#rest}) / ${#original} ))
  if [ "$occurrences" -ne 1 ]; then
    results+=("$name|$file|LIST OUT OF DATE: the target text occurs $occurrences times|")
    status=2
    continue
  fi
  echo "=== $name ($file)"
  printf '%s' "${content/"$original"/"$replacement"}" > "$target"
  killer="" figure="" outcome=""
  if ! build_targets "${targets[@]}" > "$stage_dir/build.log" 2>&1; then
    outcome="DOES NOT BUILD"
    figure=$(grep -m 1 'error' "$stage_dir/build.log" | cut -c1-200 || true)
  else
    for t in ${tests[$k]}; do
      if ! run_one "$t"; then killer=$t; break; fi
    done
    if [ -n "$killer" ]; then outcome="killed by $killer"; else outcome="SURVIVED"; fi
  fi
  printf '%s' "$content" > "$target" # the line put back
  case "$outcome" in
    killed*) ;;
    SURVIVED) status=$(( status > 1 ? status : 1 )) ;;
    *) status=2 ;;
  esac
  echo "    $outcome${figure:+: $figure}"
  results+=("$name|$file|$outcome|$figure")
done
# Leave the scratch build matching the sources again for the next run.
build_targets "${targets[@]}" > "$stage_dir/build.log" 2>&1 || true

echo
printf '%-40s %-46s %s\n' "mutant" "file" "result (first failing figure)"
for row in "${results[@]}"; do
  IFS='|' read -r name file outcome figure <<< "$row"
  printf '%-40s %-46s %s\n' "$name" "$file" "$outcome"
  [ -n "$figure" ] && printf '%-40s %-46s   %s\n' "" "" "$figure"
done
survivors=$(printf '%s\n' "${results[@]}" | grep -c '|SURVIVED|' || true)
echo "${#results[@]} mutants, $survivors survived"
exit "$status"
