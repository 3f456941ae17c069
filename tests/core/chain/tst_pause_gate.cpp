// A chain can be paused, single-stepped, resumed and stopped from another thread.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <thread>

#include "core/acceptance/full_data_tests.h"
#include "core/chain/chain_runner.h"
#include "core/models/gaussian_mean_model.h"

using namespace core;

static GaussianMeanModel model()
{
    Rng rng(1);
    Eigen::VectorXd x(200);
    for (Eigen::Index i = 0; i < x.size(); ++i)
        x[i] = rng.normal();
    return GaussianMeanModel(x, 1.0);
}

// Polls `condition` for up to five seconds.
template <typename Condition>
static bool eventually(Condition condition)
{
    for (int k = 0; k < 500; ++k) {
        if (condition())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return condition();
}

BOOST_AUTO_TEST_CASE(pauseStepResume)
{
    const GaussianMeanModel data = model();
    BarkerTest test;
    const RandomWalkProposal proposal(0.05);
    PauseGate gate;
    gate.pause(); // paused before the first iteration
    ChainSettings settings;
    settings.samples = 20000;
    settings.pauseGate = &gate;
    std::atomic<std::int64_t> reported{0};
    ChainResult result;
    std::thread chain([&] {
        result = runChain(data, proposal, test, settings, {},
                          [&](const ChainResult &, std::int64_t, std::int64_t last) { reported = last; });
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    BOOST_TEST(reported.load() == std::int64_t(0)); // nothing ran while paused
    gate.step(3);
    BOOST_TEST(eventually([&] { return reported.load() == 3; })); // exactly three, each reported
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    BOOST_TEST(reported.load() == std::int64_t(3));
    gate.step();
    BOOST_TEST(eventually([&] { return reported.load() == 4; }));
    gate.resume();
    chain.join();
    BOOST_TEST(result.completed == settings.samples);
    BOOST_TEST(!result.stopped);
}

BOOST_AUTO_TEST_CASE(stopWakesAPausedChain)
{
    const GaussianMeanModel data = model();
    BarkerTest test;
    const RandomWalkProposal proposal(0.05);
    PauseGate gate;
    gate.pause();
    ChainSettings settings;
    settings.samples = 1000;
    settings.pauseGate = &gate;
    std::stop_source stop;
    ChainResult result;
    std::thread chain([&] { result = runChain(data, proposal, test, settings, stop.get_token()); });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    stop.request_stop();
    chain.join();
    BOOST_TEST(result.stopped);
    BOOST_TEST(result.completed == std::int64_t(0));
}


// Paused time is not sampling time: the chain's wall seconds (and so its speed) leave it out.
BOOST_AUTO_TEST_CASE(pausedTimeIsLeftOutOfTheWallTime)
{
    const GaussianMeanModel data = model();
    BarkerTest test;
    const RandomWalkProposal proposal(0.05);
    PauseGate gate;
    gate.pause();
    ChainSettings settings;
    settings.samples = 200;
    settings.pauseGate = &gate;
    ChainResult result;
    const auto begin = std::chrono::steady_clock::now();
    std::thread chain([&] { result = runChain(data, proposal, test, settings); });
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    gate.resume();
    chain.join();
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    BOOST_TEST(result.completed == settings.samples);
    // The gate held the chain for (almost all of) the 400 ms; the wall time is the rest.
    BOOST_TEST(result.pausedSeconds >= 0.3, result.pausedSeconds);
    BOOST_TEST(result.wallSeconds <= total - result.pausedSeconds + 1e-3, result.wallSeconds << " of " << total);
    BOOST_TEST(result.wallSeconds >= 0.0);
}
