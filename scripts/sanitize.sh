#!/usr/bin/env bash
# Builds the project with a sanitizer and runs the tests under it.
#
#   bash scripts/sanitize.sh [address|thread] [CTEST_REGEX | core | core-ci]
#
# `core` builds and runs only the core library's suites and the CLI's (tests/core, tests/app,
# the GUI's own --help and --sweep tests aside), since an instrumented GUI and its suites take
# longer than CI's budget on two cores. `core-ci`, the subset scripts/extended_checks.sh runs, is the suites whose code
# handles memory by hand or shares it between threads: the acceptance kernels and the moves that
# index minibatches, the models' gradients and plugins, the correction solver and its cache, the
# memory-mapped rows, the samples writers and checkpoints, the worker's pause and live changes,
# and the CLI's suites, which run whole instrumented CLI runs of every method. The readers of
# user files are left to the fuzz targets (scripts/fuzz.sh, also under ASan and UBSan), and the
# statistical suites that only run long chains through the same kernels to their release builds,
# which run in the test suite: their instrumented build and run took most of this stage's time.
# Run `core` before a change to the chain, the experiment service or the sweeps.
#
# address: AddressSanitizer + LeakSanitizer + UndefinedBehaviorSanitizer, into build-asan/;
#          runs every suite unless a regex is given.
# thread:  ThreadSanitizer, into build-tsan/; runs the suites that exercise threads (the
#          sampler worker, live tuning, pause/step, compare and AustereMH runs, design-table and
#          correction-solve cancellation, closing the window mid-run) unless a regex is given.
#
# Needs what scripts/setup.sh installs (GCC ships the sanitizer runtimes). Every sanitizer
# report is written to a log directory as well as failing its test, so that a report from a
# child process (the CLI run by tst_cli) cannot go unnoticed; any report makes the script fail.
# (The CLI's tests also check its exact exit code, which a UBSan abort changes.)
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-address}"
case "$mode" in
  address) build=build-asan ;;
  thread) build=build-tsan ;;
  *) echo "usage: $0 [address|thread] [ctest regex]; got mode '$mode'" >&2; exit 2 ;;
esac
threaded_suites='^tst_(live_tuning|pause_gate|continuous_chain|continuous_mode|austere_design_cache|correction_distribution|main_window|austere_runs|live_changes|charts)$'
regex="${2:-}"
targets=()
if [ -z "$regex" ] && [ "$mode" = thread ]; then
  regex="$threaded_suites"
  # Only the threaded suites are built: the instrumented whole tree is twice the build time.
  mapfile -t targets < <(sed -E 's/^\^tst_\(//; s/\)\$$//' <<< "$threaded_suites" | tr '|' '\n' | sed 's/^/tst_/')
  targets=(--target "${targets[@]}")
fi
ci_suites='^tst_(acceptance_probability|exact_minibatch|sequential_tests|firefly|control_variates|minibatch_sampler|stochastic_gradient_dynamics|zig_zag_path|hamiltonian_proposal|model_gradients|glm_model|model_plugin|low_rank_root|correction_solvers|correction_cache|austere_design_cache|mapped_rows|samples_io|samples_csv_stream|chain_checkpoints|npy_conversion|array_formats|live_tuning|pause_gate|continuous_chain|cli|cli_user_tables|cli_diagnose)$'
if [ "$regex" = core ] || [ "$regex" = core-ci ]; then
  mapfile -t suites < <(find tests/core tests/app -name 'tst_*.cpp' -exec basename {} .cpp \; \
                          | grep -vx -e tst_program_info -e tst_gui_sweep | sort)
  if [ "$regex" = core-ci ]; then
    mapfile -t suites < <(printf '%s\n' "${suites[@]}" | grep -E "$ci_suites")
    # A suite renamed or removed must not shrink the stage without a word.
    expected=$(tr '|' '\n' <<< "${ci_suites#^tst_(}" | wc -l)
    [ "${#suites[@]}" -eq "$expected" ] || { echo "sanitize.sh: core-ci names $expected suites, found ${#suites[@]}" >&2; exit 2; }
  fi
  targets=(--target mh-explorer-cli "${suites[@]}")
  regex="^($(IFS='|'; echo "${suites[*]}"))\$"
fi

werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMHX_WERROR="$werror" -DMHX_SANITIZE="$mode" \
    > "$build.configure.log" 2>&1 || { cat "$build.configure.log"; rm -f "$build.configure.log"; exit 1; }
  rm -f "$build.configure.log"
fi
build_start=$(date +%s)
cmake --build "$build" -j "$(nproc)" "${targets[@]}"
build_seconds=$(( $(date +%s) - build_start ))

logs="$(mktemp -d)"
export MHX_CACHE_DIR="$(mktemp -d)"
trap 'rm -rf "$logs" "$MHX_CACHE_DIR"' EXIT
export QT_QPA_PLATFORM=offscreen
# QtTest aborts a test function after 5 minutes; instrumented GUI runs can take longer.
export QTEST_FUNCTION_TIMEOUT="${QTEST_FUNCTION_TIMEOUT:-900000}"
# The core suites (Boost.Test) leave signals to the sanitizers, whose reports name the fault.
export BOOST_TEST_CATCH_SYSTEM_ERRORS=no
supp="$PWD/tests/sanitizers"
# halt_on_error: the first report ends the process, so it cannot be lost in later output.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:check_initialization_order=1:strict_init_order=1:log_path=$logs/asan"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$logs/ubsan"
# ignore_noninstrumented_modules: Qt is not instrumented, so TSan sees neither its accesses nor
# its futex-based mutexes and semaphores; only the calls Qt makes into the runtime's
# interceptors (malloc/free above all) were recorded, and those made every hand-off inside Qt
# (a QRunnable allocated by the GUI thread and deleted by a pooled thread after Qt's own
# QSemaphore wait, Qt Gui's threaded image conversions) look like races, dozens per GUI suite.
# With the option, calls from uninstrumented libraries are treated like the rest of those
# libraries: not checked. Every access made by our code (core, ui, tests) is still checked.
export TSAN_OPTIONS="halt_on_error=1:ignore_noninstrumented_modules=1:second_deadlock_stack=1:log_path=$logs/tsan"
# Suppression files exist only for findings inside third-party code, one frame each.
[ -f "$supp/lsan.supp" ] && export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
[ -f "$supp/tsan.supp" ] && TSAN_OPTIONS+=":suppressions=$supp/tsan.supp"

# --no-tests=error: a subset that matches no suite fails instead of passing silently.
ctest_args=(--test-dir "$build" --output-on-failure --no-tests=error -j "$(nproc)")
[ -n "$regex" ] && ctest_args+=(-R "$regex")
test_start=$(date +%s)
status=0
ctest "${ctest_args[@]}" || status=$?
test_seconds=$(( $(date +%s) - test_start ))

reports=$(find "$logs" -type f | sort)
if [ -n "$reports" ]; then
  for f in $reports; do echo "=== sanitizer report $(basename "$f")"; cat "$f"; done
  status=1
fi
count=$(printf '%s' "$reports" | grep -c . || true)
# GCC's UBSan runtime ignores log_path and writes to stderr; its reports abort the process
# (no recovery), and CTest keeps every test's output here.
ubsan=$(grep -c "runtime error:" "$build/Testing/Temporary/LastTest.log" 2>/dev/null || true)
if [ "${ubsan:-0}" -gt 0 ]; then
  grep -B2 -A12 "runtime error:" "$build/Testing/Temporary/LastTest.log"
  count=$((count + ubsan))
  status=1
fi
summary="sanitize $mode: build ${build_seconds}s, tests ${test_seconds}s, ${count} sanitizer report(s)"
if [ "$status" -eq 0 ]; then
  echo "$summary: PASS"
else
  echo "$summary: FAIL"
fi
exit "$status"
