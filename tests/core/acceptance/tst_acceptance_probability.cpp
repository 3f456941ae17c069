// Pr(accept) of every acceptance test against the exact Barker or Metropolis probability, on
// synthetic populations of log-likelihood ratios with a known Δ and spread.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <memory>
#include <ostream>
#include <vector>

#include "core/acceptance/full_data_tests.h"
#include "core/acceptance/minibatch_barker_test.h"
#include "tests/support/acceptance_sampling.h"
#include "tests/support/nearly_equal.h"
#include "tests/support/population_model.h"
#include "tests/support/statistics.h"

using namespace core;
namespace data = boost::unit_test::data;

namespace {

constexpr int kRepetitions = 40000;
using Outcome = teststats::AcceptanceOutcome;

Outcome acceptanceRate(AcceptanceTest &test, const Model &model, double temperature, double logPriorProposal,
                       std::uint64_t seed)
{
    return teststats::measureAcceptance(test, model, temperature, logPriorProposal, seed, kRepetitions);
}

double tolerance(double p, double extra = 0.0)
{
    return teststats::acceptanceTolerance(p, extra, kRepetitions);
}

} // namespace

// Suite-wide state, set up once before the first test case.
struct Suite {
    static inline std::shared_ptr<const CorrectionDistribution> correction;

    void setup()
    {
        CorrectionParams params;
        params.grid = 2000; // Table 3 (Seita et al., "Minibatch Acceptance Test", appendix): L∞ 1.3e-3 at σ = 1, λ = 10; solves in seconds
        correction = std::make_shared<const CorrectionDistribution>(CorrectionDistribution::solve(params));
        BOOST_TEST_REQUIRE(correction->linfError() < 2e-3);
    }
};
BOOST_TEST_GLOBAL_FIXTURE(Suite);

struct DeltaRow {
    double delta;
    double temperature;
};
std::ostream &operator<<(std::ostream &out, const DeltaRow &row)
{
    return out << "T=" << row.temperature << " delta=" << row.delta;
}

// Every Δ at T = 2, and a few at T = 0.5, 1, 20 and 100 (the logistic default): a test that drops
// the 1/T from its sum sees Δ·T instead of Δ, which moves its probability far outside the
// Monte Carlo tolerance below (±0.012 at p = ½ over 40,000 repetitions).
std::vector<DeltaRow> fullDataRows()
{
    std::vector<DeltaRow> rows;
    for (double delta : {-4.0, -1.5, -0.3, 0.0, 0.7, 2.0, 5.0})
        rows.push_back({delta, 2.0});
    for (double temperature : {0.5, 1.0, 20.0, 100.0})
        for (double delta : {-1.5, 0.7})
            rows.push_back({delta, temperature});
    return rows;
}

// Λ_i = (N/T) l_i with mean Δ − (log prior/proposal term): both full-data tests must hit
// their exact probabilities, and read all N points.
BOOST_DATA_TEST_CASE(fullData, data::make(fullDataRows()), row)
{
    const auto [delta, temperature] = row;
    const DataIndex n = 500;
    const double logPriorProposal = 0.25;
    const auto model = teststats::PopulationModel::make(n, (delta - logPriorProposal) * temperature / n, 0.3, 1, 7);
    MetropolisTest metropolis;
    BarkerTest barker;
    const Outcome mh = acceptanceRate(metropolis, model, temperature, logPriorProposal, 11);
    const Outcome bk = acceptanceRate(barker, model, temperature, logPriorProposal, 12);
    const double pMh = teststats::metropolisProbability(delta), pBk = teststats::barkerProbability(delta);
    BOOST_TEST(std::abs(mh.rate - pMh) <= tolerance(pMh), "MH " << mh.rate << " vs exact " << pMh);
    BOOST_TEST(std::abs(bk.rate - pBk) <= tolerance(pBk), "Barker " << bk.rate << " vs exact " << pBk);
    BOOST_TEST(testcheck::nearlyEqual(mh.meanPoints, double(n)));
    BOOST_TEST(testcheck::nearlyEqual(bk.meanPoints, double(n)));
}

struct MinibatchRow {
    double delta;
    double lambdaSd;
    int shape;
};
std::ostream &operator<<(std::ostream &out, const MinibatchRow &row)
{
    return out << (row.shape ? "skewed" : "normal") << " sd=" << row.lambdaSd << " delta=" << row.delta;
}

std::vector<MinibatchRow> minibatchRows()
{
    std::vector<MinibatchRow> rows;
    // lambdaSd is the sd of Λ_i: 8 needs b ≥ 64 (one look), 25 needs b ≥ 625 (several).
    for (double delta : {-3.0, -0.5, 0.0, 1.0, 4.0}) {
        rows.push_back({delta, 8.0, 0});
        rows.push_back({delta, 25.0, 0});
        rows.push_back({delta, 25.0, 1});
    }
    return rows;
}

// MHminibatch matches Barker's probability within Monte Carlo error plus the correction's
// L∞ error (Corollary 2) plus a small CLT allowance for the skewed population; the naive
// test instead matches the Barker probability smeared by the batch noise.
BOOST_DATA_TEST_CASE(minibatch, data::make(minibatchRows()), row)
{
    const auto [delta, lambdaSd, shape] = row;
    const DataIndex n = 100000;
    const double temperature = 1.0;
    // Λ_i = N l_i: choose l_i so that mean Λ = Δ and sd Λ = lambdaSd.
    const auto model = teststats::PopulationModel::make(n, delta / n, lambdaSd / n, shape, 21);
    MinibatchSettings settings;
    settings.initialBatch = 100;
    settings.batchGrowth = 100;
    MinibatchBarkerTest corrected(Suite::correction, settings);
    const Outcome outcome = acceptanceRate(corrected, model, temperature, 0.0, 31);
    const double exact = teststats::barkerProbability(delta);
    const double clt = shape == 1 ? 0.004 : 0.0;
    BOOST_TEST(std::abs(outcome.rate - exact) <= tolerance(exact, Suite::correction->linfError() + clt),
               "minibatch " << outcome.rate << " vs Barker " << exact);
    // The batch is the smallest multiple of 100 with s² < 1 (± sampling noise of s²).
    const double minimal = std::ceil(lambdaSd * lambdaSd / 100.0) * 100.0;
    BOOST_TEST((outcome.meanPoints >= minimal * 0.8 && outcome.meanPoints <= minimal * 1.5 + 100),
               "mean batch " << outcome.meanPoints << ", expected about " << minimal);
    BOOST_TEST(outcome.fallbacks == 0);
}

struct TemperedRow {
    double delta;
    double temperature;
    bool factor;
};
std::ostream &operator<<(std::ostream &out, const TemperedRow &row)
{
    return out << "T=" << row.temperature << " factor " << (row.factor ? "on" : "off") << " delta=" << row.delta;
}

std::vector<TemperedRow> temperedRows()
{
    std::vector<TemperedRow> rows;
    for (double temperature : {0.5, 20.0, 100.0})
        for (double delta : {-1.5, 0.0, 2.0})
            rows.push_back({delta, temperature, true});
    rows.push_back({1.0, 20.0, false});
    return rows;
}

// The minibatch test at T = 0.5, 20 and 100 (the logistic default): the same population of
// Λ_i = (N/T) l_i (sd 25, so about 500 rows a test, several looks) with l_i scaled by T, so that
// the exact answer is Barker's at Δ whatever T is. A test that scales the batch by N instead of
// N/T sees Δ·T and an sd of 25·T: at T = 0.5 Barker's probability at Δ/2 (0.323 measured against
// 0.182 at Δ = −1.5), at T = 20 a batch that would need all N rows and a Δ 20 times too large. Resolution: 4.9 binomial standard errors
// over 40,000 repetitions (±0.012 at p = ½) plus the correction's L∞ error (1.3e-3); 0.2 s a row.
// N = 2000 and the finite-population factor on (and once off, with replacement) make the batch a
// large part of N, so that the variance tested must be that of the Δ* used at every T.
BOOST_DATA_TEST_CASE(minibatchAtOtherTemperatures, data::make(temperedRows()), row)
{
    const auto [delta, temperature, factor] = row;
    const DataIndex n = 2000;
    const auto model = teststats::PopulationModel::make(n, delta * temperature / n, 25.0 * temperature / n, 0, 25);
    MinibatchSettings settings;
    settings.initialBatch = 100;
    settings.batchGrowth = 100;
    settings.finitePopulationCorrection = factor;
    MinibatchBarkerTest corrected(Suite::correction, settings);
    const Outcome outcome = acceptanceRate(corrected, model, temperature, 0.0, 43);
    const double exact = teststats::barkerProbability(delta);
    BOOST_TEST(std::abs(outcome.rate - exact) <= tolerance(exact, Suite::correction->linfError()),
               "minibatch at T = " << temperature << ": " << outcome.rate << " vs Barker " << exact << " (mean batch "
                                   << outcome.meanPoints << ")");
    BOOST_TEST(outcome.meanPoints < n);
}

struct SmallPopulationRow {
    double delta;
    bool factor;
};
std::ostream &operator<<(std::ostream &out, const SmallPopulationRow &row)
{
    return out << "factor " << (row.factor ? "on" : "off") << " delta=" << row.delta;
}

std::vector<SmallPopulationRow> smallPopulationRows()
{
    std::vector<SmallPopulationRow> rows;
    for (double delta : {-2.0, 0.0, 1.0, 2.5}) {
        rows.push_back({delta, true});
        rows.push_back({delta, false});
    }
    return rows;
}

// N = 2000 and sd Λ = 35, so the batch is a large part of N (≈ 800 rows drawn without
// replacement with the finite-population factor, ≈ 1300 with replacement without it): the
// variance tested must be that of the Δ* used, or X_nc is too small and the test too
// decisive (without replacement, tested as s²/b, the noise falls ~20% short of σ²).
BOOST_DATA_TEST_CASE(smallPopulation, data::make(smallPopulationRows()), row)
{
    const auto [delta, factor] = row;
    const DataIndex n = 2000;
    const auto model = teststats::PopulationModel::make(n, delta / n, 35.0 / n, 0, 23);
    MinibatchSettings settings;
    settings.finitePopulationCorrection = factor;
    MinibatchBarkerTest corrected(Suite::correction, settings);
    const Outcome outcome = acceptanceRate(corrected, model, 1.0, 0.0, 37);
    const double exact = teststats::barkerProbability(delta);
    BOOST_TEST(std::abs(outcome.rate - exact) <= tolerance(exact, Suite::correction->linfError()),
               "minibatch " << outcome.rate << " vs Barker " << exact << " (mean batch " << outcome.meanPoints << ")");
    BOOST_TEST(outcome.meanPoints < n);
}

BOOST_AUTO_TEST_CASE(naiveShowsBias)
{
    // A fixed batch whose Δ* has variance 0.9: the naive test is Barker smeared by N(0, 0.9).
    const DataIndex n = 200000;
    const double delta = 2.5, lambdaSd = std::sqrt(0.9 * 100.0);
    const auto model = teststats::PopulationModel::make(n, delta / n, lambdaSd / n, 0, 41);
    MinibatchSettings settings;
    settings.initialBatch = 100;
    settings.batchGrowth = 100;
    // σ = 1.8 for the naive test: its batch then never grows (s² ≈ 0.9 < 3.24), so Δ* has
    // exactly the variance the smeared probability assumes.
    NaiveMinibatchBarkerTest naive(1.8, settings);
    MinibatchBarkerTest corrected(Suite::correction, settings);
    const Outcome naiveOutcome = acceptanceRate(naive, model, 1.0, 0.0, 51);
    const Outcome correctedOutcome = acceptanceRate(corrected, model, 1.0, 0.0, 52);
    const double barker = teststats::barkerProbability(delta);
    const double smeared = teststats::smearedBarkerProbability(delta, std::sqrt(0.9 * (n - 100.0) / (n - 1.0)));
    BOOST_TEST(barker - smeared > 3.0 * tolerance(barker)); // the bias is large enough to see
    BOOST_TEST(std::abs(naiveOutcome.rate - smeared) <= tolerance(smeared),
               "naive " << naiveOutcome.rate << " vs smeared " << smeared);
    BOOST_TEST(std::abs(naiveOutcome.rate - barker) > tolerance(barker),
               "naive " << naiveOutcome.rate << " should differ from Barker " << barker);
    BOOST_TEST(std::abs(correctedOutcome.rate - barker) <= tolerance(barker, Suite::correction->linfError()),
               "corrected " << correctedOutcome.rate << " vs Barker " << barker);
}

// The naive test at T = 0.5, 20 and 100 on the population above with l_i scaled by T, so that
// Λ_i = (N/T) l_i is the T = 1 population: its rate is the same smeared Barker probability. A
// naive test that scales by N instead of N/T sees Δ·T with an sd of √0.9·T: at T = 20 it accepts
// almost surely (Δ = 50), at T = 0.5 Barker smeared at Δ/2. Resolution as naiveShowsBias: 4.9
// binomial standard errors over 40,000 repetitions.
BOOST_DATA_TEST_CASE(naiveAtOtherTemperatures, data::make({0.5, 20.0, 100.0}), temperature)
{
    const DataIndex n = 200000;
    const double delta = 2.5, lambdaSd = std::sqrt(0.9 * 100.0);
    const auto model = teststats::PopulationModel::make(n, delta * temperature / n, lambdaSd * temperature / n, 0, 41);
    MinibatchSettings settings;
    settings.initialBatch = 100;
    settings.batchGrowth = 100;
    NaiveMinibatchBarkerTest naive(1.8, settings);
    const Outcome outcome = acceptanceRate(naive, model, temperature, 0.0, 53);
    const double smeared = teststats::smearedBarkerProbability(delta, std::sqrt(0.9 * (n - 100.0) / (n - 1.0)));
    BOOST_TEST(std::abs(outcome.rate - smeared) <= tolerance(smeared),
               "naive at T = " << temperature << ": " << outcome.rate << " vs smeared " << smeared << " (mean batch "
                               << outcome.meanPoints << ")");
    BOOST_TEST(std::abs(outcome.meanPoints - 100.0) < 1e-6); // its batch never grows: Δ*'s variance is the one assumed
}

BOOST_AUTO_TEST_CASE(fallbackIsExactBarker)
{
    // sd of Λ so large that even b = N − 1 rows leave s² ≥ 1: the test must reach N and
    // decide with the exact Barker probability.
    const DataIndex n = 400;
    const double delta = 0.8;
    const auto model = teststats::PopulationModel::make(n, delta / n, 400.0 / n, 0, 61);
    MinibatchSettings settings;
    settings.initialBatch = 50;
    settings.batchGrowth = 50;
    settings.finitePopulationCorrection = false;
    MinibatchBarkerTest corrected(Suite::correction, settings);
    const Outcome outcome = acceptanceRate(corrected, model, 1.0, 0.0, 71);
    const double exact = teststats::barkerProbability(delta);
    BOOST_TEST(outcome.fallbacks == kRepetitions);
    BOOST_TEST(testcheck::nearlyEqual(outcome.meanPoints, double(n)));
    BOOST_TEST(std::abs(outcome.rate - exact) <= tolerance(exact),
               "fallback " << outcome.rate << " vs Barker " << exact);
}

BOOST_AUTO_TEST_CASE(cltBoundGrowsBatch)
{
    // With δ on, the batch grows past the variance rule until ε = (6.4E|X|³+2E|X|)/√b ≤ δ.
    const DataIndex n = 50000;
    const auto model = teststats::PopulationModel::make(n, 0.0, 1.0 / n, 0, 81);
    MinibatchSettings settings;
    settings.cltBound = 0.5; // standardised normal: 6.4·1.596 + 2·0.798 ≈ 11.8 → b ≥ 560
    MinibatchBarkerTest corrected(Suite::correction, settings);
    Rng rng(5);
    const Vector a = Vector::Zero(1), b = Vector::Ones(1);
    const Decision decision = corrected.decide(TestProblem{model, a, b, 1.0, 0.0}, rng);
    BOOST_TEST((decision.pointsUsed >= 500 && decision.pointsUsed <= 700), "batch " << decision.pointsUsed);
}

BOOST_AUTO_TEST_CASE(rejectsBadSettings)
{
    MinibatchSettings settings;
    settings.initialBatch = 1;
    BOOST_CHECK_THROW(MinibatchBarkerTest(Suite::correction, settings), std::invalid_argument);
    settings.initialBatch = 100;
    settings.batchGrowth = 0;
    BOOST_CHECK_THROW(MinibatchBarkerTest(Suite::correction, settings), std::invalid_argument);
    settings.batchGrowth = 100;
    settings.cltBound = -1.0;
    BOOST_CHECK_THROW(MinibatchBarkerTest(Suite::correction, settings), std::invalid_argument);
    BOOST_CHECK_THROW(MinibatchBarkerTest(nullptr, MinibatchSettings{}), std::invalid_argument);
}

