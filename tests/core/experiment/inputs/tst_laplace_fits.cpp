// The Laplace fit made once per data and temperature (core/experiment/inputs/laplace_fits.h):
// asked again it is the same object, a stop keeps nothing, the chains of a request are built
// around one fit, and a chain built around the shared fit draws bit for bit what a chain that
// fits its own draws.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <stop_token>

#include "core/correction/cancelled.h"
#include "core/experiment/inputs/laplace_fits.h"
#include "core/experiment/service/experiment_runner.h"
#include "core/experiment/service/run_service.h"
#include "core/models/gaussian_mean_model.h"
#include "tests/support/random_classification.h"

using namespace core;

namespace {

std::shared_ptr<const LogisticRegressionModel> smallModel()
{
    LogisticRegressionOptions options;
    options.priorSd = 1.0;
    return std::make_shared<const LogisticRegressionModel>(testdata::randomClassification(600, 5, 3), options);
}

// Generated logistic data with a Hamiltonian proposal around the Laplace fit.
RunConfig laplaceRun()
{
    RunConfig config;
    config.dataset = "tall-logreg";
    config.nData = 3000;
    config.dimension = 6;
    config.temperature = 1.0;
    config.logreg.model.priorSd = 1.0;
    config.method = TestMethod::Barker;
    config.proposal = ProposalKind::LaplaceHamiltonian;
    config.step = 0.3;
    config.samples = 300;
    config.burnIn = 60; // the proposal learns its scale here
    config.seed = 5;
    return config;
}

struct StageCounter : RunObserver {
    std::atomic<int> laplaceFits{0};
    void stageStarted(RunStage stage, const std::string &) override
    {
        if (stage == RunStage::LaplaceFit)
            ++laplaceFits;
    }
};

} // namespace

BOOST_AUTO_TEST_CASE(aTemperatureIsFittedOnce)
{
    const auto model = smallModel();
    LaplaceFits fits(model, 2);
    const auto first = fits.at(1.0);
    BOOST_TEST(first->temperature == 1.0);
    BOOST_TEST(first->seconds >= 0.0);
    BOOST_TEST(first->approximation.converged);
    BOOST_TEST((fits.at(1.0) == first)); // the same object, not a second fit
    const auto hotter = fits.at(4.0);
    BOOST_TEST((hotter != first));
    BOOST_TEST((hotter->approximation.mode - first->approximation.mode).norm() > 1e-6);
    BOOST_TEST((fits.at(1.0) == first));
    // A third temperature pushes out the oldest: T = 1 is fitted again, to the same numbers.
    fits.at(9.0);
    const auto again = fits.at(1.0);
    BOOST_TEST((again != first));
    BOOST_TEST((again->approximation.covarianceFactor.array() == first->approximation.covarianceFactor.array()).all());
    BOOST_CHECK_THROW(LaplaceFits(nullptr), std::invalid_argument);
    BOOST_CHECK_THROW(LaplaceFits(model, 0), std::invalid_argument);
    // A model without the LaplaceFit capability is refused, naming it.
    try {
        LaplaceFits mean(std::make_shared<const GaussianMeanModel>(Eigen::VectorXd::Constant(10, 0.5), 1.0));
        BOOST_FAIL("the Gaussian mean got Laplace fits");
    } catch (const std::invalid_argument &error) {
        BOOST_TEST(std::string(error.what()).find("LaplaceFits needs a Laplace fit; the model 'gaussian-mean' has none") == 0,
                   error.what());
    }
    BOOST_CHECK_THROW(fits.at(0.0), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(aStoppedFitKeepsNothing)
{
    LaplaceFits fits(smallModel());
    std::stop_source stop;
    stop.request_stop();
    BOOST_CHECK_THROW(fits.at(2.0, stop.get_token()), Cancelled);
    const auto made = fits.at(2.0);
    BOOST_TEST(made->approximation.converged);
    BOOST_TEST((fits.at(2.0) == made));
}

BOOST_AUTO_TEST_CASE(aChainAroundTheSharedFitDrawsWhatItsOwnFitGives)
{
    for (const ProposalKind proposal :
         {ProposalKind::LaplaceHamiltonian, ProposalKind::LaplaceLangevin, ProposalKind::LaplaceCrankNicolson}) {
        RunConfig config = laplaceRun();
        config.proposal = proposal;
        const DatasetInstance dataset = makeDataset(config, false);
        LaplaceFits fits(dataset.classifier);
        ChainInputs own, shared;
        shared.laplace = fits.at(config.temperature);
        const ChainResult alone = runConfiguredChain(config, dataset, own);
        const ChainResult sharing = runConfiguredChain(config, dataset, shared);
        BOOST_TEST_REQUIRE(alone.samples.rows() == 300);
        BOOST_TEST((sharing.samples.array() == alone.samples.array()).all(), proposalName(proposal));
        // The set-up counts the fit's time whoever made it.
        BOOST_TEST(sharing.setupSeconds >= (shared.laplace->seconds > 1e-3 ? shared.laplace->seconds : 0.0));
        // A fit made at another temperature is not used: the chain fits its own.
        ChainInputs other;
        other.laplace = fits.at(7.0);
        const ChainResult refitted = runConfiguredChain(config, dataset, other);
        BOOST_TEST((refitted.samples.array() == alone.samples.array()).all());
    }
}

BOOST_AUTO_TEST_CASE(aRequestFitsOnceForAllItsChainsAndTheNextRequestReusesIt)
{
    RunRequest request;
    request.config = laplaceRun();
    request.methods = {TestMethod::Barker, TestMethod::Metropolis};
    request.chains = 2;
    request.parallel = true;
    RunInputCache cache;
    StageCounter counter;
    const RunOutcome first = runRequest(request, counter, {}, &cache);
    BOOST_TEST(counter.laplaceFits == 1);
    BOOST_TEST_REQUIRE(first.chains.size() == 4u);
    const auto fits = cache.data(request.config)->laplaceFits;
    BOOST_TEST_REQUIRE(fits != nullptr);
    const auto kept = fits->at(request.config.temperature);
    RunObserver silent;
    const RunOutcome second = runRequest(request, silent, {}, &cache);
    BOOST_TEST((fits->at(request.config.temperature) == kept)); // not fitted again
    const RunOutcome alone = runRequest(request); // its own data and fit
    for (std::size_t c = 0; c < first.chains.size(); ++c) {
        BOOST_TEST((second.chains[c].result->samples.array() == first.chains[c].result->samples.array()).all());
        BOOST_TEST((alone.chains[c].result->samples.array() == first.chains[c].result->samples.array()).all());
    }
    // Data without the logistic model have no fits to share.
    RunConfig mixture;
    BOOST_TEST(prepareData(mixture)->laplaceFits == nullptr);
}

// The control variates' mode search starts at the Laplace fit's mode, the same posterior's: it
// converges at once, to the mode a search from the model's initial θ finds.
BOOST_AUTO_TEST_CASE(theControlVariatesStartAtTheLaplaceMode)
{
    RunRequest request;
    request.config = laplaceRun();
    request.config.proposal = ProposalKind::LaplaceCrankNicolson;
    request.config.method = TestMethod::Minibatch;
    request.config.controlVariates = ControlVariates::Taylor2;
    request.methods = {TestMethod::Minibatch};
    RunInputCache cache;
    RunObserver silent;
    const RunOutcome outcome = runRequest(request, silent, {}, &cache);
    BOOST_TEST_REQUIRE(outcome.controlVariates.size() == 1u);
    const ControlVariateReport &report = outcome.controlVariates.front();
    BOOST_TEST(report.converged);
    BOOST_TEST(report.newtonSteps == 0);
    const Vector laplaceMode = cache.data(request.config)->laplaceFits->at(1.0)->approximation.mode;
    BOOST_TEST((report.anchor - laplaceMode).norm() < 1e-9);
    // A random walk with the same control variates searches from the initial θ: more steps, the
    // same mode.
    request.config.proposal = ProposalKind::RandomWalk;
    request.config.step = 0.01;
    request.config.burnIn = 0;
    const RunOutcome cold = runRequest(request, silent, {}, &cache);
    BOOST_TEST_REQUIRE(cold.controlVariates.size() == 1u);
    BOOST_TEST(cold.controlVariates.front().newtonSteps > 0);
    BOOST_TEST((cold.controlVariates.front().anchor - report.anchor).norm() < 1e-6);
}
