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
#   options: --head (copy the last commit instead of the working tree's tracked and untracked,
#            not ignored files), --scratch DIR (default build-mutants/, ignored by git; kept
#            between runs so that its build is incremental)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
shopt -u patsub_replacement 2>/dev/null || true # '&' in a replacement is a literal '&'

# name | file | tests (suite or suite/case, space-separated; the first that fails kills) |
# the exact text to replace (must occur once in the file) | its replacement.
names=() files=() tests=() originals=() replacements=()
mutant() { names+=("$1"); files+=("$2"); tests+=("$3"); originals+=("$4"); replacements+=("$5"); }

# A dropped 1/T in each method.
mutant full-data-no-1/T core/acceptance/full_data_tests.cpp \
  "tst_acceptance_probability/fullData" \
  "logLikelihoodRatioSum(problem.current, problem.proposed) / problem.temperature" \
  "logLikelihoodRatioSum(problem.current, problem.proposed)"
mutant minibatch-no-1/T core/acceptance/minibatch_accumulator.cpp \
  "tst_acceptance_probability/minibatchAtOtherTemperatures tst_sequential_tests/acceptanceProbabilityAtOtherTemperatures" \
  "m_scale = static_cast<double>(m_population) / problem.temperature;" \
  "m_scale = static_cast<double>(m_population);"
mutant sublhd-range-no-1/T core/acceptance/sequential_tests.cpp \
  "tst_sequential_tests/acceptanceProbabilityAtOtherTemperatures tst_control_variates_tempered/subLhdWithControlVariatesHasMetropolisProbabilityAtOtherTemperatures" \
  "const double rangeBound = *bound * m_batch.scale();" \
  "const double rangeBound = *bound * static_cast<double>(problem.model.dataSize());"
mutant control-variates-exact-part-no-1/T core/acceptance/acceptance_test.h \
  "tst_control_variates/minibatchTestWithControlVariatesHasBarkersProbabilityAtOtherTemperatures tst_exact_minibatch/smhAcceptsWithItsFactorisedProbabilityAtOtherTemperatures tst_control_variates_tempered/naiveTestWithControlVariatesHasTheSmearedBarkerProbability" \
  "model.exactLogLikelihoodRatioPart(current, proposed) / temperature;" \
  "model.exactLogLikelihoodRatioPart(current, proposed);"
mutant smh-residual-no-1/T core/acceptance/exact_minibatch_tests.cpp \
  "tst_exact_minibatch/smhAcceptsWithItsFactorisedProbabilityAtOtherTemperatures" \
  "const double u = std::max(0.0, -residual / problem.temperature);" \
  "const double u = std::max(0.0, -residual);"
mutant smh-bound-no-1/T core/acceptance/exact_minibatch_tests.cpp \
  "tst_exact_minibatch/smhWithABoundTenPercentTooSmallIsCaught" \
  "const double denominator = (power == 2 ? 2.0 : 6.0) * temperature; // (k+1)! T" \
  "const double denominator = (power == 2 ? 2.0 : 6.0); // (k+1)! T"
mutant tuna-ratio-no-1/T core/acceptance/exact_minibatch_tests.cpp \
  "tst_exact_minibatch/tunaAcceptsWithItsExactProbabilityAtOtherTemperatures" \
  "double phi = 0.5 * (Mi - ratio / T);" \
  "double phi = 0.5 * (Mi - ratio);"
mutant tuna-lipschitz-sum-no-1/T core/acceptance/exact_minibatch_tests.cpp \
  "tst_exact_minibatch/tunaAcceptsWithItsExactProbabilityAtOtherTemperatures" \
  "const double C = lipschitz.total / T;" \
  "const double C = lipschitz.total;"
mutant flymc-weight-no-1/T core/acceptance/firefly_test.cpp \
  "tst_firefly/fireflyAcceptsWithItsExactProbability tst_firefly/fireflyChainsHaveTheTemperedPosterior" \
  "const double g = m_bound->logGap(i, theta) / m_temperature;" \
  "const double g = m_bound->logGap(i, theta);"
mutant flymc-bounds-no-1/T core/acceptance/firefly_test.cpp \
  "tst_firefly/fireflyAcceptsWithItsExactProbability tst_firefly/fireflyChainsHaveTheTemperedPosterior" \
  "+ (m_bound->logProduct(problem.proposed) - m_bound->logProduct(problem.current)) / problem.temperature;" \
  "+ (m_bound->logProduct(problem.proposed) - m_bound->logProduct(problem.current));"
# AustereMH(nc)'s design chosen from moments without their 1/T: at T = 20 it runs the other design.
mutant austere-nc-design-no-1/T core/acceptance/austere_adaptive_test.cpp \
  "tst_sequential_tests/austereNonConservativeRunsTheDesignItChose" \
  "const double scale = static_cast<double>(problem.model.dataSize()) / problem.temperature;" \
  "const double scale = static_cast<double>(problem.model.dataSize());"
# The naive test shares the minibatch accumulator's N/T: its own test at T = 0.5, 20 and 100.
mutant naive-barker-no-1/T core/acceptance/minibatch_accumulator.cpp \
  "tst_acceptance_probability/naiveAtOtherTemperatures" \
  "m_scale = static_cast<double>(m_population) / problem.temperature;" \
  "m_scale = static_cast<double>(m_population);"
# MHSubLhd's range bound and the control variates' derivative bound from the first 1,000 rows.
mutant bound-from-first-1000-rows core/models/logistic_regression_model.cpp \
  "tst_logistic_regression/dataBoundsCoverEveryRow" \
  "                   [&](DataIndex, const Eigen::ArrayXd &x) {" \
  "                   [&](DataIndex i, const Eigen::ArrayXd &x) { if (i >= 1000) return;"
# The control variates' global residual bound (MHSubLhd's range) 1 % too small.
mutant residual-bound-one-percent-small core/models/logistic_taylor_proxies.cpp \
  "tst_remainder_bound_tightness" \
  "        return m_derivativeBound" \
  "        return 0.99 * m_derivativeBound"
# TunaMH's per-row Lipschitz constants on a generalised linear model without the family's slope
# bound (‖x̃_i‖ alone: 20 % too small for the Student-t of ν = 4).
mutant glm-lipschitz-without-slope core/models/glm/glm_model.cpp \
  "tst_glm_acceptance/tunaOnRobustLinearRegressionAcceptsWithItsExactProbability" \
  "        c *= *slope;" \
  "        c *= 1.0;"
# The finite-population factor removed from the minibatch test's variance and AustereMH's s.
mutant minibatch-no-finite-population-factor core/acceptance/growing_minibatch.cpp \
  "tst_acceptance_probability/smallPopulation tst_acceptance_probability/minibatchAtOtherTemperatures tst_finite_population" \
  "? varianceOfMeanWithoutReplacement(m_batch.sampleVariance(), b, m_batch.populationSize())" \
  "? m_batch.sampleVariance() / static_cast<double>(b)"
mutant austere-no-finite-population-factor core/acceptance/sequential_tests.cpp \
  "tst_sequential_tests/acceptanceProbability tst_finite_population" \
  "std::sqrt(m_batch.sampleVariance() / n * m_batch.finitePopulationFactor());" \
  "std::sqrt(m_batch.sampleVariance() / n);"
# The control variates' gradient term with its sign flipped in the proxies' exact sum.
mutant control-variate-gradient-sign core/models/control_variates.cpp \
  "tst_control_variates" \
  "double sum = m_gradient.dot(to - from);" \
  "double sum = m_gradient.dot(from - to);"
# The minibatch Barker test with the correction's σ doubled (the variance target and X_nc's
# top-up then belong to another σ than the table's X_corr).
mutant barker-correction-sigma-doubled core/acceptance/minibatch_barker_test.cpp \
  "tst_acceptance_probability/minibatch" \
  "m_sigma = m_correction->params().sigma;" \
  "m_sigma = 2.0 * m_correction->params().sigma;"
# R-hat (and the bulk ESS) of whole chains instead of their halves.
mutant rhat-without-split core/diagnostics/effective_sample_size.cpp \
  "tst_effective_sample_size tst_diagnostics_reference" \
  "const SortedDraws sorted = sortDraws(splitChains(chains));" \
  "const SortedDraws sorted = sortDraws(chains);"
# The stochastic-gradient methods' likelihood gradient not divided by T (the suites run at T = 20).
mutant sg-gradient-no-1/T core/proposals/stochastic_gradient_dynamics.cpp \
  "tst_stochastic_gradient_dynamics/sgldMatchesItsClosedFormBiasWithFullAndMinibatchGradients" \
  "const double perRow = static_cast<double>(m_model.dataSize()) / (temperature * static_cast<double>(rows.size()));" \
  "const double perRow = static_cast<double>(m_model.dataSize()) / static_cast<double>(rows.size());"
# The same line, for SGHMC: its own closed-form test at T = 20.
mutant sghmc-gradient-no-1/T core/proposals/stochastic_gradient_dynamics.cpp \
  "tst_stochastic_gradient_dynamics/sghmcMatchesItsClosedFormStationaryVariance" \
  "const double perRow = static_cast<double>(m_model.dataSize()) / (temperature * static_cast<double>(rows.size()));" \
  "const double perRow = static_cast<double>(m_model.dataSize()) / static_cast<double>(rows.size());"
# SGLD's drift without its 1/2: the Welling-Teh step is (epsilon/2) g.
mutant sgld-drift-without-half core/proposals/stochastic_gradient_dynamics.cpp \
  "tst_stochastic_gradient_dynamics/sgldMatchesItsClosedFormBiasWithFullAndMinibatchGradients" \
  "to[k] = from[k] + 0.5 * epsilon * m_gradient[k] + noise * rng.normal();" \
  "to[k] = from[k] + epsilon * m_gradient[k] + noise * rng.normal();"
# SGHMC's injected noise 10 % too large in variance: 2.2 alpha epsilon for Chen et al.'s 2 alpha epsilon.
mutant sghmc-noise-ten-percent-large core/proposals/stochastic_gradient_dynamics.cpp \
  "tst_stochastic_gradient_dynamics/sghmcMatchesItsClosedFormStationaryVariance" \
  "const double noise = std::sqrt(2.0 * alpha * epsilon);" \
  "const double noise = std::sqrt(2.2 * alpha * epsilon);"
# SGLD-CV without the anchor's gradients subtracted: the plain estimate plus G.
mutant sgld-cv-anchor-not-subtracted core/proposals/stochastic_gradient_dynamics.cpp \
  "tst_stochastic_gradient_dynamics/sgldWithControlVariatesHasNoGradientNoiseOnTheGaussianMean tst_stochastic_gradient_dynamics/sghmcWithControlVariatesHasTheFullGradientVariance" \
  "    m_rowSum -= m_anchorRowSum;" \
  "    m_rowSum -= 0.0 * m_anchorRowSum;"
# The Zig-Zag estimate's likelihood part not divided by T (the Gaussian suite runs at T = 20).
mutant zigzag-estimate-no-1/T core/proposals/zig_zag_process.cpp \
  "tst_zig_zag_process/theSkeletonHasTheGaussianPosteriorAndItsBoundHolds" \
  "           - (n / temperature) * (m_rowGradient[coordinate] - m_anchorRowGradient[coordinate]);" \
  "           - n * (m_rowGradient[coordinate] - m_anchorRowGradient[coordinate]);"
# The Zig-Zag bound's growth along the path without its sqrt(d) (|v|_2): too small off the mode.
mutant zigzag-bound-without-speed core/proposals/zig_zag_process.cpp \
  "tst_zig_zag_process/onLogisticRegressionItAgreesWithFullDataMetropolis" \
  "    const double speed = std::sqrt(static_cast<double>(dim)); // ‖v‖₂" \
  "    const double speed = 0.1 * std::sqrt(static_cast<double>(dim)); // ‖v‖₂"
# The rate bound's slopes without their N/T: far too small a bound (the suite runs at T = 20).
mutant zigzag-slopes-no-N/T core/proposals/zig_zag_process.cpp \
  "tst_zig_zag_process/theSkeletonHasTheGaussianPosteriorAndItsBoundHolds" \
  "return m_boundScale * ((n / temperature) * m_lipschitz.array() + m_priorLipschitz).matrix();" \
  "return m_boundScale * (m_lipschitz.array() + m_priorLipschitz).matrix();"
# The anchor's gradient ∂U(θ̂) with G not divided by T: every estimate, and its bound, shifted.
mutant zigzag-anchor-gradient-no-1/T core/proposals/zig_zag_process.cpp \
  "tst_zig_zag_process/theSkeletonHasTheGaussianPosteriorAndItsBoundHolds" \
  "m_anchorGradient = -m_priorAtAnchor - m_proxies->gradientSum() / temperature;" \
  "m_anchorGradient = -m_priorAtAnchor - m_proxies->gradientSum();"
# zigzag+none's estimate without its 1/T: the untempered posterior at T = 4.
mutant zigzag-none-estimate-no-1/T core/proposals/zig_zag_process.cpp \
  "tst_zig_zag_process/withoutControlVariatesItAgreesTooButReadsFarMore" \
  "        return -m_priorGradient[coordinate] - (n / temperature) * m_rowGradient[coordinate];" \
  "        return -m_priorGradient[coordinate] - n * m_rowGradient[coordinate];"
# zigzag+none's global bound without its N: a single point's gradient bound, far too small.
mutant zigzag-none-bound-without-N core/proposals/zig_zag_process.cpp \
  "tst_zig_zag_process/withoutControlVariatesItAgreesTooButReadsFarMore" \
  "            m_dataRate = m_boundScale * m_pointGradientBound * static_cast<double>(m_model.dataSize()) / temperature;" \
  "            m_dataRate = m_boundScale * m_pointGradientBound / temperature;"

only="" from_head=false scratch="$root/build-mutants"
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only="${2:?--only needs a mutant name}"; shift 2 ;;
    --list)
      for k in "${!names[@]}"; do printf '%-40s %-46s %s\n' "${names[$k]}" "${files[$k]}" "${tests[$k]}"; done
      exit 0 ;;
    --head) from_head=true; shift ;;
    --scratch) scratch="${2:?--scratch needs a directory}"; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "mutants.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

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
