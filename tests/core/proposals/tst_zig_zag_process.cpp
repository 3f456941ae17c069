// The Zig-Zag process with subsampling and control variates (--method zigzag): its skeleton
// against the Gaussian mean's exact posterior (mean, variance and KS at α = 10⁻⁴) with the anchor
// off the mode, its bound never broken there; a bound too small by half is caught (its violations
// counted); on logistic regression its draws agree with a long full-data
// Metropolis chain (means within 0.2 sd, sds within 10 %, each with at least 1,000 effective
// draws); every event reads one point; the run's settings are checked.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "core/acceptance/accept_every_move.h"
#include "core/acceptance/full_data_tests.h"
#include "core/diagnostics/effective_sample_size.h"
#include "core/experiment/settings/method_registry.h"
#include "core/experiment/settings/run_config.h"
#include "core/models/control_variates.h"
#include "core/models/logistic_regression_model.h"
#include "core/models/posterior_mode.h"
#include "core/proposals/zig_zag_process.h"
#include "tests/support/gaussian_mean_posterior.h"
#include "tests/support/gaussian_mean_proxies.h"
#include "tests/support/random_classification.h"
#include "tests/support/statistics.h"

using namespace core;

BOOST_TEST_GLOBAL_FIXTURE(GaussianMeanPosterior);

namespace {

struct Skeleton {
    ChainResult chain;
    std::vector<double> thinned;
};

Skeleton gaussianSkeleton(double boundScale, std::uint64_t seed, int draws = 5000, int thinning = 10)
{
    const GaussianMeanProxies proxies(0.9 * GaussianMeanPosterior::posteriorMean());
    const double sd = GaussianMeanPosterior::posteriorSd();
    const ZigZagProcess process(*GaussianMeanPosterior::model, proxies, sd, boundScale);
    AcceptEveryMove test("zigzag", false);
    ChainSettings settings;
    settings.samples = 1000 + static_cast<std::int64_t>(draws) * thinning;
    settings.seed = seed;
    settings.temperature = kTemperature;
    settings.initialTheta = Vector::Constant(1, GaussianMeanPosterior::posteriorMean());
    Skeleton out{runChain(*GaussianMeanPosterior::model, process, test, settings), {}};
    for (std::int64_t t = 1000; t < out.chain.completed; t += thinning)
        out.thinned.push_back(out.chain.samples(t, 0));
    return out;
}

} // namespace

BOOST_AUTO_TEST_CASE(theSkeletonHasTheGaussianPosteriorAndItsBoundHolds)
{
    const Skeleton skeleton = gaussianSkeleton(1.0, 21);
    expectPosterior(skeleton.thinned);
    BOOST_TEST(skeleton.chain.boundViolations == 0);
    // Each output read the points of its proposed events: a few per output at this spacing.
    const std::int64_t points = std::accumulate(skeleton.chain.batchSize.begin(), skeleton.chain.batchSize.end(), std::int64_t{0});
    BOOST_TEST(points > skeleton.chain.completed / 2);
    BOOST_TEST(points < 50 * skeleton.chain.completed);
}

BOOST_AUTO_TEST_CASE(aBoundTooSmallByHalfIsCaught)
{
    const Skeleton skeleton = gaussianSkeleton(0.5, 22);
    // The counter is what catches it: the chain's spread moves by a few per cent only (measured
    // 1.07 times the variance), within what a short chain's error allows.
    BOOST_TEST(skeleton.chain.boundViolations > 100, skeleton.chain.boundViolations << " violations");
}

BOOST_AUTO_TEST_CASE(onLogisticRegressionItAgreesWithFullDataMetropolis)
{
    LogisticRegressionOptions options;
    options.priorSd = 1.0;
    options.bias = true;
    const auto model = std::make_shared<const LogisticRegressionModel>(testdata::randomClassification(2000, 2, 61, 0.3), options);
    const Vector anchor = findPosteriorMode(*model, 1.0).mode;
    const auto proxies = makeTaylorProxies(*model, anchor, 1);
    const auto residualModel = std::make_shared<ControlVariateModel>(model, proxies);
    const Eigen::MatrixXd hessian = makeTaylorProxies(*model, anchor, 2)->hessianSum();
    const double sd = 1.0 / std::sqrt((-hessian.diagonal().array() + 1.0).maxCoeff());

    const auto moments = [](const ChainResult &chain, std::int64_t burnIn) {
        const Eigen::MatrixXd draws = chain.samples.bottomRows(chain.completed - burnIn);
        const Vector mean = draws.colwise().mean().transpose();
        const Vector spread = ((draws.rowwise() - mean.transpose()).array().square().colwise().sum()
                               / static_cast<double>(draws.rows() - 1))
                                  .sqrt()
                                  .transpose();
        Vector ess(draws.cols());
        for (Eigen::Index j = 0; j < draws.cols(); ++j) {
            const Eigen::VectorXd column = draws.col(j);
            ess[j] = effectiveSampleSize(ChainDraws{std::vector<double>(column.begin(), column.end())});
        }
        return std::tuple{mean, spread, ess};
    };
    ChainSettings settings;
    settings.initialTheta = anchor;
    settings.seed = 73;
    settings.samples = 2000 + 400'000;
    const RandomWalkProposal walk(2.38 / std::sqrt(3.0) * sd);
    MetropolisTest mh;
    const auto [refMean, refSd, refEss] = moments(runChain(*model, walk, mh, settings), 2000);
    BOOST_TEST(refEss.minCoeff() > 2500.0);

    const ZigZagProcess process(*residualModel, *proxies, 2.0 * sd);
    AcceptEveryMove test("zigzag", false);
    settings.samples = 2000 + 60'000;
    const ChainResult chain = runChain(*residualModel, process, test, settings);
    BOOST_TEST(chain.boundViolations == 0);
    const auto [mean, spread, ess] = moments(chain, 2000);
    BOOST_TEST(ess.minCoeff() > 1000.0, "min ESS " << ess.minCoeff());
    for (Eigen::Index j = 0; j < mean.size(); ++j) {
        BOOST_TEST_INFO("coordinate " << j);
        BOOST_TEST(std::abs(mean[j] - refMean[j]) < 0.2 * refSd[j], mean[j] << " vs " << refMean[j] << " (sd " << refSd[j] << ")");
        BOOST_TEST(std::abs(spread[j] / refSd[j] - 1.0) < 0.1, spread[j] << " vs " << refSd[j]);
    }
}

BOOST_AUTO_TEST_CASE(itsRunSettingsAreChecked)
{
    RunConfig config;
    config.dataset = "tall-logreg";
    config.method = TestMethod::ZigZag;
    BOOST_TEST((resolvedControlVariates(config) == ControlVariates::Taylor1));
    BOOST_CHECK_NO_THROW(validate(config));
    config.zigzagSpacing = -1.0;
    BOOST_CHECK_THROW(validate(config), std::invalid_argument);
    config.zigzagSpacing = 0.0;
    config.controlVariates = ControlVariates::None;
    BOOST_CHECK_THROW(validate(config), std::invalid_argument); // its bounds are around the mode
    config.controlVariates = ControlVariates::Auto;
    config.checkpointEvery = 10;
    try {
        validate(config);
        BOOST_FAIL("zigzag with checkpoints was not refused");
    } catch (const std::invalid_argument &error) {
        BOOST_TEST(std::string(error.what()).find("carries its velocity") != std::string::npos, error.what());
    }
    config.checkpointEvery = 0;
    config.dataset = "gmm";
    BOOST_CHECK_THROW(validate(config), std::invalid_argument); // the mixture has no gradient bounds
}
