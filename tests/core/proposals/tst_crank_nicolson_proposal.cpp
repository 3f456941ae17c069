// The Crank–Nicolson proposal around a Gaussian reference (--proposal laplace-cn): its log
// proposal ratio against the transition densities written out independently, the moments of its
// candidates, chains that must reproduce the exact posterior of the Gaussian mean under the exact,
// Barker and minibatch tests with a reference that is deliberately wrong (shifted and too wide),
// the burn-in's adaptation of s, and the configured run on logistic regression.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "core/experiment/inputs/datasets.h"
#include "core/experiment/service/experiment_runner.h"
#include "core/experiment/settings/run_config.h"
#include "core/experiment/settings/settings_table.h"
#include "core/models/logistic_regression_model.h"
#include "core/proposals/crank_nicolson_proposal.h"
#include "tests/support/gaussian_mean_posterior.h"
#include "tests/support/random_classification.h"
#include "tests/support/small_logistic_run.h"
#include "tests/support/statistics.h"

using namespace core;
namespace data = boost::unit_test::data;

BOOST_TEST_GLOBAL_FIXTURE(GaussianMeanPosterior);

namespace {

// log N(x; mean, Σ) with Σ = covariance, normalising constant included, from Eigen's LDLT: an
// evaluation that shares nothing with the proposal's triangular solves.
double logGaussian(const Vector &x, const Vector &mean, const Eigen::MatrixXd &covariance)
{
    const Eigen::LDLT<Eigen::MatrixXd> ldlt(covariance);
    const Vector r = x - mean;
    const double quadratic = r.dot(ldlt.solve(r));
    const double logDet = ldlt.vectorD().array().log().sum();
    return -0.5 * (quadratic + logDet + static_cast<double>(x.size()) * std::log(2.0 * M_PI));
}

// q(to | from) of the AR(1) kernel as its definition states it: N(μ + ρ(from − μ), s²Σ).
double logTransition(const Vector &from, const Vector &to, const Vector &mean, const Eigen::MatrixXd &covariance,
                     double s)
{
    const double rho = std::sqrt(1.0 - s * s);
    return logGaussian(to, mean + rho * (from - mean), s * s * covariance);
}

// A one-dimensional reference around the Gaussian mean's posterior: `shift` posterior sds off its
// mean, `widen` times its sd.
std::unique_ptr<CrankNicolsonProposal> referenceProposal(double shift, double widen, double step,
                                                         std::optional<AdaptationSettings> adaptation = std::nullopt)
{
    const double sd = GaussianMeanPosterior::posteriorSd();
    return std::make_unique<CrankNicolsonProposal>(Vector::Constant(1, GaussianMeanPosterior::posteriorMean() + shift * sd),
                                                   Eigen::MatrixXd::Constant(1, 1, widen * sd), step, adaptation);
}

// Proposes like the inner proposal but leaves its ratio out: a defect the chain tests must see.
class RatioDroppingProposal final : public Proposal {
public:
    explicit RatioDroppingProposal(const Proposal &inner) : m_inner(inner) {}
    void propose(const Vector &from, Vector &to, double temperature, Rng &rng) const override
    {
        m_inner.propose(from, to, temperature, rng);
    }
    double logProposalRatio(const Vector &, const Vector &) const override { return 0.0; }
    double step() const override { return m_inner.step(); }
    std::unique_ptr<Proposal> withStep(double) const override { return nullptr; }

private:
    const Proposal &m_inner;
};

struct ChainCase {
    std::string method;
    double step;   // s
    int thinning;
};

std::ostream &operator<<(std::ostream &out, const ChainCase &c) { return out << c.method << " s=" << c.step; }

} // namespace

// In three dimensions with a correlated Σ: the ratio for the candidate just drawn (cached
// energies) and for an arbitrary pair (two solves) equals log q(θ|θ') − log q(θ'|θ) of the
// written-out Gaussian transition densities, for several s including the independence sampler.
BOOST_AUTO_TEST_CASE(ratioMatchesTheTransitionDensities)
{
    Eigen::MatrixXd factor(3, 3);
    factor << 0.8, 0.0, 0.0, -0.5, 1.3, 0.0, 0.2, 0.7, 0.4;
    const Eigen::MatrixXd covariance = factor * factor.transpose();
    Vector mean(3);
    mean << 0.3, -1.0, 2.0;
    Rng rng(5);
    for (double s : {0.05, 0.4, 0.9, 1.0}) {
        const CrankNicolsonProposal proposal(mean, factor, s);
        BOOST_TEST(proposal.step() == s);
        Vector from(3), to(3);
        from << 1.0, 0.5, -0.7;
        for (int draw = 0; draw < 5; ++draw) {
            proposal.propose(from, to, 1.0, rng);
            const double expected = logTransition(to, from, mean, covariance, s) - logTransition(from, to, mean, covariance, s);
            BOOST_TEST(proposal.logProposalRatio(from, to) == expected, boost::test_tools::tolerance(1e-9));
            // Detailed balance of the kernel with respect to the reference itself.
            BOOST_TEST(logGaussian(from, mean, covariance) + logTransition(from, to, mean, covariance, s)
                           == logGaussian(to, mean, covariance) + logTransition(to, from, mean, covariance, s),
                       boost::test_tools::tolerance(1e-9));
            from = to;
        }
        Vector elsewhere(3);
        elsewhere << -2.0, 0.1, 0.9;
        const double expected =
            logTransition(elsewhere, from, mean, covariance, s) - logTransition(from, elsewhere, mean, covariance, s);
        BOOST_TEST(proposal.logProposalRatio(from, elsewhere) == expected, boost::test_tools::tolerance(1e-9));
    }
}

// 40,000 candidates from one point: their mean is μ + ρ(θ − μ) and their covariance s²Σ, within
// five standard errors per entry.
BOOST_AUTO_TEST_CASE(candidatesFollowTheKernel)
{
    Eigen::MatrixXd factor(2, 2);
    factor << 1.5, 0.0, 0.9, 0.6;
    const Eigen::MatrixXd covariance = factor * factor.transpose();
    const Vector mean = Vector::Constant(2, 1.0);
    const double s = 0.6, rho = std::sqrt(1.0 - s * s);
    const CrankNicolsonProposal proposal(mean, factor, s);
    const Vector from = Vector::Constant(2, -3.0);
    Rng rng(12);
    const int n = 40000;
    Vector to(2), sum = Vector::Zero(2);
    Eigen::MatrixXd squares = Eigen::MatrixXd::Zero(2, 2);
    for (int k = 0; k < n; ++k) {
        proposal.propose(from, to, 1.0, rng);
        sum += to;
        squares += to * to.transpose();
    }
    const Vector sampleMean = sum / n;
    const Eigen::MatrixXd sampleCovariance = squares / n - sampleMean * sampleMean.transpose();
    const Vector expectedMean = mean + rho * (from - mean);
    const Eigen::MatrixXd expectedCovariance = s * s * covariance;
    for (int i = 0; i < 2; ++i) {
        const double meanError = std::sqrt(expectedCovariance(i, i) / n);
        BOOST_TEST(std::abs(sampleMean[i] - expectedMean[i]) < 5.0 * meanError, "mean " << i << ": " << sampleMean[i]);
        for (int j = 0; j < 2; ++j) {
            const double entryError = std::sqrt((expectedCovariance(i, i) * expectedCovariance(j, j)
                                                 + expectedCovariance(i, j) * expectedCovariance(i, j)) / n);
            BOOST_TEST(std::abs(sampleCovariance(i, j) - expectedCovariance(i, j)) < 5.0 * entryError,
                       "covariance (" << i << ", " << j << "): " << sampleCovariance(i, j) << " vs "
                                      << expectedCovariance(i, j));
        }
    }
}

// A reference two posterior sds off and 1.6 times too wide: only the ratio makes the chain
// sample the posterior instead of the reference's tilt of it. Exact, Barker and minibatch tests;
// s = 1 (independent candidates) and smaller moves. The minibatch test reads a few thousand
// points a test at s = 0.3 and nearly all of them at s = 1.
BOOST_DATA_TEST_CASE(matchesPosterior,
                     data::make(std::vector<ChainCase>{{"mh", 1.0, 20}, {"mh", 0.3, 40}, {"barker", 1.0, 40},
                                                       {"minibatch", 1.0, 50}, {"minibatch", 0.3, 60}}),
                     chainCase)
{
    const auto proposal = referenceProposal(2.0, 1.6, chainCase.step);
    double acceptance = 0.0;
    const std::vector<double> thinned = thinnedChain(*proposal, chainCase.method, 77, chainCase.thinning, &acceptance);
    const double correlation = teststats::lagOneCorrelation(thinned);
    BOOST_TEST_MESSAGE(chainCase << ": acceptance " << acceptance << ", lag-1 correlation of the draws " << correlation);
    BOOST_TEST(acceptance > 0.1, "acceptance " << acceptance << ": too few moves for a meaningful test");
    BOOST_TEST(std::abs(correlation) < 0.1, "lag-1 correlation " << correlation << " of the thinned draws");
    expectPosterior(thinned);
}

// The same chain without the ratio leans toward the reference's mean: the test above can fail.
BOOST_AUTO_TEST_CASE(droppingTheRatioIsDetected)
{
    const auto proposal = referenceProposal(2.0, 1.6, 1.0);
    const RatioDroppingProposal broken(*proposal);
    const std::vector<double> thinned = thinnedChain(broken, "mh", 77, 20);
    const double sd = GaussianMeanPosterior::posteriorSd();
    const double sampleMean = Eigen::Map<const Eigen::ArrayXd>(thinned.data(), static_cast<Eigen::Index>(thinned.size())).mean();
    const double tolerance = teststats::zCritical(1e-4) * sd / std::sqrt(static_cast<double>(thinned.size()));
    BOOST_TEST(sampleMean - GaussianMeanPosterior::posteriorMean() > 5.0 * tolerance,
               "mean " << sampleMean << " vs " << GaussianMeanPosterior::posteriorMean());
}

// The burn-in adapts s: with the exact posterior as reference every candidate is accepted under
// Metropolis and s stays 1; with a reference five sds off and three times too wide, s shrinks
// until the acceptance meets the target, and the frozen chain samples the exact posterior.
BOOST_AUTO_TEST_CASE(burnInAdaptsTheScale)
{
    AdaptationSettings adaptation;
    adaptation.targetAcceptance = 0.5;
    RunConfig config;
    config.method = TestMethod::Metropolis;
    auto test = makeAcceptanceTest(config, GaussianMeanPosterior::correction);
    ChainSettings settings;
    settings.burnIn = 3000;
    settings.burnInTemperature = kTemperature;
    settings.temperature = kTemperature;
    settings.seed = 3;
    settings.initialTheta = Vector::Constant(1, GaussianMeanPosterior::posteriorMean());

    auto exact = referenceProposal(0.0, 1.0, 0.05, adaptation);
    BOOST_TEST(exact->step() == 1.0); // adaptive: starts with independent draws
    settings.samples = settings.burnIn + 1000;
    settings.adaptation = exact.get();
    const ChainResult easy = runChain(*GaussianMeanPosterior::model, *exact, *test, settings);
    BOOST_REQUIRE(easy.adaptation);
    BOOST_TEST(easy.adaptation->scale == 1.0);
    BOOST_TEST(easy.adaptation->burnInAcceptance > 0.99);

    auto poor = referenceProposal(5.0, 3.0, 0.05, adaptation);
    const int thinning = 20;
    settings.samples = settings.burnIn + 2000 * thinning;
    settings.adaptation = poor.get();
    const ChainResult chain = runChain(*GaussianMeanPosterior::model, *poor, *test, settings);
    BOOST_REQUIRE(chain.adaptation);
    BOOST_TEST(poor->frozen());
    BOOST_TEST(chain.adaptation->scale < 0.9);
    BOOST_TEST(chain.segments.back().step == chain.adaptation->scale);
    std::int64_t accepted = 0;
    for (auto t = static_cast<std::size_t>(settings.burnIn); t < chain.accepted.size(); ++t)
        accepted += chain.accepted[t];
    const double acceptance = static_cast<double>(accepted) / static_cast<double>(chain.completed - settings.burnIn);
    BOOST_TEST_MESSAGE("poor reference: s " << chain.adaptation->scale << ", acceptance " << acceptance);
    BOOST_TEST(std::abs(acceptance - adaptation.targetAcceptance) < 0.1, "acceptance " << acceptance);
    std::vector<double> thinned;
    for (std::int64_t t = settings.burnIn; t < chain.completed; t += thinning)
        thinned.push_back(chain.samples(t, 0));
    BOOST_TEST(std::abs(teststats::lagOneCorrelation(thinned)) < 0.1);
    expectPosterior(thinned);
}

BOOST_AUTO_TEST_CASE(rejectsBadSettings)
{
    const Vector mean = Vector::Zero(2);
    const Eigen::MatrixXd factor = Eigen::MatrixXd::Identity(2, 2);
    BOOST_CHECK_THROW(CrankNicolsonProposal(mean, factor, 0.0), std::invalid_argument);
    BOOST_CHECK_THROW(CrankNicolsonProposal(mean, factor, 1.5), std::invalid_argument);
    BOOST_CHECK_THROW(CrankNicolsonProposal(mean, Eigen::MatrixXd::Identity(3, 3), 0.5), std::invalid_argument);
    BOOST_CHECK_THROW(CrankNicolsonProposal(mean, Eigen::MatrixXd::Zero(2, 2), 0.5), std::invalid_argument);
    BOOST_CHECK_THROW(CrankNicolsonProposal(Vector::Constant(2, std::numeric_limits<double>::quiet_NaN()), factor, 0.5),
                      std::invalid_argument);
    AdaptationSettings adaptation;
    adaptation.targetAcceptance = 1.0;
    BOOST_CHECK_THROW(CrankNicolsonProposal(mean, factor, 0.5, adaptation), std::invalid_argument);
    const CrankNicolsonProposal proposal(mean, factor, 0.5);
    BOOST_CHECK_THROW(proposal.withStep(2.0), std::invalid_argument);
    BOOST_TEST(proposal.withStep(0.25)->step() == 0.25);

    BOOST_TEST(proposalName(parseProposal("laplace-cn")) == "laplace-cn");
    RunConfig config;
    config.proposal = ProposalKind::LaplaceCrankNicolson;
    config.burnIn = 0; // it learns s during a burn-in: needs one
    BOOST_CHECK_THROW(validate(config), std::invalid_argument);
    config.burnIn = 100;
    try { // the Laplace approximation is logistic regression's only
        makeProposal(config, *GaussianMeanPosterior::model, 0.1);
        BOOST_FAIL("no exception");
    } catch (const std::invalid_argument &error) {
        const std::string message = error.what();
        BOOST_TEST(message.find("--proposal laplace-cn needs a Laplace fit; the model 'gaussian-mean' has none") == 0, message);
    }
}

// The configured run on a small logistic regression (random features, prior N(0, I)): the
// settings table reads the proposal, the run fits the Laplace approximation, the burn-in learns
// s and freezes it, and the posterior's Gaussian shape lets most candidates through even at s = 1.
BOOST_AUTO_TEST_CASE(configuredRunOnLogisticRegression)
{
    auto [dataset, config] = testdata::smallLogisticRun(3000, 8, 4, 3000, 500, -0.5);
    findSettingByKey("proposal")->set(config, "proposal", "laplace-cn");
    findSettingByKey("adapt_target")->set(config, "adapt-target", "0.5");
    BOOST_TEST((config.proposal == ProposalKind::LaplaceCrankNicolson));
    const ChainResult chain = runConfiguredChain(config, dataset, {});
    BOOST_REQUIRE(chain.adaptation);
    BOOST_TEST(chain.adaptation->observations == 500);
    std::int64_t accepted = 0;
    for (auto t = static_cast<std::size_t>(config.burnIn); t < chain.accepted.size(); ++t)
        accepted += chain.accepted[t];
    const double acceptance = static_cast<double>(accepted) / static_cast<double>(chain.completed - config.burnIn);
    BOOST_TEST_MESSAGE("logistic regression, d = 8, N = 3000: s " << chain.adaptation->scale << ", acceptance "
                                                                   << acceptance);
    BOOST_TEST(chain.adaptation->scale == 1.0);
    BOOST_TEST(acceptance > 0.6);
    BOOST_TEST(proposalPointsPerIteration(config, dataset.model->dataSize()) == 0); // no gradient per iteration
}
