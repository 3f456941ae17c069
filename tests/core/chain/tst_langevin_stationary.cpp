// The Langevin proposal with a minibatch gradient: its log proposal ratio against the Gaussian
// densities computed independently, and chains that must reproduce the exact posterior of the
// Gaussian mean (mean, variance, KS) under the exact and the minibatch acceptance tests, for
// gradient batches from a few rows to all N.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <boost/math/distributions/normal.hpp>
#include <Eigen/Dense>

#include "core/chain/chain_runner.h"
#include "core/correction/correction_distribution.h"
#include "core/experiment/inputs/datasets.h"
#include "core/experiment/service/experiment_runner.h"
#include "core/experiment/settings/run_config.h"
#include "core/experiment/settings/settings_table.h"
#include "core/models/gaussian_mean_model.h"
#include "core/models/gaussian_mixture_model.h"
#include "core/proposals/langevin_proposal.h"
#include "tests/support/gaussian_mean_posterior.h"
#include "tests/support/statistics.h"

using namespace core;
namespace data = boost::unit_test::data;

using Suite = GaussianMeanPosterior;
BOOST_TEST_GLOBAL_FIXTURE(GaussianMeanPosterior);

namespace {

// log N(value; mean, sd²), normalising constant included, written out here rather than taken
// from the proposal (where the constants cancel and are never computed).
double logNormal(double value, double mean, double sd)
{
    const double z = (value - mean) / sd;
    return -0.5 * z * z - std::log(sd) - 0.5 * std::log(2.0 * M_PI);
}

// ĝ_S(θ) of the Gaussian mean written out from the data: prior N(0.2, 0.01), s² = 1.
double meanModelGradient(double theta, const std::vector<DataIndex> &rows, double temperature)
{
    double sum = 0.0;
    for (DataIndex row : rows)
        sum += Suite::x[row] - theta;
    const double n = static_cast<double>(Suite::x.size());
    return -(theta - 0.2) / 0.01 + n / (temperature * static_cast<double>(rows.size())) * sum;
}

struct ChainCase {
    std::string method;
    DataIndex gradBatch;
    double stepInSds; // h in posterior standard deviations
    int thinning;
};

std::ostream &operator<<(std::ostream &out, const ChainCase &c)
{
    return out << c.method << " B=" << c.gradBatch << " h=" << c.stepInSds << "sd";
}

// Proposes like the Langevin proposal but leaves its asymmetry out of the acceptance ratio:
// a defect the chain tests must detect.
class RatioDroppingProposal final : public Proposal {
public:
    explicit RatioDroppingProposal(const LangevinProposal &inner) : m_inner(inner) {}
    void propose(const Vector &from, Vector &to, double temperature, Rng &rng) const override
    {
        m_inner.propose(from, to, temperature, rng);
    }
    double logProposalRatio(const Vector &, const Vector &) const override { return 0.0; }
    double step() const override { return m_inner.step(); }
    std::unique_ptr<Proposal> withStep(double) const override { return nullptr; }

private:
    const LangevinProposal &m_inner;
};

} // namespace

BOOST_DATA_TEST_CASE(matchesPosterior,
                     data::make(std::vector<ChainCase>{{"mh", 20000, 1.0, 4},
                                                       {"mh", 1000, 1.0, 10},
                                                       {"mh", 200, 0.7, 40},
                                                       {"minibatch", 20000, 1.0, 8},
                                                       {"minibatch", 1000, 1.0, 15},
                                                       {"minibatch", 200, 0.7, 60}}),
                     chainCase)
{
    const double sd = std::sqrt(Suite::model->posteriorVariance(kTemperature));
    const LangevinProposal proposal(*Suite::model, chainCase.stepInSds * sd, chainCase.gradBatch);
    double acceptance = 0.0;
    const std::vector<double> thinned = thinnedChain(proposal, chainCase.method, 99, chainCase.thinning, &acceptance);
    const double correlation = teststats::lagOneCorrelation(thinned);
    BOOST_TEST_MESSAGE(chainCase << ": acceptance " << acceptance << ", lag-1 correlation of the draws " << correlation);
    BOOST_TEST(acceptance > 0.1, "acceptance " << acceptance << ": too few moves for a meaningful test");
    // The thinning must leave nearly independent draws, or the tolerances below are too tight.
    BOOST_TEST(std::abs(correlation) < 0.1, "lag-1 correlation " << correlation << " of the thinned draws");
    expectPosterior(thinned);
}

struct AdaptedCase {
    std::string method;
    DataIndex gradBatch;
    double target; // α*: Barker's optimum region for the minibatch test, Metropolis' for mh
    int thinning;
};

std::ostream &operator<<(std::ostream &out, const AdaptedCase &c)
{
    return out << c.method << " B=" << c.gradBatch << " target " << c.target;
}

// The adaptive Langevin proposal starts 30 posterior sds away with M = I and a step of a
// thousandth of the posterior sd's square root scale; the burn-in must find the posterior's
// scale (M ≈ its variance, 10⁻³ here), steer the acceptance to the target, and then, frozen,
// sample the exact posterior under both tests.
BOOST_DATA_TEST_CASE(adaptedChainMatchesPosterior,
                     data::make(std::vector<AdaptedCase>{{"mh", 20000, 0.57, 5},
                                                         {"minibatch", 20000, 0.30, 10},
                                                         {"minibatch", 500, 0.30, 30}}),
                     adaptedCase)
{
    const double mean = Suite::model->posteriorMean(kTemperature);
    const double variance = Suite::model->posteriorVariance(kTemperature);
    AdaptationSettings adaptation;
    adaptation.targetAcceptance = adaptedCase.target;
    adaptation.burnInLength = 5000;
    LangevinProposal proposal(*Suite::model, 1e-3, adaptedCase.gradBatch, adaptation);
    RunConfig config;
    config.method = parseMethod(adaptedCase.method);
    auto test = makeAcceptanceTest(config, Suite::correction);
    ChainSettings settings;
    settings.burnIn = adaptation.burnInLength;
    settings.burnInTemperature = kTemperature;
    settings.samples = settings.burnIn + 2000 * static_cast<std::int64_t>(adaptedCase.thinning);
    settings.seed = 17;
    settings.temperature = kTemperature;
    settings.initialTheta = Vector::Constant(1, mean + 30.0 * std::sqrt(variance));
    settings.adaptation = &proposal;
    const ChainResult chain = runChain(*Suite::model, proposal, *test, settings);
    BOOST_REQUIRE(chain.adaptation);
    const LearnedProposal &learned = *chain.adaptation;
    BOOST_TEST(proposal.frozen());
    BOOST_TEST(learned.covarianceLearned);
    const double massRatio = learned.covariance(0, 0) / variance;
    std::int64_t accepted = 0;
    for (auto t = static_cast<std::size_t>(settings.burnIn); t < chain.accepted.size(); ++t)
        accepted += chain.accepted[t];
    const double acceptance = static_cast<double>(accepted) / static_cast<double>(chain.completed - settings.burnIn);
    std::vector<double> thinned;
    for (std::int64_t t = settings.burnIn; t < chain.completed; t += adaptedCase.thinning)
        thinned.push_back(chain.samples(t, 0));
    const double correlation = teststats::lagOneCorrelation(thinned);
    BOOST_TEST_MESSAGE(adaptedCase << ": M / posterior variance " << massRatio << ", h " << learned.scale
                                   << ", acceptance " << acceptance << ", lag-1 correlation " << correlation);
    // One window's variance of a correlated chain: within a factor of two of the truth, far
    // from the identity it started at (10³ times the posterior variance).
    BOOST_TEST((massRatio > 0.5 && massRatio < 2.0), "M / posterior variance " << massRatio);
    BOOST_TEST(std::abs(acceptance - adaptedCase.target) < 0.1, "acceptance " << acceptance);
    BOOST_TEST(std::abs(correlation) < 0.1, "lag-1 correlation " << correlation << " of the thinned draws");
    expectPosterior(thinned);
}

// A fixed full preconditioner (here half the posterior sd, as a Laplace fit off by a factor of
// two would give) with the full gradient reused between iterations: the exact posterior under
// both tests.
BOOST_DATA_TEST_CASE(fullPreconditionerMatchesPosterior, data::make(std::vector<std::string>{"mh", "minibatch"}), method)
{
    const int thinning = method == "mh" ? 10 : 30; // Barker's test moves about half as often
    const double sd = std::sqrt(Suite::model->posteriorVariance(kTemperature));
    LangevinProposal proposal(*Suite::model, 1.5, 20000);
    proposal.useFullPreconditioner(Eigen::MatrixXd::Constant(1, 1, 0.5 * sd));
    double acceptance = 0.0;
    const std::vector<double> thinned = thinnedChain(proposal, method, 41, thinning, &acceptance);
    const double correlation = teststats::lagOneCorrelation(thinned);
    BOOST_TEST_MESSAGE(method << " with a full M: acceptance " << acceptance << ", lag-1 correlation " << correlation);
    BOOST_TEST(acceptance > 0.1);
    BOOST_TEST(std::abs(correlation) < 0.1, "lag-1 correlation " << correlation << " of the thinned draws");
    expectPosterior(thinned);
}

// The same chain without the proposal ratio samples a visibly different distribution: the
// chain tests above can fail.
BOOST_AUTO_TEST_CASE(droppingTheRatioIsDetected)
{
    const double sd = std::sqrt(Suite::model->posteriorVariance(kTemperature));
    const LangevinProposal langevin(*Suite::model, 1.5 * sd, 1000);
    const RatioDroppingProposal broken(langevin);
    const std::vector<double> thinned = thinnedChain(broken, "mh", 99);
    const double n = static_cast<double>(thinned.size());
    const double ratio = sampleVarianceRatio(thinned, sd);
    BOOST_TEST_MESSAGE("without the ratio: variance " << ratio / (n - 1.0) * sd * sd << " vs " << sd * sd
                                                      << ", lag-1 correlation " << teststats::lagOneCorrelation(thinned));
    BOOST_TEST((ratio < teststats::chiSquaredLower(n - 1.0, 1e-4) || ratio > teststats::chiSquaredUpper(n - 1.0, 1e-4)),
               "variance " << ratio / (n - 1.0) * sd * sd << " vs true " << sd * sd << ": bias not detected");
}

// log q(θ|θ') − log q(θ'|θ) from the Gaussian densities, with the gradient written out from the
// data for the proposal's own subset S, at two temperatures (a live T change) and two batches.
BOOST_DATA_TEST_CASE(ratioMatchesGaussianDensities,
                     data::make(std::vector<double>{1.0, 20.0}) * data::make(std::vector<DataIndex>{7, 20000}),
                     temperature, gradBatch)
{
    const double h = 0.7 * std::sqrt(temperature / 20000.0); // a stable step at either T
    const LangevinProposal proposal(*Suite::model, h, gradBatch);
    Rng rng(3);
    Vector from = Vector::Constant(1, 0.45), to(1);
    std::set<std::vector<DataIndex>> subsets;
    for (int k = 0; k < 20; ++k) {
        proposal.propose(from, to, temperature, rng);
        const std::vector<DataIndex> rows(proposal.subset().begin(), proposal.subset().end());
        BOOST_TEST(rows.size() == static_cast<std::size_t>(gradBatch));
        BOOST_TEST(std::set<DataIndex>(rows.begin(), rows.end()).size() == rows.size()); // without replacement
        subsets.insert(rows);
        const double drift = 0.5 * h * h;
        const double forward = logNormal(to[0], from[0] + drift * meanModelGradient(from[0], rows, temperature), h);
        const double backward = logNormal(from[0], to[0] + drift * meanModelGradient(to[0], rows, temperature), h);
        const double expected = backward - forward;
        const double actual = proposal.logProposalRatio(from, to);
        BOOST_TEST(std::abs(actual - expected) < 1e-9 * std::max(1.0, std::abs(expected)),
                   "ratio " << actual << " vs " << expected);
        from = to;
    }
    // A fresh subset each time unless it is all the data.
    BOOST_TEST(subsets.size() == (gradBatch == 20000 ? 1u : 20u));
}

namespace {

// log q ratio of a 2-D Langevin proposal (a plain one when `given` is null) against the
// mixture's per-point log-likelihood differentiated numerically and the product of two normal
// densities of sds h·√M_k around θ + (h²/2) M_k ĝ_k.
void checkRatioInTwoDimensions(const GaussianMixtureModel &model, const Eigen::VectorXd &points, double h,
                               double temperature, const Proposal *given, const Eigen::MatrixXd *full = nullptr)
{
    const LangevinProposal plain(model, h, 40);
    const auto &proposal = given ? dynamic_cast<const LangevinProposal &>(*given) : plain;
    const Vector &mass = proposal.preconditioner();
    // A full M = L Lᵀ: the bivariate normal of covariance h² M written out with its 2×2 inverse.
    const Eigen::MatrixXd m = full ? Eigen::MatrixXd(*full * full->transpose()) : Eigen::MatrixXd(mass.asDiagonal());
    const Eigen::MatrixXd precision = m.inverse() / (h * h);
    const auto logDensity = [&](const Vector &x, const Vector &mean) {
        const Eigen::VectorXd r = x - mean;
        return -0.5 * r.dot(precision * r) - 0.5 * std::log((2 * M_PI * h * h) * (2 * M_PI * h * h) * m.determinant());
    };
    const auto gradient = [&](const Vector &theta, std::span<const DataIndex> rows) {
        Vector g(2);
        g << -theta[0] / 10.0, -theta[1];
        const double scale = 500.0 / (temperature * static_cast<double>(rows.size())), e = 1e-6;
        for (DataIndex row : rows) {
            const double x = points[row];
            g[0] += scale * (GaussianMixtureModel::pointLogLikelihood(x, theta[0] + e, theta[1])
                             - GaussianMixtureModel::pointLogLikelihood(x, theta[0] - e, theta[1])) / (2 * e);
            g[1] += scale * (GaussianMixtureModel::pointLogLikelihood(x, theta[0], theta[1] + e)
                             - GaussianMixtureModel::pointLogLikelihood(x, theta[0], theta[1] - e)) / (2 * e);
        }
        return g;
    };
    Rng rng(4);
    Vector from(2), to(2);
    from << 0.2, 0.9;
    for (int k = 0; k < 10; ++k) {
        proposal.propose(from, to, temperature, rng);
        const Vector gFrom = gradient(from, proposal.subset()), gTo = gradient(to, proposal.subset());
        double expected = 0.0;
        for (int j = 0; j < 2 && !full; ++j) {
            const double sd = h * std::sqrt(mass[j]);
            expected += logNormal(from[j], to[j] + 0.5 * h * h * mass[j] * gTo[j], sd)
                        - logNormal(to[j], from[j] + 0.5 * h * h * mass[j] * gFrom[j], sd);
        }
        if (full)
            expected = logDensity(from, to + 0.5 * h * h * m * gTo) - logDensity(to, from + 0.5 * h * h * m * gFrom);
        const double actual = proposal.logProposalRatio(from, to);
        BOOST_TEST(std::abs(actual - expected) < 1e-5 * std::max(1.0, std::abs(expected)),
                   "ratio " << actual << " vs " << expected);
        from = to;
    }
}

} // namespace

// In two dimensions, against the mixture's per-point log-likelihood differentiated numerically
// and the product of two normal densities.
BOOST_AUTO_TEST_CASE(ratioMatchesGaussianDensitiesInTwoDimensions)
{
    Rng dataRng(8);
    Eigen::VectorXd points(500);
    for (Eigen::Index i = 0; i < points.size(); ++i)
        points[i] = (i % 2 ? 1.0 : 0.0) + std::sqrt(2.0) * dataRng.normal();
    const GaussianMixtureModel model(points);
    const double h = 0.3, temperature = 50.0;
    // Once with M = I, once with the diagonal M that 50 observed draws of sds 0.5 and 2 teach
    // an adaptive proposal (ends its first window).
    AdaptationSettings adaptation;
    adaptation.warmUpObservations = 50;
    LangevinProposal adapted(model, h, 40, adaptation);
    Rng drawRng(6);
    for (int t = 0; t < 50; ++t) {
        Vector theta(2);
        theta << 0.5 * drawRng.normal(), 2.0 * drawRng.normal();
        adapted.observe(theta, true);
    }
    adapted.freeze();
    BOOST_TEST(adapted.learned().covarianceLearned);
    BOOST_TEST((adapted.preconditioner()[0] > 0.15 && adapted.preconditioner()[0] < 0.4));
    BOOST_TEST((adapted.preconditioner()[1] > 2.5 && adapted.preconditioner()[1] < 6.0));
    const auto frozen = adapted.withStep(h); // M kept, the step set back to h
    for (const Proposal *proposal : std::initializer_list<const Proposal *>{nullptr, frozen.get()})
        checkRatioInTwoDimensions(model, points, h, temperature, proposal);
    // And a full M = L Lᵀ with correlation, as the Laplace preconditioner gives.
    Eigen::MatrixXd factor(2, 2);
    factor << 0.7, 0.0, -0.9, 1.2;
    LangevinProposal correlated(model, h, 40);
    correlated.useFullPreconditioner(factor);
    BOOST_TEST(correlated.step() == h); // a fixed proposal keeps its step
    checkRatioInTwoDimensions(model, points, h, temperature, &correlated, &factor);
    BOOST_CHECK_THROW(correlated.useFullPreconditioner(Eigen::MatrixXd::Identity(3, 3)), std::invalid_argument);
    BOOST_CHECK_THROW(correlated.useFullPreconditioner(Eigen::MatrixXd::Zero(2, 2)), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(rejectsBadSettings)
{
    BOOST_CHECK_THROW(LangevinProposal(*Suite::model, 0.0, 10), std::invalid_argument);
    BOOST_CHECK_THROW(LangevinProposal(*Suite::model, 0.1, 0), std::invalid_argument);
    BOOST_CHECK_THROW(LangevinProposal(*Suite::model, 0.1, 20001), std::invalid_argument);
    const LangevinProposal proposal(*Suite::model, 0.1, 10);
    BOOST_CHECK_THROW(proposal.logProposalRatio(Vector::Zero(1), Vector::Zero(1)), std::logic_error);

    RunConfig config;
    config.dataset = "worst-case";
    config.nData = 1000;
    config.proposal = ProposalKind::Langevin;
    config.gradBatch = 1001;
    BOOST_CHECK_THROW(validate(config), std::invalid_argument);
    config.gradBatch = -1;
    BOOST_CHECK_THROW(validate(config), std::invalid_argument);
    config.gradBatch = 0; // chosen from N when the data are made (gradBatchFor)
    BOOST_CHECK_NO_THROW(validate(config));
    config.gradBatch = 1000;
    BOOST_CHECK_NO_THROW(validate(config));
    config.proposal = ProposalKind::RandomWalk;
    config.gradBatch = 5000; // ignored by the random walk
    BOOST_CHECK_NO_THROW(validate(config));
    config.proposal = ProposalKind::AdaptiveLangevin; // learns during a burn-in: needs one
    config.gradBatch = 100;
    config.burnIn = 0;
    BOOST_CHECK_THROW(validate(config), std::invalid_argument);
    config.burnIn = 100;
    BOOST_CHECK_NO_THROW(validate(config));
    config.annealFrom = 200.0; // and one at the target
    BOOST_CHECK_THROW(validate(config), std::invalid_argument);
    BOOST_TEST(proposalName(parseProposal("adaptive-langevin")) == "adaptive-langevin");
    BOOST_TEST(proposalName(parseProposal("laplace-langevin")) == "laplace-langevin");
    // The Laplace preconditioner is logistic regression's only.
    config.annealFrom = 0.0;
    config.proposal = ProposalKind::LaplaceLangevin;
    try {
        makeProposal(config, *Suite::model, 0.1);
        BOOST_FAIL("no exception");
    } catch (const std::invalid_argument &error) {
        BOOST_TEST(std::string(error.what()).find("--proposal laplace-langevin needs a Laplace fit") == 0, error.what());
    }
    BOOST_CHECK_THROW(parseProposal("mala"), std::invalid_argument);
    BOOST_TEST(proposalName(parseProposal("langevin")) == "langevin");
    BOOST_TEST(proposalName(parseProposal("rw")) == "rw");
}

// The configured run: the settings table reads --proposal and --grad-batch, the run builds the
// Langevin proposal for the main phase and the burn-in, and the worst case's posterior comes out.
BOOST_AUTO_TEST_CASE(configuredRunUsesTheProposal)
{
    RunConfig config;
    config.dataset = "worst-case";
    config.nData = 10000;
    config.method = TestMethod::Metropolis;
    config.samples = 20000;
    config.burnIn = 1000;
    applyDatasetDefaults(config, false, false);
    findSettingByKey("proposal")->set(config, "proposal", "langevin");
    findSettingByKey("grad_batch")->set(config, "grad-batch", "500");
    BOOST_TEST((config.proposal == ProposalKind::Langevin));
    BOOST_TEST(config.gradBatch == 500);
    const DatasetInstance dataset = makeDataset(config, false);
    const auto *model = dynamic_cast<const GaussianMeanModel *>(dataset.model.get());
    BOOST_REQUIRE(model);
    const ExperimentOutcome outcome = runExperiment(config, dataset, Suite::correction);
    BOOST_TEST(outcome.chain.completed == 20000);
    // The gradients' rows are data read: B at θ and B at θ' every iteration, burn-in included.
    BOOST_TEST(outcome.summary.proposalPointsRead == 2 * 500 * 20000);
    std::vector<double> thinned;
    for (std::int64_t t = config.burnIn; t < outcome.chain.completed; t += 10)
        thinned.push_back(outcome.chain.samples(t, 0));
    const double mean = model->posteriorMean(config.temperature);
    const double sd = std::sqrt(model->posteriorVariance(config.temperature));
    const double sampleMean = Eigen::Map<const Eigen::ArrayXd>(thinned.data(), static_cast<Eigen::Index>(thinned.size())).mean();
    BOOST_TEST(std::abs(sampleMean - mean) < teststats::zCritical(1e-4) * sd / std::sqrt(static_cast<double>(thinned.size())),
               "mean " << sampleMean << " vs " << mean);

    config.gradBatch = 10001;
    BOOST_CHECK_THROW(runExperiment(config, dataset, Suite::correction), std::invalid_argument);
}
