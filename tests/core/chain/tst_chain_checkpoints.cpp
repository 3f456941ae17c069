// Checkpoints (ChainSettings::checkpointEvery): the chain restarts its random stream and its
// minibatch samplers every K draws after the burn-in, so a chain resumed at a checkpoint from
// the draw before it makes the very draws of the chain left alone. Exercised with a test and a
// proposal that both draw minibatches (AustereMH; minibatch-gradient Langevin), behind a
// burn-in, whose rows the resumed chain makes again.
#include <boost/test/unit_test.hpp>

#include <memory>
#include <stdexcept>

#include "core/acceptance/full_data_tests.h"
#include "core/acceptance/sequential_tests.h"
#include "core/chain/chain_runner.h"
#include "core/models/gaussian_mean_model.h"
#include "core/proposals/langevin_proposal.h"

using namespace core;

namespace {

constexpr std::int64_t kBurnIn = 300;
constexpr std::int64_t kDraws = 2000;
constexpr std::int64_t kEvery = 250;

const GaussianMeanModel &model()
{
    static const std::unique_ptr<const GaussianMeanModel> instance = [] {
        Rng rng(8);
        Eigen::VectorXd x(20'000);
        for (Eigen::Index i = 0; i < x.size(); ++i)
            x[i] = 0.5 + rng.normal();
        return std::make_unique<const GaussianMeanModel>(x, 1.0);
    }();
    return *instance;
}

ChainSettings settingsFor(std::int64_t checkpointEvery)
{
    ChainSettings settings;
    settings.samples = kBurnIn + kDraws;
    settings.seed = 17;
    settings.temperature = 50.0;
    settings.burnIn = kBurnIn;
    settings.burnInTemperature = 50.0;
    settings.checkpointEvery = checkpointEvery;
    return settings;
}

ChainResult chain(const ChainSettings &settings)
{
    const LangevinProposal proposal(model(), 0.02, 50); // fresh sampler state for every chain
    AustereTest test(AustereSettings{});
    return runChain(model(), proposal, test, settings);
}

} // namespace

BOOST_AUTO_TEST_CASE(aChainResumedAtACheckpointMakesTheDrawsOfTheChainLeftAlone)
{
    const ChainResult whole = chain(settingsFor(kEvery));
    BOOST_TEST_REQUIRE(whole.completed == kBurnIn + kDraws);
    for (const std::int64_t resumeAt : {kEvery, 3 * kEvery, 7 * kEvery}) {
        ChainSettings settings = settingsFor(kEvery);
        settings.samples = kBurnIn + kDraws - resumeAt;
        settings.resumeDraws = resumeAt;
        settings.resumeTheta = whole.samples.row(kBurnIn + resumeAt - 1).transpose();
        const ChainResult resumed = chain(settings);
        BOOST_TEST_REQUIRE(resumed.completed == settings.samples);
        // The burn-in is made again, the same; then the draws from the checkpoint on.
        BOOST_TEST((resumed.samples.topRows(kBurnIn) == whole.samples.topRows(kBurnIn)));
        BOOST_TEST((resumed.samples.bottomRows(kDraws - resumeAt) == whole.samples.bottomRows(kDraws - resumeAt)),
                   "resumed at draw " << resumeAt);
        BOOST_TEST((std::vector<std::int32_t>(resumed.batchSize.begin() + kBurnIn, resumed.batchSize.end())
                    == std::vector<std::int32_t>(whole.batchSize.end() - (kDraws - resumeAt), whole.batchSize.end())));
    }
}

BOOST_AUTO_TEST_CASE(withoutTheRestartsAResumedChainWouldDiffer)
{
    // The control: resuming a chain run with one stream from one of its draws gives other
    // draws, so the test above could fail.
    const ChainResult whole = chain(settingsFor(0));
    ChainSettings settings = settingsFor(kEvery);
    settings.samples = kBurnIn + kDraws - kEvery;
    settings.resumeDraws = kEvery;
    settings.resumeTheta = whole.samples.row(kBurnIn + kEvery - 1).transpose();
    const ChainResult resumed = chain(settings);
    BOOST_TEST(!(resumed.samples.bottomRows(kDraws - kEvery) == whole.samples.bottomRows(kDraws - kEvery)));
    // Checkpoints change the stream after the burn-in only.
    const ChainResult checkpointed = chain(settingsFor(kEvery));
    BOOST_TEST((checkpointed.samples.topRows(kBurnIn) == whole.samples.topRows(kBurnIn)));
}

BOOST_AUTO_TEST_CASE(aResumePointOffTheCheckpointsIsRefused)
{
    ChainSettings settings = settingsFor(kEvery);
    settings.resumeDraws = kEvery + 1;
    settings.resumeTheta = Vector::Zero(1);
    BOOST_CHECK_THROW(chain(settings), std::invalid_argument);
    settings.resumeDraws = kEvery;
    settings.resumeTheta = Vector();
    BOOST_CHECK_THROW(chain(settings), std::invalid_argument);
    settings = settingsFor(-1);
    BOOST_CHECK_THROW(chain(settings), std::invalid_argument);
}
