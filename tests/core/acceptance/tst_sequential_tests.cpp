// The sequential baselines: AustereMH(c) and MHSubLhd match the exact Metropolis probability
// within their design error, count their full-data passes, and on the worst-case dataset of
// Lemma 1 read all N points with probability ≥ c ≈ 0.0085, where MHminibatch does not; AustereMH(nc)
// accepts with the probability its chosen design predicts, at T = 0.5, 1, 20 and 100. (The
// kernels' chains, at T = 0.5, 1, 20 and 100: tst_logistic_chains_tempered.)
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <numeric>
#include <ostream>
#include <string>
#include <vector>

#include <boost/math/distributions/binomial.hpp>

#include "core/acceptance/austere_adaptive_test.h"
#include "core/acceptance/austere_design.h"
#include "core/acceptance/austere_designer.h"
#include "core/acceptance/sequential_tests.h"
#include "core/chain/chain_runner.h"
#include "core/data/worst_case_data.h"
#include "core/diagnostics/chain_summary.h"
#include "core/diagnostics/effective_sample_size.h"
#include "core/experiment/settings/run_config.h"
#include "core/models/control_variates.h"
#include "core/models/gaussian_mean_model.h"
#include "core/models/logistic_regression_model.h"
#include "core/models/posterior_mode.h"
#include "core/proposals/random_walk_proposal.h"
#include "tests/support/acceptance_sampling.h"
#include "tests/support/nearly_equal.h"
#include "tests/support/population_model.h"
#include "tests/support/small_logistic_models.h"
#include "tests/support/statistics.h"

using namespace core;
namespace data = boost::unit_test::data;

namespace {

constexpr int kRepetitions = 40000;
using Outcome = teststats::AcceptanceOutcome;

Outcome run(AcceptanceTest &test, const Model &model, std::uint64_t seed, int repetitions = kRepetitions,
            double temperature = 1.0)
{
    return teststats::measureAcceptance(test, model, temperature, 0.0, seed, repetitions);
}

double tolerance(double p, double designError, int repetitions = kRepetitions)
{
    return teststats::acceptanceTolerance(p, designError, repetitions);
}

// Clopper–Pearson bounds on a binomial proportion at one-sided level alpha.
double lowerBound(std::int64_t successes, std::int64_t trials, double alpha)
{
    return boost::math::binomial_distribution<>::find_lower_bound_on_p(static_cast<double>(trials),
                                                                       static_cast<double>(successes), alpha);
}
double upperBound(std::int64_t successes, std::int64_t trials, double alpha)
{
    return boost::math::binomial_distribution<>::find_upper_bound_on_p(static_cast<double>(trials),
                                                                       static_cast<double>(successes), alpha);
}

} // namespace

struct PopulationRow {
    double delta;
    double lambdaSd;
};
std::ostream &operator<<(std::ostream &out, const PopulationRow &row)
{
    return out << "delta=" << row.delta << " sd=" << row.lambdaSd;
}

std::vector<PopulationRow> populationRows()
{
    std::vector<PopulationRow> rows;
    for (double delta : {-3.0, -0.7, 0.0, 0.5, 2.0})
        for (double sd : {5.0, 40.0})
            rows.push_back({delta, sd});
    return rows;
}

// Δ = mean Λ_i; Pr(accept) of the exact Metropolis test is min(1, e^Δ). AustereMH's error
// is controlled by ε (Korattikara et al., "Sequential Tests", Sec. 3.1) and MHSubLhd's by δ.
BOOST_DATA_TEST_CASE(acceptanceProbability, data::make(populationRows()), row)
{
    const auto [delta, lambdaSd] = row;
    const DataIndex n = 10000;
    const auto model = teststats::PopulationModel::make(n, delta / n, lambdaSd / n, 0, 5);
    const double exact = teststats::metropolisProbability(delta);

    // AustereMH's error is not bounded by its per-look ε: it is what the dynamic program
    // of the supplement predicts (Korattikara et al., "Austerity in MCMC Land", supplement Eq.
    // 18–21), which can exceed ε when Δ ≈ 0.
    AustereSettings austereSettings;
    austereSettings.epsilon = 0.01;
    AustereTest austere(austereSettings);
    const Outcome a = run(austere, model, 17);
    static const AustereDesignTable errorTable(n, austereSettings.batch, austereSettings.epsilon);
    const double predicted = exact + errorTable.acceptanceError(delta, lambdaSd, 0.0);
    BOOST_TEST(std::abs(a.rate - predicted) <= tolerance(predicted, 0.005),
               "AustereMH " << a.rate << " vs predicted " << predicted << " (Metropolis " << exact << ")");
    BOOST_TEST(testcheck::nearlyEqual(a.meanFullScan, 0.0));
    // The data it reads is the dynamic program's too (the supplement's Eq. 20), which assumes
    // the finite-population factor in s: without it s is too large and the test reads more.
    // Where the batch is a large part of N (sd 40: 10 % to 56 % of the rows) the prediction
    // agrees to 0.002; the tolerance is 4.9 standard errors of a mean of fractions in [0, 1]
    // (their variance is at most p(1 − p)) plus 0.005 for the program's grid. At sd 5 the
    // program's grid of looks is too coarse for the first look's 1 % of the data.
    if (lambdaSd > 10.0) {
        const double fraction = a.meanPoints / static_cast<double>(n);
        const double expected = errorTable.expectedDataFraction(delta, lambdaSd, 0.0);
        BOOST_TEST(std::abs(fraction - expected) <= tolerance(expected, 0.005),
                   "AustereMH read " << fraction << " of the data vs predicted " << expected);
    }

    SubLhdSettings sublhdSettings;
    SubLhdTest sublhd(sublhdSettings);
    const int sublhdRepetitions = 10000; // each test also scans all N rows for C
    const Outcome s = run(sublhd, model, 19, sublhdRepetitions);
    BOOST_TEST(std::abs(s.rate - exact) <= tolerance(exact, sublhdSettings.delta, sublhdRepetitions),
               "MHSubLhd " << s.rate << " vs Metropolis " << exact);
    BOOST_TEST(testcheck::nearlyEqual(s.meanFullScan, double(n))); // the range bound C costs one pass per test
    // Its batch follows the population's spread: with sd Λ = 5 the empirical-Bernstein bound
    // separates the mean from its threshold early (measured 851 to 7,058 of the 10,000 rows, the
    // most where Δ is near log u's bulk), with sd 40 it needs nearly every row (9,311 to 9,993).
    // A range bound C too large by a factor reads everything at sd 5; one too small stops early
    // at sd 40 (and errs, which the rate check above sees).
    if (lambdaSd < 10.0)
        BOOST_TEST(s.meanPoints < 0.8 * static_cast<double>(n), "MHSubLhd read " << s.meanPoints << " rows a test");
    else
        BOOST_TEST(s.meanPoints > 0.9 * static_cast<double>(n), "MHSubLhd read " << s.meanPoints << " rows a test");
}

struct TemperedRow {
    double delta;
    double temperature;
};
std::ostream &operator<<(std::ostream &out, const TemperedRow &row)
{
    return out << "T=" << row.temperature << " delta=" << row.delta;
}

std::vector<TemperedRow> temperedRows()
{
    std::vector<TemperedRow> rows;
    for (double temperature : {0.5, 20.0, 100.0})
        for (double delta : {-0.7, 2.0})
            rows.push_back({delta, temperature});
    return rows;
}

// Both sequential tests at T = 0.5, 20 and 100 on the population above (sd Λ = 40) with l_i
// scaled by T, so that Λ_i = (N/T) l_i and every figure is the T = 1 row's. A test that forgets
// the 1/T sees Λ·T: at T = 20 it compares a mean 20 times too large with its threshold and
// accepts or rejects almost surely. Resolution: 4.9 binomial standard errors (±0.012 for
// AustereMH over 40,000 repetitions, ±0.039 for MHSubLhd over 4,000, whose tests each scan all N
// rows for C) plus each method's design error, as in acceptanceProbability; about 1 s a row.
// MHSubLhd's range bound C must be scaled by N/T with the ratios: its mean batch must equal the
// one at T = 1 on the same population of Λ. That comparison has no Monte Carlo error: the same
// seed draws the same rows and the same u, and only rounding in l_i·T·(N/T) against l_i·N could
// turn a decision, so 2 % is a wide margin (a C off by T moves the batch by far more).
BOOST_DATA_TEST_CASE(acceptanceProbabilityAtOtherTemperatures, data::make(temperedRows()), row)
{
    const auto [delta, temperature] = row;
    const DataIndex n = 10000;
    const double lambdaSd = 40.0;
    const auto model = teststats::PopulationModel::make(n, delta * temperature / n, lambdaSd * temperature / n, 0, 5);
    const auto reference = teststats::PopulationModel::make(n, delta / n, lambdaSd / n, 0, 5);
    const double exact = teststats::metropolisProbability(delta);

    AustereSettings austereSettings;
    austereSettings.epsilon = 0.01;
    AustereTest austere(austereSettings);
    const Outcome a = run(austere, model, 17, kRepetitions, temperature);
    static const AustereDesignTable errorTable(n, austereSettings.batch, austereSettings.epsilon);
    const double predicted = exact + errorTable.acceptanceError(delta, lambdaSd, 0.0);
    BOOST_TEST(std::abs(a.rate - predicted) <= tolerance(predicted, 0.005),
               "AustereMH at T = " << temperature << ": " << a.rate << " vs predicted " << predicted);

    SubLhdSettings sublhdSettings;
    SubLhdTest sublhd(sublhdSettings), sublhdReference(sublhdSettings);
    const int sublhdRepetitions = 4000;
    const Outcome s = run(sublhd, model, 19, sublhdRepetitions, temperature);
    const Outcome r = run(sublhdReference, reference, 19, sublhdRepetitions);
    BOOST_TEST(std::abs(s.rate - exact) <= tolerance(exact, sublhdSettings.delta, sublhdRepetitions),
               "MHSubLhd at T = " << temperature << ": " << s.rate << " vs Metropolis " << exact);
    BOOST_TEST(std::abs(s.meanPoints - r.meanPoints) <= 0.02 * r.meanPoints,
               "MHSubLhd's mean batch at T = " << temperature << ": " << s.meanPoints << " vs " << r.meanPoints
                                               << " at T = 1");
}

BOOST_AUTO_TEST_CASE(sublhdUsesModelBoundWhenAsked)
{
    Rng rng(3);
    Eigen::VectorXd x(5000);
    for (Eigen::Index i = 0; i < x.size(); ++i)
        x[i] = 0.5 + rng.normal();
    const GaussianMeanModel model(x, 1.0);
    const Vector a = Vector::Constant(1, 0.5), b = Vector::Constant(1, 0.52);
    const double scanned = model.maxAbsLogLikelihoodRatio(a, b);
    const auto bound = model.logLikelihoodRatioBound(a, b);
    BOOST_TEST_REQUIRE(bound.has_value());
    BOOST_TEST(std::abs(*bound - scanned) <= 1e-12 * scanned); // exact for this model
    SubLhdSettings settings;
    settings.useModelBound = true;
    SubLhdTest test(settings);
    const Decision decision = test.decide(TestProblem{model, a, b, 1.0, 0.0}, rng);
    BOOST_TEST(decision.fullScanPoints == std::int64_t(0));
}

// Lemma 1 (Seita et al., "Minibatch Acceptance Test", Sec. 2.1, appendix A.1): on x_i ~ N(0.5, 1)
// with proposal N(θ, 1/N), AustereMH and MHSubLhd read all N points with probability ≥ 0.0085 per
// iteration.
struct WorstCaseRow {
    std::string method;
    bool readsAll;
};
std::ostream &operator<<(std::ostream &out, const WorstCaseRow &row) { return out << row.method; }

const std::vector<WorstCaseRow> kWorstCaseRows = {{"austere-c", true}, {"sublhd", true}, {"minibatch", false}};

BOOST_DATA_TEST_CASE(worstCaseNeedsAllData, data::make(kWorstCaseRows), row)
{
    const auto &[method, readsAll] = row;
    RunConfig config;
    config.dataset = "worst-case";
    config.nData = 10000;
    config.method = parseMethod(method);
    applyDatasetDefaults(config, false, false);
    BOOST_TEST(testcheck::nearlyEqual(config.temperature, 1.0));
    BOOST_TEST(testcheck::nearlyEqual(config.step, 0.01));
    const GaussianMeanModel model(generateWorstCaseGaussian(config.nData, 1), 1.0);
    std::shared_ptr<const CorrectionDistribution> correction;
    if (needsCorrection(config.method)) {
        CorrectionParams params = RunConfig::defaultCorrection();
        params.grid = 1000;
        correction = std::make_shared<const CorrectionDistribution>(CorrectionDistribution::solve(params));
    }
    auto test = makeAcceptanceTest(config, correction);
    const RandomWalkProposal proposal(config.step);
    ChainSettings settings;
    settings.samples = 4000;
    settings.seed = 23;
    settings.temperature = config.temperature;
    const ChainResult chain = runChain(model, proposal, *test, settings);
    const ChainSummary summary = summarize(chain, config.nData);
    const double c = 0.0085;
    // The chain's iterations are not independent; the proportion's binomial bounds at
    // 1e-4 one-sided still leave a wide margin on both sides of c.
    if (readsAll) {
        const double low = lowerBound(summary.allDataIterations, summary.iterations, 1e-4);
        BOOST_TEST(low >= c,
                   method << ": " << summary.allDataIterations << " of " << summary.iterations
                      << " iterations read all N; lower bound " << low);
    } else {
        const double high = upperBound(summary.allDataIterations, summary.iterations, 1e-4);
        BOOST_TEST(high < c,
                   method << ": " << summary.allDataIterations << " of " << summary.iterations
                      << " iterations read all N; upper bound " << high);
    }
}

BOOST_AUTO_TEST_CASE(rejectsBadSettings)
{
    AustereSettings austere;
    austere.epsilon = 0.0;
    BOOST_CHECK_THROW(AustereTest{austere}, std::invalid_argument);
    austere.epsilon = 0.6;
    BOOST_CHECK_THROW(AustereTest{austere}, std::invalid_argument);
    austere = {};
    austere.batch = 1;
    BOOST_CHECK_THROW(AustereTest{austere}, std::invalid_argument);
    SubLhdSettings sublhd;
    sublhd.gamma = 1.0;
    BOOST_CHECK_THROW(SubLhdTest{sublhd}, std::invalid_argument);
    sublhd = {};
    sublhd.p = 1.0;
    BOOST_CHECK_THROW(SubLhdTest{sublhd}, std::invalid_argument);
    sublhd = {};
    sublhd.delta = 1.0;
    BOOST_CHECK_THROW(SubLhdTest{sublhd}, std::invalid_argument);
}


struct AdaptiveRow {
    double delta;
    double temperature;
};
std::ostream &operator<<(std::ostream &out, const AdaptiveRow &row)
{
    return out << "T=" << row.temperature << " delta=" << row.delta;
}

std::vector<AdaptiveRow> adaptiveRows()
{
    std::vector<AdaptiveRow> rows;
    for (double temperature : {0.5, 1.0, 20.0, 100.0})
        for (double delta : {-0.7, 1.0, 2.0})
            rows.push_back({delta, temperature});
    return rows;
}

// AustereMH(nc) (Seita et al. Sec. 6.2, appendix C.2.1) on a population of N = 1000 (sd Λ = 20,
// l_i scaled by T so that Λ_i = (N/T) l_i is the same at T = 0.5, 1, 20 and 100; a kernel that
// chose from moments without their 1/T would run the other design at T = 0.5, Δ = −0.7 and at
// T = 20, Δ = 1, which the mean batch check sees): at every decision it takes
// the full-data moments, picks the cheapest design of its grid whose |ΔP| for that proposal is
// within the bound (0.005), and runs that design's sequential test. Its acceptance rate must be
// Metropolis' plus the chosen design's error as the dynamic program predicts it, within 4.9
// binomial standard errors over 20,000 repetitions (±0.017 at p = ½) plus 0.005 for the program's
// grid (as AustereMH(c) above); that predicted error must be within the bound; its mean batch
// must be the chosen design's; every decision counts one full pass (2·10⁷ point evaluations a row).
BOOST_DATA_TEST_CASE(austereNonConservativeRunsTheDesignItChose, data::make(adaptiveRows()), row)
{
    const auto [delta, temperature] = row;
    const DataIndex n = 1000;
    const double lambdaSd = 20.0;
    const double bound = 0.005;
    const int repetitions = 20000;
    // Two designs, one batch and two ε: the loose one where its error for the proposal is within
    // the bound (Δ = 2, and Δ = 1 at T = 20), else the tight one (Δ = −0.7, where ε = 0.05 errs by
    // 0.009).
    // Each table runs 121 dynamic programs, so the grid is kept small.
    static const auto designer = std::make_shared<const AustereDesigner>(
        n, std::vector<std::int64_t>{200}, std::vector<double>{0.001, 0.05});
    const auto model = teststats::PopulationModel::make(n, delta * temperature / n, lambdaSd * temperature / n, 0, 5);
    // The design the kernel must choose: from the population's own moments in the Λ scale.
    const auto [mean, sd] = model.logLikelihoodRatioMoments(Vector::Zero(1), Vector::Ones(1));
    const double scale = static_cast<double>(n) / temperature;
    const std::size_t chosen = designer->choose(ProposalMoments{mean * scale, sd * scale, 0.0}, bound);
    const AustereDesignTable &table = designer->tables()[chosen];
    const double exact = teststats::metropolisProbability(delta);
    const double error = table.acceptanceError(mean * scale, sd * scale, 0.0);
    BOOST_TEST(std::abs(error) <= bound, "the chosen design's predicted error " << error);
    BOOST_TEST_MESSAGE("T " << temperature << " delta " << delta << ": design epsilon " << table.epsilon()
                            << ", predicted error " << error);
    AustereAdaptiveTest test(designer, bound);
    const Outcome outcome = run(test, model, 23, repetitions, temperature);
    BOOST_TEST(std::abs(outcome.rate - (exact + error)) <= tolerance(exact + error, 0.005, repetitions),
               "AustereMH(nc) at T = " << temperature << ": " << outcome.rate << " vs predicted " << exact + error
                                       << " (design m = " << table.batch() << ", epsilon " << table.epsilon()
                                       << "; Metropolis " << exact << ")");
    BOOST_TEST(testcheck::nearlyEqual(outcome.meanFullScan, static_cast<double>(n)));
    // The design it ran is the one it should have chosen: its mean batch is that design's
    // expected data fraction, within 4.9 standard errors (a batch lies in [0, N], so its sd is at
    // most N/2: ±17 points) plus 2 % of N for the table's interpolation. The two designs' batches
    // must differ by more than twice that at every row, or the check could not tell them apart.
    const double expectedPoints = table.expectedDataFraction(mean * scale, sd * scale, 0.0) * static_cast<double>(n);
    const double otherPoints = designer->tables()[1 - chosen].expectedDataFraction(mean * scale, sd * scale, 0.0)
                               * static_cast<double>(n);
    const double pointsTolerance =
        teststats::kZ * 0.5 * static_cast<double>(n) / std::sqrt(static_cast<double>(repetitions)) + 0.02 * n;
    BOOST_TEST_MESSAGE("  mean batch " << outcome.meanPoints << " vs the chosen design's " << expectedPoints
                                       << " (the other design's " << otherPoints << ")");
    BOOST_TEST(std::abs(otherPoints - expectedPoints) > 2.0 * pointsTolerance); // the check can tell them apart
    BOOST_TEST(std::abs(outcome.meanPoints - expectedPoints) <= pointsTolerance,
               "AustereMH(nc) at T = " << temperature << " read " << outcome.meanPoints
                                       << " points a decision; the design it should have chosen reads "
                                       << expectedPoints << " ± " << pointsTolerance << " (the other design "
                                       << otherPoints << ")");
    BOOST_TEST(outcome.meanPoints < static_cast<double>(n));
}
