// Temperature and step changes during a run: where they take effect, how they are recorded,
// and that the segment after a change samples the new tempered posterior.
#include <boost/test/unit_test.hpp>

#include <memory>
#include <thread>

#include <boost/math/distributions/normal.hpp>

#include "core/chain/chain_runner.h"
#include "core/chain/live_tuning.h"
#include "core/experiment/settings/run_config.h"
#include "core/models/gaussian_mean_model.h"
#include "tests/support/nearly_equal.h"
#include "tests/support/statistics.h"

using namespace core;

// Suite-wide state, set up once before the first test case.
struct Suite {
    static inline std::unique_ptr<GaussianMeanModel> model;
    static inline std::unique_ptr<AcceptanceTest> test;

    void setup()
    {
        Rng rng(11);
        Eigen::VectorXd x(5000);
        for (Eigen::Index i = 0; i < x.size(); ++i)
            x[i] = -0.3 + rng.normal();
        model = std::make_unique<GaussianMeanModel>(x, 1.0);
        RunConfig config;
        config.method = TestMethod::Barker;
        test = makeAcceptanceTest(config, nullptr);
    }
};
BOOST_TEST_GLOBAL_FIXTURE(Suite);

ChainSettings settings(std::int64_t samples, double temperature, const LiveTuning *tuning)
{
    ChainSettings chain;
    chain.samples = samples;
    chain.seed = 7;
    chain.temperature = temperature;
    chain.progressInterval = std::chrono::milliseconds(0);
    chain.tuning = tuning;
    return chain;
}

BOOST_AUTO_TEST_CASE(withoutChangesThereIsOneSegment)
{
    LiveTuning tuning;
    const RandomWalkProposal proposal(0.05);
    const ChainResult chain = runChain(*Suite::model, proposal, *Suite::test, settings(500, 10.0, &tuning));
    BOOST_TEST_REQUIRE(chain.segments.size() == std::size_t(1));
    BOOST_TEST(chain.segments[0].start == std::int64_t(0));
    BOOST_TEST(testcheck::nearlyEqual(chain.segments[0].temperature, 10.0));
    BOOST_TEST(testcheck::nearlyEqual(chain.segments[0].step, 0.05));
    BOOST_TEST(chain.finalSegmentStart() == std::int64_t(0));
}

BOOST_AUTO_TEST_CASE(requestBeforeStartReplacesFirstSegment)
{
    LiveTuning tuning;
    tuning.setTemperature(3.0);
    const RandomWalkProposal proposal(0.05);
    const ChainResult chain = runChain(*Suite::model, proposal, *Suite::test, settings(200, 10.0, &tuning));
    BOOST_TEST_REQUIRE(chain.segments.size() == std::size_t(1));
    BOOST_TEST(testcheck::nearlyEqual(chain.segments[0].temperature, 3.0));
    BOOST_TEST(testcheck::nearlyEqual(chain.segments[0].step, 0.05));
}

// The progress callback runs on the chain's thread after iteration `last - 1`, so a change
// made there must start exactly at iteration `last`.
BOOST_AUTO_TEST_CASE(changeStartsSegmentAtNextIteration)
{
    LiveTuning tuning;
    const RandomWalkProposal proposal(0.05);
    std::int64_t temperatureAt = -1, stepAt = -1;
    const ChainResult chain = runChain(*Suite::model, proposal, *Suite::test, settings(2000, 10.0, &tuning), {},
                                       [&](const ChainResult &, std::int64_t, std::int64_t last) {
                                           if (temperatureAt < 0 && last >= 500) {
                                               tuning.setTemperature(40.0);
                                               temperatureAt = last;
                                           } else if (stepAt < 0 && last >= 1200) {
                                               tuning.setStep(0.2);
                                               stepAt = last;
                                           }
                                       });
    BOOST_TEST_REQUIRE(chain.segments.size() == std::size_t(3));
    BOOST_TEST(chain.segments[1].start == temperatureAt);
    BOOST_TEST(testcheck::nearlyEqual(chain.segments[1].temperature, 40.0));
    BOOST_TEST(testcheck::nearlyEqual(chain.segments[1].step, 0.05));
    BOOST_TEST(chain.segments[2].start == stepAt);
    BOOST_TEST(testcheck::nearlyEqual(chain.segments[2].temperature, 40.0));
    BOOST_TEST(testcheck::nearlyEqual(chain.segments[2].step, 0.2));
    BOOST_TEST(chain.finalSegmentStart() == stepAt);
}

BOOST_AUTO_TEST_CASE(repeatingTheCurrentValueStartsNoSegment)
{
    LiveTuning tuning;
    const RandomWalkProposal proposal(0.05);
    bool asked = false;
    const ChainResult chain = runChain(*Suite::model, proposal, *Suite::test, settings(1000, 10.0, &tuning), {},
                                       [&](const ChainResult &, std::int64_t, std::int64_t last) {
                                           if (!asked && last >= 300) {
                                               tuning.setTemperature(10.0);
                                               tuning.setStep(0.05);
                                               asked = true;
                                           }
                                       });
    BOOST_TEST(asked);
    BOOST_TEST_REQUIRE(chain.segments.size() == std::size_t(1));
}

// Start at a temperature 50 times too cold, switch to T = 20 after 3000 iterations, and test
// the final segment (after its own burn-in) against the exact tempered posterior at T = 20:
// mean, variance (χ²) and a KS test on thinned draws.
BOOST_AUTO_TEST_CASE(finalSegmentSamplesTheNewPosterior)
{
    constexpr double kNewTemperature = 20.0;
    const double mean = Suite::model->posteriorMean(kNewTemperature);
    const double sd = std::sqrt(Suite::model->posteriorVariance(kNewTemperature));
    LiveTuning tuning;
    const RandomWalkProposal proposal(sd / 7.0); // right for T = 0.4, far too small for T = 20
    std::int64_t switchedAt = -1;
    const ChainResult chain =
        runChain(*Suite::model, proposal, *Suite::test, settings(3000 + 61000, kNewTemperature / 50.0, &tuning), {},
                 [&](const ChainResult &, std::int64_t, std::int64_t last) {
                     if (switchedAt < 0 && last >= 3000) {
                         tuning.setTemperature(kNewTemperature);
                         tuning.setStep(sd);
                         switchedAt = last;
                     }
                 });
    BOOST_TEST_REQUIRE(chain.segments.size() == std::size_t(2));
    BOOST_TEST(chain.finalSegmentStart() == switchedAt);
    std::vector<double> thinned;
    for (std::int64_t t = switchedAt + 1000; t < chain.completed; t += 30)
        thinned.push_back(chain.samples(t, 0));
    const double n = static_cast<double>(thinned.size());
    BOOST_TEST(n > 1800);
    const Eigen::Map<const Eigen::ArrayXd> values(thinned.data(), static_cast<Eigen::Index>(thinned.size()));
    const double sampleMean = values.mean();
    const double sampleVariance = (values - sampleMean).square().sum() / (n - 1.0);
    const double alpha = 1e-4;
    BOOST_TEST(std::abs(sampleMean - mean) < teststats::zCritical(alpha) * sd / std::sqrt(n),
               "mean " << sampleMean << " vs " << mean);
    const double ratio = sampleVariance / (sd * sd) * (n - 1.0);
    BOOST_TEST((ratio > teststats::chiSquaredLower(n - 1.0, alpha / 2) && ratio < teststats::chiSquaredUpper(n - 1.0, alpha / 2)),
               "variance " << sampleVariance << " vs " << sd * sd);
    const boost::math::normal posterior(mean, sd);
    const double d = teststats::ksStatistic(thinned, [&](double v) { return boost::math::cdf(posterior, v); });
    BOOST_TEST(teststats::ksPValue(d, thinned.size()) > alpha, "KS D = " << d);

    // The cold first segment is far narrower: the test above can tell the two apart.
    std::vector<double> cold;
    for (std::int64_t t = 1000; t < switchedAt; t += 5)
        cold.push_back(chain.samples(t, 0));
    const double dCold = teststats::ksStatistic(cold, [&](double v) { return boost::math::cdf(posterior, v); });
    BOOST_TEST(teststats::ksPValue(dCold, cold.size()) < alpha, "cold KS D = " << dCold);
}

// During a burn-in the schedule's own temperature runs on, so a change starts its segment
// where the burn-in ends, wherever it was made.
BOOST_AUTO_TEST_CASE(changeDuringBurnInStartsAfterIt)
{
    LiveTuning tuning;
    const RandomWalkProposal proposal(0.05);
    ChainSettings chain = settings(1000, 10.0, &tuning);
    chain.burnIn = 400;
    chain.burnInTemperature = 100.0;
    bool asked = false;
    const ChainResult result = runChain(*Suite::model, proposal, *Suite::test, chain, {},
                                        [&](const ChainResult &, std::int64_t, std::int64_t last) {
                                            if (!asked && last >= 100) {
                                                tuning.setTemperature(20.0);
                                                asked = true;
                                            }
                                        });
    BOOST_TEST(asked);
    BOOST_TEST_REQUIRE(result.segments.size() == std::size_t(2)); // the burn-in, then the target with the change
    BOOST_TEST(result.segments[0].burnIn);
    BOOST_TEST(result.segments[1].start == std::int64_t(400));
    BOOST_TEST(testcheck::nearlyEqual(result.segments[1].temperature, 20.0));
    BOOST_TEST(result.segments[1].startSeconds > 0.0);
    // Asked before the start: the same, not a replaced first segment.
    LiveTuning early;
    early.setTemperature(30.0);
    chain.tuning = &early;
    const ChainResult second = runChain(*Suite::model, proposal, *Suite::test, chain);
    BOOST_TEST_REQUIRE(second.segments.size() == std::size_t(2));
    BOOST_TEST(second.segments[0].burnIn);
    BOOST_TEST(testcheck::nearlyEqual(second.segments[0].temperature, 100.0)); // the burn-in's own T₀
    BOOST_TEST(second.segments[1].start == std::int64_t(400));
    BOOST_TEST(testcheck::nearlyEqual(second.segments[1].temperature, 30.0));
    BOOST_TEST(!second.segments[1].burnIn);
}

BOOST_AUTO_TEST_CASE(changesFromAnotherThread)
{
    LiveTuning tuning;
    const RandomWalkProposal proposal(0.05);
    std::atomic<bool> started{false};
    std::jthread changer([&] {
        while (!started.load())
            std::this_thread::yield();
        tuning.setStep(0.1);
    });
    const ChainResult chain = runChain(*Suite::model, proposal, *Suite::test, settings(400'000, 10.0, &tuning), {},
                                       [&](const ChainResult &, std::int64_t, std::int64_t) { started = true; });
    changer.join();
    BOOST_TEST(testcheck::nearlyEqual(chain.segments.back().step, 0.1));
    BOOST_TEST(chain.segments.size() <= 2);
}

BOOST_AUTO_TEST_CASE(onlyPreDesignedTestsRefuseLiveChanges)
{
    for (TestMethod method : allMethods()) {
        RunConfig config;
        config.method = method;
        BOOST_TEST(followsLiveTuning(config)); // AustereMH(c) at the paper's fixed (m, ε) included
        config.austereErrorBound = 0.01;
        BOOST_TEST(followsLiveTuning(config) == (method != TestMethod::AustereConservative));
    }
}

BOOST_AUTO_TEST_CASE(rejectsBadValues)
{
    LiveTuning tuning;
    BOOST_CHECK_THROW(tuning.setTemperature(0.0), std::invalid_argument);
    BOOST_CHECK_THROW(tuning.setTemperature(-2.0), std::invalid_argument);
    BOOST_CHECK_THROW(tuning.setTemperature(std::nan("")), std::invalid_argument);
    BOOST_CHECK_THROW(tuning.setStep(0.0), std::invalid_argument);
    BOOST_CHECK_THROW(tuning.setStep(INFINITY), std::invalid_argument);
    BOOST_TEST(tuning.version() == std::uint64_t(0));
    tuning.setStep(0.3);
    tuning.clear();
    BOOST_TEST(std::isnan(tuning.latest().step));
    BOOST_TEST(tuning.version() == std::uint64_t(1));
}

