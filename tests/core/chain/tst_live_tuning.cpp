// Temperature and step changes during a run: where they take effect, how they are recorded,
// and that the segment after a change samples the new tempered posterior.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <memory>
#include <string>
#include <thread>

#include <boost/math/distributions/normal.hpp>

#include "core/chain/chain_runner.h"
#include "core/chain/live_tuning.h"
#include "core/experiment/settings/run_config.h"
#include "core/models/gaussian_mean_model.h"
#include "core/proposals/adaptive_random_walk_proposal.h"
#include "core/proposals/langevin_proposal.h"
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

namespace {

double acceptanceOver(const ChainResult &chain, std::int64_t from, std::int64_t to)
{
    double accepted = 0.0;
    for (std::int64_t t = from; t < to; ++t)
        accepted += chain.accepted[static_cast<std::size_t>(t)];
    return accepted / static_cast<double>(to - from);
}

} // namespace

// A live change of T under an adaptive proposal: the frozen scale is multiplied by √(T′/T)
// at once, learned again in a segment marked `relearning` (iterations the figures skip), and
// frozen where a target segment starts. T falls tenfold here, as a drag from 10⁴ to 10³ does:
// with the old scale (3.2 times too wide for the new posterior) Barker's test in one dimension
// accepts 0.10 of the random walk's moves after the change (measured with the re-adaptation
// switched off), where the re-learned scale brings the final segment to 0.31, the burn-in's
// target being 0.30 (0.27 before the change). The same for the adaptive Langevin step (its
// preconditioner kept, h alone rescaled and re-learned; full-data gradient), whose old step
// accepted none of the 60,000 moves after the change (measured with the re-adaptation switched
// off: a drift 10 times too long overshoots the new, narrower posterior every time).
BOOST_DATA_TEST_CASE(temperatureChangeRelearnsAnAdaptiveScale, boost::unit_test::data::make({"adaptive", "adaptive-langevin"}),
                     kind)
{
    constexpr double kOldTemperature = 10.0, kNewTemperature = 1.0;
    constexpr std::int64_t kBurnIn = 4000, kSamples = 80'000, kRelearn = 1000;
    const double newSd = std::sqrt(Suite::model->posteriorVariance(kNewTemperature));
    AdaptationSettings adaptation;
    adaptation.burnInLength = kBurnIn;
    std::unique_ptr<AdaptiveProposal> proposal;
    if (std::string(kind) == "adaptive")
        proposal = std::make_unique<AdaptiveRandomWalkProposal>(1, newSd, adaptation);
    else
        proposal = std::make_unique<LangevinProposal>(*Suite::model, newSd, Suite::model->dataSize(), adaptation);
    LiveTuning tuning;
    ChainSettings chain = settings(kSamples, kOldTemperature, &tuning);
    chain.burnIn = kBurnIn;
    chain.burnInTemperature = kOldTemperature;
    chain.adaptation = proposal.get();
    chain.relearnIterations = kRelearn;
    std::int64_t switchedAt = -1;
    const ChainResult result = runChain(*Suite::model, *proposal, *Suite::test, chain, {},
                                        [&](const ChainResult &, std::int64_t, std::int64_t last) {
                                            if (switchedAt < 0 && last >= kSamples / 4) {
                                                tuning.setTemperature(kNewTemperature);
                                                switchedAt = last;
                                            }
                                        });
    BOOST_TEST_REQUIRE(result.segments.size() == std::size_t(4)); // burn-in, T = 10, re-learning, T = 1
    const ChainSegment &before = result.segments[1], &relearning = result.segments[2], &after = result.segments[3];
    BOOST_TEST(!before.relearning);
    BOOST_TEST(relearning.relearning);
    BOOST_TEST(!relearning.burnIn);
    BOOST_TEST(relearning.start == switchedAt);
    BOOST_TEST(testcheck::nearlyEqual(relearning.temperature, kNewTemperature));
    // The first re-learning step is the frozen one rescaled, exactly.
    BOOST_TEST(testcheck::nearlyEqual(relearning.step, before.step * std::sqrt(kNewTemperature / kOldTemperature)));
    BOOST_TEST(after.start == switchedAt + kRelearn);
    BOOST_TEST(!after.relearning);
    BOOST_TEST(testcheck::nearlyEqual(after.temperature, kNewTemperature));
    BOOST_TEST(result.finalSegmentStart() == after.start);
    // What the summary reports as the final step is the re-learned one.
    BOOST_TEST_REQUIRE(result.adaptation.has_value());
    BOOST_TEST(testcheck::nearlyEqual(result.adaptation->scale, after.step));
    BOOST_TEST(result.relearnedProposal != nullptr);
    BOOST_TEST(testcheck::nearlyEqual(result.relearnedTemperature, kNewTemperature));

    // Acceptance before the change and after the re-adaptation, each over tens of thousands
    // of iterations: binomial sd below 0.003 even with an autocorrelation time of 5, so ±0.05
    // around the target is over 15 sd wide and 0.10 (the unrescaled kernel) far outside it.
    const double acceptedBefore = acceptanceOver(result, before.start, relearning.start);
    const double acceptedAfter = acceptanceOver(result, after.start, result.completed);
    const double acceptedRelearning = acceptanceOver(result, relearning.start, relearning.start + 200);
    BOOST_TEST_MESSAGE(kind << ": acceptance " << acceptedBefore << " before the change, " << acceptedRelearning
                            << " over the re-learning's first 200 iterations, " << acceptedAfter
                            << " after it; step " << before.step << " -> " << relearning.step << " -> " << after.step);
    BOOST_TEST(std::abs(acceptedBefore - adaptation.targetAcceptance) < 0.05, "before " << acceptedBefore);
    BOOST_TEST(std::abs(acceptedAfter - adaptation.targetAcceptance) < 0.05, "after " << acceptedAfter);

    // The final segment samples the new posterior: mean and variance (χ²) on thinned draws.
    std::vector<double> thinned;
    for (std::int64_t t = after.start + 200; t < result.completed; t += 20)
        thinned.push_back(result.samples(t, 0));
    const double n = static_cast<double>(thinned.size());
    const Eigen::Map<const Eigen::ArrayXd> values(thinned.data(), static_cast<Eigen::Index>(thinned.size()));
    const double sampleMean = values.mean();
    const double sampleVariance = (values - sampleMean).square().sum() / (n - 1.0);
    const double alpha = 1e-4;
    BOOST_TEST(std::abs(sampleMean - Suite::model->posteriorMean(kNewTemperature))
                   < teststats::zCritical(alpha) * newSd / std::sqrt(n),
               "mean " << sampleMean);
    const double ratio = sampleVariance / (newSd * newSd) * (n - 1.0);
    BOOST_TEST((ratio > teststats::chiSquaredLower(n - 1.0, alpha / 2) && ratio < teststats::chiSquaredUpper(n - 1.0, alpha / 2)),
               "variance " << sampleVariance << " vs " << newSd * newSd);
}

// T changed during an adaptive burn-in: the scale the burn-in learned is for the old T, so where
// the burn-in ends it is rescaled by √(T′/T) and learned again, as after a change made later
// (before this, the chain went on at the new T with the old T's scale: for T falling tenfold,
// 3.2 times too wide, and an acceptance of 0.104 over the 40,000 draws instead of the target's
// 0.30; now 0.28 in the target segment).
BOOST_AUTO_TEST_CASE(temperatureChangeDuringAnAdaptiveBurnInRelearnsWhereItEnds)
{
    constexpr double kOldTemperature = 10.0, kNewTemperature = 1.0;
    constexpr std::int64_t kBurnIn = 4000, kSamples = 44'000, kRelearn = 1000;
    AdaptationSettings adaptation;
    AdaptiveRandomWalkProposal proposal(1, std::sqrt(Suite::model->posteriorVariance(kNewTemperature)), adaptation);
    LiveTuning tuning;
    ChainSettings chain = settings(kSamples, kOldTemperature, &tuning);
    chain.burnIn = kBurnIn;
    chain.burnInTemperature = kOldTemperature;
    chain.adaptation = &proposal;
    chain.relearnIterations = kRelearn;
    bool asked = false;
    const ChainResult result = runChain(*Suite::model, proposal, *Suite::test, chain, {},
                                        [&](const ChainResult &, std::int64_t, std::int64_t last) {
                                            if (!asked && last >= kBurnIn / 2) {
                                                BOOST_TEST_REQUIRE(last < kBurnIn);
                                                tuning.setTemperature(kNewTemperature);
                                                asked = true;
                                            }
                                        });
    BOOST_TEST_REQUIRE(asked);
    BOOST_TEST_REQUIRE(result.segments.size() == std::size_t(3)); // burn-in, re-learning at T = 1, T = 1
    const ChainSegment &burnIn = result.segments[0], &relearning = result.segments[1], &after = result.segments[2];
    BOOST_TEST(burnIn.burnIn);
    BOOST_TEST(relearning.relearning);
    BOOST_TEST(relearning.start == kBurnIn);
    BOOST_TEST(testcheck::nearlyEqual(relearning.temperature, kNewTemperature));
    BOOST_TEST(after.start == kBurnIn + kRelearn);
    BOOST_TEST(!after.relearning);
    BOOST_TEST(result.finalSegmentStart() == after.start);
    BOOST_TEST_REQUIRE(result.relearnedProposal != nullptr);
    BOOST_TEST(testcheck::nearlyEqual(result.relearnedTemperature, kNewTemperature));
    const double acceptedAfter = acceptanceOver(result, after.start, result.completed);
    const double acceptedRelearning = acceptanceOver(result, relearning.start, relearning.start + 200);
    BOOST_TEST_MESSAGE("re-learning's first 200 iterations accept " << acceptedRelearning << ", the target segment "
                                                                    << acceptedAfter << "; step " << relearning.step
                                                                    << " -> " << after.step);
    BOOST_TEST(std::abs(acceptedAfter - adaptation.targetAcceptance) < 0.05, "after " << acceptedAfter);
}

// The user's step, set while a scale is being re-learned for a new T, ends the re-learning:
// the step is the user's from there on, no learning is reported any more (the window's
// ellipse would draw a scale that no longer moves), and a continuous run's next lap is not
// handed the re-learned proposal, which would undo the user's step.
BOOST_AUTO_TEST_CASE(stepChangeDuringRelearningEndsIt)
{
    constexpr double kUserStep = 0.3;
    constexpr std::int64_t kBurnIn = 2000, kSamples = 20'000, kRelearn = 4000;
    AdaptationSettings adaptation;
    AdaptiveRandomWalkProposal proposal(1, 0.1, adaptation);
    LiveTuning tuning;
    ChainSettings chain = settings(kSamples, 10.0, &tuning);
    chain.burnIn = kBurnIn;
    chain.burnInTemperature = 10.0;
    chain.adaptation = &proposal;
    chain.relearnIterations = kRelearn;
    std::int64_t switchedAt = -1, steppedAt = -1;
    bool learningShownAfterTheStep = false;
    const ChainResult result = runChain(*Suite::model, proposal, *Suite::test, chain, {},
                                        [&](const ChainResult &running, std::int64_t, std::int64_t last) {
                                            if (switchedAt < 0 && last >= kSamples / 4) {
                                                tuning.setTemperature(1.0);
                                                switchedAt = last;
                                            } else if (switchedAt >= 0 && steppedAt < 0 && last >= switchedAt + kRelearn / 4) {
                                                tuning.setStep(kUserStep);
                                                steppedAt = last;
                                            } else if (steppedAt >= 0 && last > steppedAt + 10 && running.learning) {
                                                learningShownAfterTheStep = true;
                                            }
                                        });
    BOOST_TEST_REQUIRE(steppedAt > 0);
    BOOST_TEST_REQUIRE(steppedAt < switchedAt + kRelearn); // the step came while re-learning
    BOOST_TEST_REQUIRE(result.segments.size() == std::size_t(4)); // burn-in, T = 10, re-learning, the user's step
    BOOST_TEST(result.segments[2].relearning);
    const ChainSegment &last = result.segments.back();
    BOOST_TEST(!last.relearning);
    BOOST_TEST(last.start == steppedAt);
    BOOST_TEST(testcheck::nearlyEqual(last.step, kUserStep));
    BOOST_TEST(result.finalSegmentStart() == last.start);
    BOOST_TEST(!learningShownAfterTheStep);
    BOOST_TEST(!result.learning.has_value());
    BOOST_TEST(result.relearnedProposal == nullptr);
}

// A non-adaptive proposal keeps the user's step: only the segment records the change.
BOOST_AUTO_TEST_CASE(temperatureChangeKeepsAFixedStep)
{
    LiveTuning tuning;
    const RandomWalkProposal proposal(0.05);
    bool asked = false;
    const ChainResult chain = runChain(*Suite::model, proposal, *Suite::test, settings(2000, 10.0, &tuning), {},
                                       [&](const ChainResult &, std::int64_t, std::int64_t last) {
                                           if (!asked && last >= 500) {
                                               tuning.setTemperature(1.0);
                                               asked = true;
                                           }
                                       });
    BOOST_TEST_REQUIRE(chain.segments.size() == std::size_t(2));
    BOOST_TEST(!chain.segments[1].relearning);
    BOOST_TEST(testcheck::nearlyEqual(chain.segments[1].step, 0.05));
    BOOST_TEST(chain.relearnedProposal == nullptr);
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

