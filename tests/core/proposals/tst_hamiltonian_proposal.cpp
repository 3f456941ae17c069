// The Hamiltonian proposal (--proposal laplace-hmc): its kinetic-energy ratio against the exact
// change of the log-posterior as the step shrinks (energy conservation, on the non-Gaussian
// mixture with a correlated mass matrix), chains that must reproduce the exact posterior of the
// Gaussian mean under the exact, Barker and minibatch tests with full and minibatch gradients,
// the burn-in's adaptation of the step, and the configured run on logistic regression.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <stop_token>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/experiment/inputs/datasets.h"
#include "core/experiment/service/experiment_runner.h"
#include "core/experiment/settings/run_config.h"
#include "core/experiment/settings/settings_table.h"
#include "core/models/gaussian_mixture_model.h"
#include "core/models/logistic_regression_model.h"
#include "core/proposals/hamiltonian_proposal.h"
#include "tests/support/gaussian_mean_posterior.h"
#include "tests/support/random_classification.h"
#include "tests/support/small_logistic_run.h"
#include "tests/support/statistics.h"

using namespace core;
namespace data = boost::unit_test::data;

BOOST_TEST_GLOBAL_FIXTURE(GaussianMeanPosterior);

namespace {

struct ChainCase {
    std::string method;
    DataIndex gradBatch;
    int thinning;
};

std::ostream &operator<<(std::ostream &out, const ChainCase &c) { return out << c.method << " B=" << c.gradBatch; }

// A mass matrix 1.5 times too wide for the Gaussian mean's posterior: whitened, the target's sd
// is 2/3 (angular frequency 1.5), so ε = 0.5 is stable and 2 steps travel about a quarter
// period (4 steps would travel half of one and make successive draws nearly antithetic).
HamiltonianProposal meanProposal(double step, DataIndex gradBatch, int leapfrogSteps = 2,
                                 std::optional<AdaptationSettings> adaptation = std::nullopt)
{
    return HamiltonianProposal(*GaussianMeanPosterior::model,
                               Eigen::MatrixXd::Constant(1, 1, 1.5 * GaussianMeanPosterior::posteriorSd()), step,
                               gradBatch, leapfrogSteps, adaptation);
}

double acceptanceAfter(const ChainResult &chain, std::int64_t first)
{
    std::int64_t accepted = 0;
    for (auto t = static_cast<std::size_t>(first); t < chain.accepted.size(); ++t)
        accepted += chain.accepted[t];
    return static_cast<double>(accepted) / static_cast<double>(chain.completed - first);
}

} // namespace

// Leapfrog conserves the Hamiltonian to O(ε²): the proposal's ratio ½‖p‖² − ½‖p'‖² must cancel
// the exact change of the tempered log-posterior (prior + log-likelihood / T, from the model's
// own sums) ever more closely as ε shrinks with the path length K·ε fixed. On the bimodal
// mixture with a correlated L, full-data gradient; the error must fall about 100-fold when ε
// falls 10-fold, while the log-posterior itself changes by order one.
BOOST_AUTO_TEST_CASE(ratioCancelsTheLogPosteriorChangeAsTheStepShrinks)
{
    Rng dataRng(8);
    Eigen::VectorXd points(400);
    for (Eigen::Index i = 0; i < points.size(); ++i)
        points[i] = (i % 2 ? 1.0 : 0.0) + std::sqrt(2.0) * dataRng.normal();
    const GaussianMixtureModel model(points);
    const double temperature = 20.0;
    Eigen::MatrixXd factor(2, 2);
    factor << 0.3, 0.0, -0.2, 0.5;
    auto logPosterior = [&](const Vector &theta) {
        return model.logPrior(theta) + model.logLikelihoodSum(theta) / temperature;
    };
    double errors[2] = {0.0, 0.0};
    double largestChange = 0.0;
    for (int refinement = 0; refinement < 2; ++refinement) {
        const double step = refinement == 0 ? 0.1 : 0.01;
        const int steps = refinement == 0 ? 10 : 100;
        const HamiltonianProposal proposal(model, factor, step, points.size(), steps);
        Rng rng(31);
        Vector from(2), to(2);
        from << 0.2, 0.6;
        for (int draw = 0; draw < 20; ++draw) {
            proposal.propose(from, to, temperature, rng);
            const double change = logPosterior(to) - logPosterior(from);
            errors[refinement] = std::max(errors[refinement], std::abs(proposal.logProposalRatio(from, to) + change));
            largestChange = std::max(largestChange, std::abs(change));
            from = to;
        }
    }
    BOOST_TEST_MESSAGE("largest |Δ log π| " << largestChange << ", energy error " << errors[0] << " at ε = 0.1, "
                                           << errors[1] << " at ε = 0.01");
    BOOST_TEST(largestChange > 0.5);
    BOOST_TEST(errors[0] < 0.1);
    BOOST_TEST(errors[1] < errors[0] / 30.0);
}

BOOST_DATA_TEST_CASE(matchesPosterior,
                     data::make(std::vector<ChainCase>{{"mh", 20000, 5}, {"mh", 1000, 10}, {"barker", 20000, 10},
                                                       {"minibatch", 20000, 10}, {"minibatch", 2000, 10}}),
                     chainCase)
{
    const HamiltonianProposal proposal = meanProposal(0.5, chainCase.gradBatch);
    double acceptance = 0.0;
    const std::vector<double> thinned = thinnedChain(proposal, chainCase.method, 52, chainCase.thinning, &acceptance);
    const double correlation = teststats::lagOneCorrelation(thinned);
    BOOST_TEST_MESSAGE(chainCase << ": acceptance " << acceptance << ", lag-1 correlation of the draws " << correlation);
    BOOST_TEST(acceptance > 0.1, "acceptance " << acceptance << ": too few moves for a meaningful test");
    BOOST_TEST(std::abs(correlation) < 0.1, "lag-1 correlation " << correlation << " of the thinned draws");
    expectPosterior(thinned);
}

// The burn-in steers ε toward the target from d^(−1/4) = 1 (stable for a whitened sd of 2/3,
// whose limit is 4/3, but too coarse for the target acceptance) and from 20 posterior sds away,
// then freezes it; the frozen chain samples the posterior.
BOOST_AUTO_TEST_CASE(burnInAdaptsTheStep)
{
    AdaptationSettings adaptation;
    adaptation.targetAcceptance = 0.65;
    HamiltonianProposal proposal = meanProposal(0.05, 20000, 8, adaptation);
    BOOST_TEST(proposal.step() == 1.0); // d^(−1/4) with d = 1
    RunConfig config;
    config.method = TestMethod::Metropolis;
    auto test = makeAcceptanceTest(config, GaussianMeanPosterior::correction);
    const int thinning = 5;
    ChainSettings settings;
    settings.burnIn = 2000;
    settings.burnInTemperature = kTemperature;
    settings.temperature = kTemperature;
    settings.samples = settings.burnIn + 2000 * thinning;
    settings.seed = 9;
    settings.initialTheta = Vector::Constant(1, GaussianMeanPosterior::posteriorMean() + 20.0 * GaussianMeanPosterior::posteriorSd());
    settings.adaptation = &proposal;
    const ChainResult chain = runChain(*GaussianMeanPosterior::model, proposal, *test, settings);
    BOOST_REQUIRE(chain.adaptation);
    BOOST_TEST(proposal.frozen());
    BOOST_TEST(chain.segments.back().step == chain.adaptation->scale);
    const double acceptance = acceptanceAfter(chain, settings.burnIn);
    BOOST_TEST_MESSAGE("adapted ε " << chain.adaptation->scale << ", acceptance " << acceptance);
    BOOST_TEST(std::abs(acceptance - adaptation.targetAcceptance) < 0.1, "acceptance " << acceptance);
    std::vector<double> thinned;
    for (std::int64_t t = settings.burnIn; t < chain.completed; t += thinning)
        thinned.push_back(chain.samples(t, 0));
    BOOST_TEST(std::abs(teststats::lagOneCorrelation(thinned)) < 0.1);
    expectPosterior(thinned);
}

BOOST_AUTO_TEST_CASE(rejectsBadSettings)
{
    const auto &model = *GaussianMeanPosterior::model;
    const Eigen::MatrixXd factor = Eigen::MatrixXd::Identity(1, 1);
    BOOST_CHECK_THROW(HamiltonianProposal(model, factor, 0.0, 100, 4), std::invalid_argument);
    BOOST_CHECK_THROW(HamiltonianProposal(model, factor, 0.1, 0, 4), std::invalid_argument);
    BOOST_CHECK_THROW(HamiltonianProposal(model, factor, 0.1, 20001, 4), std::invalid_argument);
    BOOST_CHECK_THROW(HamiltonianProposal(model, factor, 0.1, 100, 0), std::invalid_argument);
    BOOST_CHECK_THROW(HamiltonianProposal(model, Eigen::MatrixXd::Identity(2, 2), 0.1, 100, 4), std::invalid_argument);
    BOOST_CHECK_THROW(HamiltonianProposal(model, -factor, 0.1, 100, 4), std::invalid_argument);
    const HamiltonianProposal proposal(model, factor, 0.1, 100, 4);
    // The ratio belongs to the trajectory just run: any other pair has no known momentum.
    BOOST_CHECK_THROW(proposal.logProposalRatio(Vector::Zero(1), Vector::Zero(1)), std::logic_error);
    Rng rng(1);
    Vector to(1);
    const Vector from = Vector::Constant(1, 0.5);
    proposal.propose(from, to, kTemperature, rng);
    BOOST_CHECK_NO_THROW(proposal.logProposalRatio(from, to));
    BOOST_CHECK_THROW(proposal.logProposalRatio(from, Vector::Constant(1, 7.0)), std::logic_error);
    BOOST_TEST(proposal.withStep(0.3)->step() == 0.3);

    BOOST_TEST(proposalName(parseProposal("laplace-hmc")) == "laplace-hmc");
    RunConfig config;
    config.proposal = ProposalKind::LaplaceHamiltonian;
    config.burnIn = 100;
    config.leapfrogSteps = 0;
    BOOST_CHECK_THROW(validate(config), std::invalid_argument);
    config.leapfrogSteps = 8;
    try { // the mixture: the Laplace approximation is the regression models' only
        validate(config);
        BOOST_FAIL("no exception");
    } catch (const std::invalid_argument &error) {
        BOOST_TEST(std::string(error.what()).find("proposal laplace-hmc needs a Laplace fit (it is built around the posterior's "
                                                "Laplace approximation), which logreg, tall-logreg and tall-glm or glm "
                                                "(with --model probit, poisson, linear or robust-linear) have") == 0,
                   error.what());
    }
    config.dataset = "logreg";
    BOOST_CHECK_NO_THROW(validate(config));
    BOOST_CHECK_THROW(makeProposal(config, model, 0.1), std::invalid_argument); // this model is not logistic
}

// The configured run on a small logistic regression (random features, prior N(0, I)): the
// settings table reads the proposal and the step count, the run fits the Laplace approximation,
// the burn-in learns ε, and the data read per iteration are K gradients over all N rows.
BOOST_AUTO_TEST_CASE(configuredRunOnLogisticRegression)
{
    auto [dataset, config] = testdata::smallLogisticRun(2000, 8, 4, 1500, 500, -0.5);
    findSettingByKey("proposal")->set(config, "proposal", "laplace-hmc");
    findSettingByKey("leapfrog_steps")->set(config, "leapfrog-steps", "6");
    findSettingByKey("adapt_target")->set(config, "adapt-target", "0.65");
    config.gradBatch = 2000;
    BOOST_TEST((config.proposal == ProposalKind::LaplaceHamiltonian));
    BOOST_TEST(config.leapfrogSteps == 6);
    const ChainResult chain = runConfiguredChain(config, dataset, {});
    BOOST_REQUIRE(chain.adaptation);
    BOOST_TEST(chain.adaptation->observations == 500);
    const double acceptance = acceptanceAfter(chain, config.burnIn);
    BOOST_TEST_MESSAGE("logistic regression, d = 8, N = 2000: ε " << chain.adaptation->scale << ", acceptance "
                                                                   << acceptance);
    BOOST_TEST(std::abs(acceptance - 0.65) < 0.15);
    BOOST_TEST(proposalPointsPerIteration(config, 2000) == 6 * 2000);
    BOOST_TEST(proposalPointsPerIteration(config, 4000) == 7 * 2000);
}

// A stop during the Laplace fit (seconds long on real data) ends the chain before its first
// iteration, stopped, instead of waiting for the fit or failing the run.
BOOST_AUTO_TEST_CASE(aStopDuringTheFitEndsTheChainBeforeItStarts)
{
    auto [dataset, config] = testdata::smallLogisticRun(500, 4, 4, 200, 100);
    config.proposal = ProposalKind::LaplaceHamiltonian;
    config.gradBatch = 500;
    std::stop_source stop;
    stop.request_stop();
    ChainInputs inputs;
    inputs.stop = stop.get_token();
    const ChainResult chain = runConfiguredChain(config, dataset, inputs);
    BOOST_TEST(chain.stopped);
    BOOST_TEST(chain.completed == std::int64_t(0));
    BOOST_TEST(!chain.adaptation);
}
