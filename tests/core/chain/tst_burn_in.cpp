// An annealing burn-in (Seita et al., "Minibatch Acceptance Test" (later version), Sec. 6.2)
// samples at its own T₀: its rows must never count as draws of the target. The chain marks them as
// a segment of their own, the target segment starts where the burn-in ends, and every statistic of
// the target (ESS, R-hat, the posterior metrics) and the lp__ column follow that.
#include <boost/test/unit_test.hpp>

#include <memory>

#include <boost/math/distributions/normal.hpp>

#include "core/chain/chain_runner.h"
#include "core/diagnostics/chain_summary.h"
#include "core/diagnostics/chain_convergence.h"
#include "core/diagnostics/effective_sample_size.h"
#include "core/experiment/inputs/datasets.h"
#include "core/experiment/service/experiment_runner.h"
#include "core/experiment/reports/log_posterior_column.h"
#include "core/models/gaussian_mean_model.h"
#include "tests/support/nearly_equal.h"
#include "tests/support/statistics.h"

using namespace core;

constexpr double kTemperature = 20.0;
constexpr double kBurnInTemperature = 2000.0; // 100× hotter: a 10× wider posterior
constexpr std::int64_t kBurnIn = 5000;

// Suite-wide state, set up once before the first test case.
struct Suite {
    static inline std::unique_ptr<GaussianMeanModel> model;
    static inline std::unique_ptr<AcceptanceTest> test;

    void setup()
    {
        Rng rng(8);
        Eigen::VectorXd x(5000);
        for (Eigen::Index i = 0; i < x.size(); ++i)
            x[i] = 0.5 + rng.normal();
        model = std::make_unique<GaussianMeanModel>(x, 1.0);
        RunConfig config;
        config.method = TestMethod::Metropolis;
        test = makeAcceptanceTest(config, nullptr);
    }
};
BOOST_TEST_GLOBAL_FIXTURE(Suite);

ChainResult annealedChain(std::int64_t samples)
{
    const double sd = std::sqrt(Suite::model->posteriorVariance(kTemperature));
    const RandomWalkProposal proposal(sd);
    const RandomWalkProposal hotProposal(10.0 * sd);
    ChainSettings settings;
    settings.samples = samples;
    settings.seed = 4;
    settings.temperature = kTemperature;
    settings.burnIn = kBurnIn;
    settings.burnInTemperature = kBurnInTemperature;
    settings.burnInProposal = &hotProposal;
    return runChain(*Suite::model, proposal, *Suite::test, settings);
}

BOOST_AUTO_TEST_CASE(burnInIsItsOwnSegment)
{
    const ChainResult chain = annealedChain(8000);
    BOOST_TEST_REQUIRE(chain.segments.size() == std::size_t(2));
    BOOST_TEST(chain.hasBurnIn());
    BOOST_TEST(chain.segments[0].start == std::int64_t(0));
    BOOST_TEST(testcheck::nearlyEqual(chain.segments[0].temperature, kBurnInTemperature));
    BOOST_TEST(!chain.segments[1].burnIn);
    BOOST_TEST(chain.segments[1].start == kBurnIn);
    BOOST_TEST(testcheck::nearlyEqual(chain.segments[1].temperature, kTemperature));
    BOOST_TEST(chain.segments[1].startSeconds > 0.0);
    BOOST_TEST(chain.finalSegmentStart() == kBurnIn);
    BOOST_TEST(chain.targetSegmentCount() == std::size_t(1));
    BOOST_TEST(!chain.retuned(kTemperature, chain.segments[1].step));
    BOOST_TEST(testcheck::nearlyEqual(chain.temperatureAt(0), kBurnInTemperature));
    BOOST_TEST(testcheck::nearlyEqual(chain.temperatureAt(kBurnIn - 1), kBurnInTemperature));
    BOOST_TEST(testcheck::nearlyEqual(chain.temperatureAt(kBurnIn), kTemperature));
}

BOOST_AUTO_TEST_CASE(burnInMustLeaveSamples)
{
    const RandomWalkProposal proposal(0.1);
    ChainSettings settings;
    settings.samples = 100;
    settings.burnIn = 100;
    settings.burnInTemperature = 10.0;
    BOOST_CHECK_THROW(runChain(*Suite::model, proposal, *Suite::test, settings), std::invalid_argument);
    RunConfig config;
    config.samples = 100;
    config.burnIn = 100;
    config.annealFrom = 10.0;
    BOOST_CHECK_THROW(validate(config), std::invalid_argument);
}

// The diagnostics describe the target segment only: ESS equals that of rows [B, n) exactly.
BOOST_AUTO_TEST_CASE(diagnosticsSkipTheBurnIn)
{
    const ChainResult chain = annealedChain(8000);
    std::vector<double> target;
    for (std::int64_t t = kBurnIn; t < chain.completed; ++t)
        target.push_back(chain.samples(t, 0));
    const std::vector<double> ess = bulkEssPerComponent(chain);
    BOOST_TEST_REQUIRE(ess.size() == std::size_t(1));
    BOOST_TEST(testcheck::nearlyEqual(ess[0], bulkEffectiveSampleSize({target})));
}

// The target segment samples the exact posterior at T (KS, and its variance); the burn-in rows,
// from a 10× wider one, fail the same KS test, so counting them (as the chain did when its only segment
// started at 0) visibly distorts the figures.
BOOST_AUTO_TEST_CASE(targetSegmentSamplesThePosterior)
{
    const ChainResult chain = annealedChain(kBurnIn + 60'000);
    const double mean = Suite::model->posteriorMean(kTemperature);
    const double sd = std::sqrt(Suite::model->posteriorVariance(kTemperature));
    const boost::math::normal posterior(mean, sd);
    const auto cdf = [&](double v) { return boost::math::cdf(posterior, v); };
    const double alpha = 1e-4;
    std::vector<double> target;
    for (std::int64_t t = chain.finalSegmentStart() + 200; t < chain.completed; t += 25)
        target.push_back(chain.samples(t, 0));
    const double d = teststats::ksStatistic(target, cdf);
    BOOST_TEST(teststats::ksPValue(d, target.size()) > alpha, "target KS D = " << d);
    // Beside KS, the spread: the target's variance by χ² on its ESS (about ±12 % at α = 1e-4 over
    // 2,400 effective draws, ±14 % at the 1,500 required: a step or temperature left from the
    // burn-in would widen it far more).
    const double ess = effectiveSampleSize(ChainDraws{target});
    const teststats::VarianceCheck variance = teststats::varianceAgainst(target, sd * sd, ess, alpha);
    BOOST_TEST(variance.consistent(), "target variance ratio " << variance.ratio << " outside [" << variance.lower
                                                                << ", " << variance.upper << "] (ESS " << ess << ")");
    BOOST_TEST(ess > 1500.0);
    std::vector<double> burnIn;
    for (std::int64_t t = 0; t < kBurnIn; t += 10)
        burnIn.push_back(chain.samples(t, 0));
    const double dBurnIn = teststats::ksStatistic(burnIn, cdf);
    BOOST_TEST(teststats::ksPValue(dBurnIn, burnIn.size()) < alpha, "burn-in KS D = " << dBurnIn);
}

// lp__ of each row at the temperature it was sampled at.
BOOST_AUTO_TEST_CASE(logPosteriorUsesEachRowsTemperature)
{
    const ChainResult chain = annealedChain(8000);
    const std::vector<double> lp = logPosteriorColumn(chain, *Suite::model);
    BOOST_TEST_REQUIRE(lp.size() == std::size_t(8000));
    for (std::int64_t t : {std::int64_t(0), std::int64_t(17), kBurnIn - 1, kBurnIn, std::int64_t(7999)}) {
        const Vector theta = chain.samples.row(t).transpose();
        const double expected = Suite::model->logPrior(theta) + Suite::model->logLikelihoodSum(theta) / chain.temperatureAt(t);
        BOOST_TEST(testcheck::nearlyEqual(lp[static_cast<std::size_t>(t)], expected));
    }
    std::stop_source stop;
    stop.request_stop();
    BOOST_TEST(logPosteriorColumn(chain, *Suite::model, stop.get_token()).empty());
}

// Through the run used by the CLI: the mixture's posterior metrics and its binned lp__ both
// leave the burn-in rows out or evaluate them at T₀.
BOOST_AUTO_TEST_CASE(mixtureRunMeasuresTheTargetOnly)
{
    RunConfig config;
    config.method = TestMethod::Barker;
    config.nData = 20'000;
    config.temperature = 200.0;
    config.samples = 3000;
    config.burnIn = 1000;
    config.annealFrom = 20'000.0;
    config.seed = 3;
    const DatasetInstance dataset = makeDataset(config, true);
    const ExperimentOutcome outcome = runExperiment(config, dataset, nullptr);
    BOOST_TEST_REQUIRE(outcome.posterior.has_value());
    BOOST_TEST(outcome.posterior->samples == std::int64_t(2000)); // rows [1000, 3000) only
    const std::vector<double> lp = logPosteriorColumn(outcome.chain, *dataset.gmmPosterior);
    const auto &s = outcome.chain.samples;
    BOOST_TEST(testcheck::nearlyEqual(lp[10], dataset.gmmPosterior->logDensity(s(10, 0), s(10, 1), 20'000.0)));
    BOOST_TEST(testcheck::nearlyEqual(lp[2500], dataset.gmmPosterior->logDensity(s(2500, 0), s(2500, 1), 200.0)));
}


// --burn-in B without --anneal-from: a warm-up at the target itself. runConfiguredChain runs
// rows [0, B) at config.temperature with the main step, marked as a burn-in segment.
BOOST_AUTO_TEST_CASE(plainBurnInRunsAtTheTarget)
{
    RunConfig config;
    config.method = TestMethod::Barker;
    config.nData = 20'000;
    config.temperature = 200.0;
    config.samples = 1500;
    config.burnIn = 500;
    config.seed = 3;
    BOOST_CHECK_NO_THROW(validate(config));
    const DatasetInstance dataset = makeDataset(config, false);
    const ChainResult chain = runConfiguredChain(config, dataset, {});
    BOOST_TEST_REQUIRE(chain.segments.size() == std::size_t(2));
    BOOST_TEST(chain.segments[0].burnIn);
    BOOST_TEST(chain.segments[0].temperature == config.temperature);
    BOOST_TEST(chain.segments[0].step == config.step);
    BOOST_TEST(!chain.segments[1].burnIn);
    BOOST_TEST(chain.segments[1].start == std::int64_t(500));
    BOOST_TEST(chain.burnInRows() == std::int64_t(500));
    BOOST_TEST(!chain.retuned(config.temperature, config.step));
}

// A chain started 400 posterior sd from the mode spends its first thousand or so iterations
// walking in. Counted, those rows move the sample mean by tens of Monte Carlo standard
// errors; with a burn-in at the target they are dropped, and the target rows pass the same
// mean and KS checks the annealed chain passes. The summary's acceptance and batch figures
// describe the target rows too.
BOOST_AUTO_TEST_CASE(burnInAtTheTargetRemovesAFarStart)
{
    const double mean = Suite::model->posteriorMean(kTemperature);
    const double sd = std::sqrt(Suite::model->posteriorVariance(kTemperature));
    const RandomWalkProposal proposal(sd);
    ChainSettings settings;
    settings.samples = kBurnIn + 60'000;
    settings.seed = 5;
    settings.temperature = kTemperature;
    settings.initialTheta = Vector::Constant(1, mean + 400.0 * sd);
    settings.burnIn = kBurnIn;
    settings.burnInTemperature = kTemperature;
    const ChainResult chain = runChain(*Suite::model, proposal, *Suite::test, settings);
    BOOST_TEST_REQUIRE(chain.completed == settings.samples);

    auto meanError = [&](std::int64_t first) { // |sample mean − exact mean| in MCSE
        std::vector<double> draws;
        for (std::int64_t t = first; t < chain.completed; ++t)
            draws.push_back(chain.samples(t, 0));
        double total = 0.0;
        for (double v : draws)
            total += v;
        const double mcse = sd / std::sqrt(effectiveSampleSize({draws}));
        return std::abs(total / static_cast<double>(draws.size()) - mean) / mcse;
    };
    BOOST_TEST(meanError(chain.burnInRows()) < 4.5);
    BOOST_TEST(meanError(0) > 10.0); // what counting the walk-in would do: the check above fails

    const boost::math::normal posterior(mean, sd);
    const auto cdf = [&](double v) { return boost::math::cdf(posterior, v); };
    std::vector<double> target;
    for (std::int64_t t = chain.burnInRows(); t < chain.completed; t += 25)
        target.push_back(chain.samples(t, 0));
    const double d = teststats::ksStatistic(target, cdf);
    BOOST_TEST(teststats::ksPValue(d, target.size()) > 1e-4, "target KS D = " << d);

    const ChainSummary summary = summarize(chain, Suite::model->dataSize());
    std::int64_t accepted = 0;
    for (std::int64_t t = kBurnIn; t < chain.completed; ++t)
        accepted += chain.accepted[static_cast<std::size_t>(t)];
    BOOST_TEST(summary.iterations == chain.completed - kBurnIn);
    BOOST_TEST(summary.burnInIterations == kBurnIn);
    BOOST_TEST(summary.acceptanceRate() == static_cast<double>(accepted) / static_cast<double>(summary.iterations));
    BOOST_TEST(summary.dataPointsUsed() == summary.iterations * Suite::model->dataSize()); // full-data test
    BOOST_TEST(summary.burnInPointsRead == kBurnIn * Suite::model->dataSize());
}
