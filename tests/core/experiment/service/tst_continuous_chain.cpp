// Runs until stopped (core/experiment/service/continuous_chain.h): one chain made of timed laps. Each
// lap goes on from the last θ with its own stream, so the chain as a whole must still sample
// the exact posterior; the window keeps the last K rows; the pace holds across laps; and a new
// acceptance test (LiveKernel) continues the chain as a new segment.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <numeric>
#include <string>
#include <stop_token>
#include <thread>
#include <vector>

#include <boost/math/distributions/normal.hpp>

#include "core/chain/pause_gate.h"
#include "core/experiment/service/continuous_chain.h"
#include "core/experiment/service/run_service.h"
#include "core/models/gaussian_mean_model.h"
#include "tests/support/small_runs.h"
#include "tests/support/statistics.h"

using namespace core;

namespace {

constexpr double kTemperature = 20.0;

// The worst-case data (x ~ N(0.5, 1), flat prior) at N/T = 1000: the posterior of θ is
// N(x̄, T/N), known exactly.
RunConfig worstCase(TestMethod method, std::int64_t window)
{
    RunConfig config;
    config.dataset = "worst-case";
    config.method = method;
    config.nData = 20'000;
    config.temperature = kTemperature;
    config.step = std::sqrt(kTemperature / 20'000.0); // about the posterior sd
    config.samples = window;
    config.seed = 99;
    config.correction.grid = 2000;
    return config;
}

struct Continuous {
    DatasetInstance dataset;
    ChainInputs inputs;
    std::stop_source stop;
    std::vector<std::int64_t> lapStarts; ///< firstIteration of each lap, in order
    std::vector<std::int64_t> lapRows;
    ChainResult firstLap;

    explicit Continuous(const RunConfig &config) : dataset(makeDataset(config, false))
    {
        if (needsCorrection(config.method))
            inputs.correction = std::make_shared<const CorrectionDistribution>(CorrectionDistribution::solve(config.correction));
        inputs.stop = stop.get_token();
    }

    // Runs until at least `iterations` iterations are done, then stops.
    ChainResult runFor(const RunConfig &config, std::int64_t iterations, ContinuousChainHooks hooks = {},
                       RunConfig *ended = nullptr)
    {
        std::int64_t done = 0;
        hooks.lapEnded = [&](const ChainResult &lap) {
            if (lapStarts.empty())
                firstLap = lap;
            lapStarts.push_back(lap.firstIteration);
            lapRows.push_back(lap.completed);
            done += lap.completed;
            if (done >= iterations)
                stop.request_stop();
        };
        return runUntilStopped(config, dataset, inputs, hooks, ended);
    }
};

// Hooks that follow `kernel`'s changes, solving each new test's correction table.
ContinuousChainHooks followingKernel(const LiveKernel &kernel)
{
    ContinuousChainHooks hooks;
    hooks.kernel = &kernel;
    hooks.prepareKernel = [](RunConfig &next, ChainInputs &inputs) {
        inputs.correction = std::make_shared<const CorrectionDistribution>(CorrectionDistribution::solve(next.correction));
    };
    return hooks;
}

} // namespace

BOOST_AUTO_TEST_CASE(lapsFormOneChainThatSamplesTheExactPosterior)
{
    const RunConfig config = worstCase(TestMethod::Minibatch, 61'000);
    Continuous run(config);
    const ChainResult window = run.runFor(config, 80'000);

    // The laps number their rows one after the other, and the window holds the last K.
    BOOST_TEST_REQUIRE(run.lapStarts.size() >= std::size_t(2));
    for (std::size_t k = 1; k < run.lapStarts.size(); ++k)
        BOOST_TEST(run.lapStarts[k] == run.lapStarts[k - 1] + run.lapRows[k - 1]);
    const std::int64_t total = run.lapStarts.back() + run.lapRows.back();
    BOOST_TEST(window.completed == config.samples);
    BOOST_TEST(window.firstIteration == total - config.samples);
    BOOST_TEST(window.stopped);
    BOOST_TEST_REQUIRE(window.segments.size() == std::size_t(1)); // no change: one segment
    BOOST_TEST(window.segments[0].start == std::int64_t(0));

    // Thinned by 30: about 2000 nearly independent draws of N(x̄, T/N).
    const auto &model = dynamic_cast<const GaussianMeanModel &>(*run.dataset.model);
    const double mean = model.posteriorMean(kTemperature);
    const double sd = std::sqrt(model.posteriorVariance(kTemperature));
    std::vector<double> thinned;
    for (std::int64_t t = 0; t < window.completed; t += 30)
        thinned.push_back(window.samples(t, 0));
    const double n = static_cast<double>(thinned.size());
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
}

BOOST_AUTO_TEST_CASE(firstLapIsTheFixedLengthChainsStart)
{
    RunConfig config = worstCase(TestMethod::Barker, 5000);
    Continuous run(config);
    run.runFor(config, 3000);
    BOOST_TEST_REQUIRE(run.firstLap.completed > 0);
    config.samples = run.firstLap.completed;
    const ChainResult fixed = runConfiguredChain(config, run.dataset, ChainInputs{});
    BOOST_TEST((fixed.samples == run.firstLap.samples.topRows(run.firstLap.completed)));
    // Later laps draw other streams.
    BOOST_TEST(lapSeed(config.seed, 0) == config.seed);
    BOOST_TEST(lapSeed(config.seed, 1) != lapSeed(config.seed, 2));
    BOOST_TEST(lapSeed(config.seed, 1) != lapSeed(config.seed + 1, 1));
}

BOOST_AUTO_TEST_CASE(aSmallWindowKeepsTheLatestRows)
{
    const RunConfig config = worstCase(TestMethod::Barker, 300);
    Continuous run(config);
    const ChainResult window = run.runFor(config, 5000);
    const std::int64_t total = run.lapStarts.back() + run.lapRows.back();
    BOOST_TEST(window.completed == std::int64_t(300));
    BOOST_TEST(window.firstIteration == total - 300);
    BOOST_TEST(window.batchSize.size() == std::size_t(300));
    BOOST_TEST(window.samples.rows() == 300);
}

BOOST_AUTO_TEST_CASE(thePaceHoldsAcrossLaps)
{
    const RunConfig config = worstCase(TestMethod::Barker, 1000);
    Continuous run(config);
    PauseGate gate;
    gate.setPace(200.0); // 0.2 s per lap-time: every lap is 20 iterations or fewer
    run.inputs.pauseGate = &gate;
    const auto start = std::chrono::steady_clock::now();
    std::jthread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(600));
        run.stop.request_stop();
    });
    const ChainResult window = run.runFor(config, 1'000'000);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::int64_t total = window.firstIteration + window.completed;
    BOOST_TEST(run.lapStarts.size() >= std::size_t(3));
    // At most one iteration per 1/200 s, the first at once; never a burst at a lap's start.
    BOOST_TEST(total <= static_cast<std::int64_t>(200.0 * elapsed) + 1, total << " iterations in " << elapsed << " s");
    BOOST_TEST(total >= 1);
}

BOOST_AUTO_TEST_CASE(aNewAcceptanceTestContinuesTheChainAsASegment)
{
    const RunConfig config = worstCase(TestMethod::Minibatch, 100'000);
    Continuous run(config);
    LiveKernel kernel;
    RunConfig wanted = config;
    wanted.correction.sigma = 1.2;
    std::atomic<int> prepared{0};
    ContinuousChainHooks hooks;
    hooks.kernel = &kernel;
    hooks.prepareKernel = [&](RunConfig &next, ChainInputs &inputs) {
        ++prepared;
        inputs.correction = std::make_shared<const CorrectionDistribution>(CorrectionDistribution::solve(next.correction));
    };
    // The change is asked for during the first lap and applies from the second.
    std::int64_t changedAt = -1;
    auto lapEnded = [&](const ChainResult &lap) {
        if (changedAt < 0) {
            changedAt = lap.firstIteration + lap.completed;
            kernel.set(wanted);
        }
    };
    std::int64_t done = 0;
    hooks.lapEnded = [&](const ChainResult &lap) {
        lapEnded(lap);
        done += lap.completed;
        if (done >= 20'000)
            run.stop.request_stop();
    };
    RunConfig ended;
    const ChainResult window = runUntilStopped(config, run.dataset, run.inputs, hooks, &ended);
    BOOST_TEST(prepared.load() == 1);
    BOOST_TEST(ended.correction.sigma == 1.2);
    BOOST_TEST_REQUIRE(window.segments.size() == std::size_t(2));
    BOOST_TEST(!window.segments[0].kernelChanged);
    BOOST_TEST(window.segments[1].kernelChanged);
    BOOST_TEST(window.segments[1].start == changedAt);
    BOOST_TEST(window.finalSegmentStart() == changedAt);
}

// A fixed-length run that follows kernel changes is the fixed-length chain itself while none
// comes, row for row.
BOOST_AUTO_TEST_CASE(aFixedLengthRunWithoutAChangeIsTheChainItself)
{
    const RunConfig config = worstCase(TestMethod::Minibatch, 3000);
    Continuous run(config);
    LiveKernel kernel;
    ContinuousChainHooks hooks;
    hooks.kernel = &kernel;
    const ChainResult followed = runFollowingKernelChanges(config, run.dataset, run.inputs, hooks);
    const ChainResult fixed = runConfiguredChain(config, run.dataset, run.inputs);
    BOOST_TEST(followed.completed == config.samples);
    BOOST_TEST(!followed.stopped);
    BOOST_TEST((followed.samples == fixed.samples));
    BOOST_TEST((followed.batchSize == fixed.batchSize));
    BOOST_TEST(followed.segments.size() == std::size_t(1));
}

// A change asked for during a fixed-length run applies within 64 iterations; the run still
// makes exactly its iterations, numbered from 0, the rest as a marked segment with the new test.
// The run starts with the exact Barker test (every iteration reads all N: slow enough that a
// progress report comes long before the end) and is switched to the minibatch test.
BOOST_AUTO_TEST_CASE(aFixedLengthRunGoesOnWithANewTest)
{
    const RunConfig config = worstCase(TestMethod::Barker, 20'000);
    Continuous run(config);
    LiveKernel kernel;
    RunConfig wanted = config;
    wanted.method = TestMethod::Minibatch;
    std::int64_t askedAt = -1;
    run.inputs.onProgress = [&](const ChainResult &result, std::int64_t, std::int64_t last) {
        if (askedAt < 0) {
            askedAt = result.firstIteration + last;
            kernel.set(wanted);
        }
    };
    ContinuousChainHooks hooks = followingKernel(kernel);
    int laps = 0;
    hooks.lapEnded = [&](const ChainResult &) { ++laps; };
    RunConfig ended;
    const ChainResult chain = runFollowingKernelChanges(config, run.dataset, run.inputs, hooks, &ended);
    BOOST_TEST_REQUIRE((askedAt > 0 && askedAt + 64 < config.samples), "first report at " << askedAt);
    BOOST_TEST((ended.method == TestMethod::Minibatch));
    BOOST_TEST(laps == 2);
    BOOST_TEST(chain.completed == config.samples);
    BOOST_TEST(chain.firstIteration == std::int64_t(0));
    BOOST_TEST(!chain.stopped);
    BOOST_TEST_REQUIRE(chain.segments.size() == std::size_t(2));
    const std::int64_t changed = chain.segments[1].start;
    BOOST_TEST(chain.segments[1].kernelChanged);
    BOOST_TEST((changed >= askedAt && changed <= askedAt + 64), "asked at " << askedAt << ", changed at " << changed);
    // The whole data before (Barker's exact test reads all N), minibatches after.
    BOOST_TEST(chain.batchSize[static_cast<std::size_t>(changed - 1)] == 20'000);
    const auto after = chain.batchSize.begin() + changed;
    const double meanAfter = std::accumulate(after, chain.batchSize.end(), 0.0) / static_cast<double>(chain.completed - changed);
    BOOST_TEST(meanAfter < 10'000.0);
    // The chain goes on from where it was: the first new row is one transition from the last old.
    BOOST_TEST(std::abs(chain.samples(changed, 0) - chain.samples(changed - 1, 0)) < 10.0 * config.step);
}

// An adaptive proposal learns during the first lap's burn-in and is frozen after it; the lap
// after a kernel change goes on with what it learned (not a new proposal, which would have no
// burn-in to learn from and was refused), and every lap reports the learned proposal. During
// the burn-in the progress reports show the learning as it goes.
BOOST_AUTO_TEST_CASE(anAdaptiveProposalKeepsWhatItLearnedAcrossKernelChanges)
{
    RunConfig config = worstCase(TestMethod::Barker, 12'000);
    config.proposal = ProposalKind::Adaptive;
    config.burnIn = 3000;
    config.step *= 20.0; // far too wide: the burn-in must shrink it
    Continuous run(config);
    // This model's exact test is O(1) per iteration: paced, the burn-in spans several progress
    // reports (0.15 s at 20,000 iterations a second).
    PauseGate gate;
    gate.setPace(20'000.0);
    run.inputs.pauseGate = &gate;
    LiveKernel kernel;
    RunConfig wanted = config;
    wanted.method = TestMethod::Minibatch;
    std::int64_t askedAt = -1;
    int learningReports = 0, frozenReports = 0, laterLapReports = 0, laterLapReportsWithoutIt = 0;
    run.inputs.onProgress = [&](const ChainResult &result, std::int64_t, std::int64_t last) {
        if (result.learning && !result.adaptation)
            ++learningReports;
        // A later lap knows the frozen proposal from its first report, not only at its end.
        if (result.firstIteration > 0) {
            ++laterLapReports;
            laterLapReportsWithoutIt += result.adaptation ? 0 : 1;
        }
        if (result.adaptation) {
            ++frozenReports;
            BOOST_TEST(!result.learning);
        }
        if (askedAt < 0 && result.firstIteration + last > config.burnIn + 1000) {
            askedAt = result.firstIteration + last;
            kernel.set(wanted);
        }
    };
    ContinuousChainHooks hooks = followingKernel(kernel);
    std::vector<ChainResult> laps;
    hooks.lapEnded = [&](const ChainResult &lap) { laps.push_back(lap); };
    std::string refused;
    hooks.kernelRefused = [&](const std::string &problem) { refused = problem; };
    RunConfig ended;
    const ChainResult chain = runFollowingKernelChanges(config, run.dataset, run.inputs, hooks, &ended);
    BOOST_TEST(refused.empty(), refused);
    BOOST_TEST_MESSAGE("asked at " << askedAt << "; progress reports " << learningReports << " learning, " << frozenReports
                                    << " frozen, " << laterLapReports << " in the second lap");
    BOOST_TEST((ended.method == TestMethod::Minibatch));
    BOOST_TEST_REQUIRE(laps.size() == std::size_t(2));
    BOOST_TEST(chain.completed == config.samples);
    BOOST_TEST(learningReports > 0);
    BOOST_TEST(frozenReports > 0);
    BOOST_TEST(laterLapReports > 0);
    BOOST_TEST(laterLapReportsWithoutIt == 0, laterLapReportsWithoutIt << " of " << laterLapReports
                                                  << " reports of the second lap lack the frozen proposal");
    // Burn-in, the frozen proposal's first target segment, and the new test's segment.
    BOOST_TEST_REQUIRE(chain.segments.size() == std::size_t(3));
    BOOST_TEST(chain.segments[0].burnIn);
    BOOST_TEST(chain.segments[0].step == config.step);
    const double learnedScale = chain.segments[1].step;
    BOOST_TEST_REQUIRE(laps[0].adaptation.has_value());
    // The proposal sd the burn-in arrived at, scale·√Σ̂, against the one it started from.
    const double learnedSd = learnedScale * std::sqrt(laps[0].adaptation->covariance(0, 0));
    BOOST_TEST(learnedSd < 0.5 * config.step, "learned sd " << learnedSd << " from " << config.step);
    BOOST_TEST(chain.segments[2].kernelChanged);
    BOOST_TEST(chain.segments[2].step == learnedScale);
    for (const ChainResult &lap : laps) {
        BOOST_TEST_REQUIRE(lap.adaptation.has_value());
        BOOST_TEST(lap.adaptation->scale == learnedScale);
        BOOST_TEST(!lap.learning);
    }
    BOOST_TEST((laps[1].adaptation->covariance == laps[0].adaptation->covariance));
}

// The same through laps of a run until stopped: lap 0 holds the burn-in, later laps run the
// frozen kernel, and the window's result says what was learned.
BOOST_AUTO_TEST_CASE(aRunUntilStoppedLearnsOnlyInItsFirstLap)
{
    RunConfig config = worstCase(TestMethod::Minibatch, 4000);
    config.proposal = ProposalKind::Adaptive;
    config.burnIn = 2000;
    config.step *= 20.0;
    Continuous run(config);
    const ChainResult window = run.runFor(config, 20'000);
    BOOST_TEST_REQUIRE(run.lapStarts.size() >= std::size_t(2));
    BOOST_TEST(run.firstLap.hasBurnIn());
    BOOST_TEST_REQUIRE(run.firstLap.adaptation.has_value());
    BOOST_TEST_REQUIRE(window.adaptation.has_value());
    BOOST_TEST(window.adaptation->scale == run.firstLap.adaptation->scale);
    BOOST_TEST(!window.hasBurnIn());
    for (const ChainSegment &segment : window.segments)
        BOOST_TEST(segment.step == run.firstLap.adaptation->scale);
}

// Through the run service, as the GUI runs it: every chain of a request runs at once; the
// observer sees laps; a method change shows in the report; the window is measured against
// the exact posterior even though the run ended by a stop.
BOOST_AUTO_TEST_CASE(theRunServiceRunsEveryChainUntilStopped)
{
    RunRequest request;
    request.config = testruns::smallConfig(TestMethod::Minibatch, 2000);
    // N/T = 100 on 4 000 points: the exact posterior measured at the end costs less.
    request.config.nData = 4000;
    request.config.temperature = 40.0;
    request.config.correction.grid = 1000;
    request.methods = {TestMethod::Minibatch};
    request.chains = 2;
    request.untilStopped = true;
    BOOST_TEST(request.concurrency() == 2);

    struct LapCounter : RunObserver {
        std::mutex mutex;
        std::map<int, std::int64_t> rows;
        LiveKernel *kernel = nullptr;
        RunConfig wanted;
        std::stop_source *stop = nullptr;
        void chainLapEnded(int channel, const ChainResult &lap) override
        {
            const std::lock_guard lock(mutex);
            rows[channel] += lap.completed;
            if (rows[channel] > 3000 && rows[channel] - lap.completed <= 3000)
                kernel->set(wanted);
            if (rows[0] > 12'000 && rows[1] > 12'000)
                stop->request_stop();
        }
    } observer;
    LiveKernel kernel;
    std::stop_source stop;
    observer.kernel = &kernel;
    observer.wanted = request.config;
    observer.wanted.method = TestMethod::Metropolis;
    observer.stop = &stop;
    RunControls controls;
    controls.stop = stop.get_token();
    controls.kernel = &kernel;
    const RunOutcome outcome = runRequest(request, observer, controls);
    BOOST_TEST(outcome.stopped);
    BOOST_TEST_REQUIRE(outcome.chains.size() == std::size_t(2));
    for (const ChainReport &chain : outcome.chains) {
        BOOST_TEST((chain.method == TestMethod::Metropolis));
        BOOST_TEST(chain.result->completed == std::int64_t(2000));
        BOOST_TEST(chain.result->firstIteration > 0);
        BOOST_TEST(chain.hasPosteriorMetrics);
    }
    BOOST_TEST(outcome.posterior != nullptr);
}

// A live change to TunaMH whose χ is left to its forecast (the app's recommended preset on tall
// data) gets the forecast's χ before the new test is made, where a χ of 0 would fail the chain.
BOOST_AUTO_TEST_CASE(aLiveChangeToTunaTakesTheForecastsChi)
{
    RunRequest request;
    request.config.dataset = "tall-logreg";
    request.config.nData = 20'000; // full-data tests that outlast the first progress report (40 ms)
    request.config.dimension = 4;
    request.config.method = TestMethod::Metropolis;
    request.config.samples = 20'000;
    request.config.step = 0.02;
    request.methods = {TestMethod::Metropolis};

    struct Switcher : RunObserver {
        LiveKernel *kernel = nullptr;
        RunConfig wanted;
        std::vector<std::string> refusals;
        bool asked = false;
        void chainProgress(int, const ChainResult &, std::int64_t, std::int64_t last) override
        {
            if (!asked && last > 200) {
                asked = true;
                kernel->set(wanted);
            }
        }
        void kernelChangeRefused(int, const std::string &problem) override { refusals.push_back(problem); }
    } observer;
    LiveKernel kernel;
    observer.kernel = &kernel;
    observer.wanted = request.config;
    observer.wanted.method = TestMethod::Tuna;
    observer.wanted.tunaChi = 0.0;
    RunControls controls;
    controls.kernel = &kernel;
    const RunOutcome outcome = runRequest(request, observer, controls);
    BOOST_TEST(observer.refusals.empty());
    BOOST_TEST_REQUIRE(outcome.chains.size() == std::size_t(1));
    const ChainReport &chain = outcome.chains.front();
    BOOST_TEST((chain.method == TestMethod::Tuna));
    BOOST_TEST(chain.result->segments.size() == std::size_t(2));
    BOOST_TEST(chain.result->completed == std::int64_t(20'000));
}

BOOST_AUTO_TEST_CASE(rejectsTooManyChannels)
{
    RunRequest request;
    request.config = testruns::smallConfig(TestMethod::Barker, 100);
    request.methods = {TestMethod::Barker};
    request.chains = RunRequest::kMaxContinuousChannels + 1;
    request.untilStopped = true;
    BOOST_CHECK_THROW(validate(request), std::invalid_argument);
}
