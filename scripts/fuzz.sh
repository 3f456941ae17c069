#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang, ASan and UBSan into build-fuzz/ and runs
# each one from its seed corpus (tests/fuzz/corpus/<target>/; new inputs go to
# build-fuzz/corpus/<target>/, so the tree is left alone).
#   scripts/fuzz.sh [--smoke]          5 seconds per target: the targets build and the seeds
#                                      run clean (what scripts/extended_checks.sh runs)
#   scripts/fuzz.sh --runs N           N executions per target
#   scripts/fuzz.sh ... --only TARGET  just that target
# Prints executions, crashes, corpus size and speed per target. Exits non-zero when the build
# fails or any target crashes, leaks, times out or runs out of memory; the input that did it is
# kept in build-fuzz/findings/<target>/ (reproduce: build-fuzz/tests/fuzz/<target> <file>).
set -euo pipefail
cd "$(dirname "$0")/.."

limit=(-max_total_time=5)
only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) limit=(-max_total_time=5) ;;
    --runs)
      [[ "${2:-}" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: --runs needs a number of executions" >&2; exit 2; }
      limit=(-runs="$2"); shift ;;
    --only)
      [ -n "${2:-}" ] || { echo "fuzz.sh: --only needs a target name" >&2; exit 2; }
      only="$2"; shift ;;
    *) echo "usage: scripts/fuzz.sh [--smoke | --runs N] [--only TARGET]" >&2; exit 2 ;;
  esac
  shift
done

# libFuzzer comes with clang's runtime libraries (libclang-rt-14-dev on Debian 12).
packages=(clang libclang-rt-14-dev)
source scripts/install_packages.sh
install_missing_packages "${packages[@]}"
command -v clang++ > /dev/null || { echo "fuzz.sh: clang++ not found (install clang libclang-rt-14-dev)" >&2; exit 1; }

werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
# -O1 without NDEBUG: assertions stay on, and the code is still fast enough to fuzz.
# MHX_NATIVE adds a GCC-only warning switch and buys nothing for parsers.
if [ ! -f build-fuzz/CMakeCache.txt ]; then
  mkdir -p build-fuzz
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DMHX_NATIVE=OFF -DMHX_WERROR="$werror" -DMHX_BUILD_FUZZERS=ON \
    > build-fuzz/configure.log 2>&1 || { cat build-fuzz/configure.log; exit 1; }
fi
cmake --build build-fuzz -j "$(nproc)" --target fuzzers

# Findings should abort, not scroll by; leaks count as findings too.
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export QT_QPA_PLATFORM=offscreen

failed=()
summary=()
for seeds in tests/fuzz/corpus/*/; do
  target=$(basename "$seeds")
  [ -n "$only" ] && [ "$target" != "$only" ] && continue
  binary=build-fuzz/tests/fuzz/$target
  [ -x "$binary" ] || { echo "fuzz.sh: $target has a corpus but no target in tests/fuzz/CMakeLists.txt" >&2; exit 1; }
  mkdir -p "build-fuzz/corpus/$target" "build-fuzz/findings/$target"
  log=build-fuzz/findings/$target.log
  echo "== $target (${limit[*]})"
  start=$(date +%s)
  status=0
  # One process on purpose: the machines this runs on have few, shared cores. Allocations over
  # 512 MB are findings: every parser must check what a header announces first.
  "$binary" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 -print_final_stats=1 \
    -artifact_prefix="build-fuzz/findings/$target/" "build-fuzz/corpus/$target" "$seeds" > "$log" 2>&1 || status=$?
  seconds=$(( $(date +%s) - start ))
  # A target that dies early prints none of these.
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1 || true)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1 || true)
  corpus=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$log" | tail -1 | sed 's/corp: //' || true)
  crashes=0
  if [ "$status" -ne 0 ]; then
    crashes=1
    failed+=("$target")
    grep -E 'ERROR: |runtime error|SUMMARY|Test unit written' "$log" | head -20 || true
  fi
  summary+=("$(printf '%-28s %12s %8s %14s %10s %6ss' "$target" "${execs:-?}" "$crashes" "${corpus:-?}" "${speed:-?}" "$seconds")")
done
[ ${#summary[@]} -gt 0 ] || { echo "fuzz.sh: no target named '$only'" >&2; exit 2; }

printf '%-28s %12s %8s %14s %10s %7s\n' target executions crashes "corpus(files/size)" "execs/s" time
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: findings in: ${failed[*]} (inputs in build-fuzz/findings/, logs beside them)" >&2
  exit 1
fi
