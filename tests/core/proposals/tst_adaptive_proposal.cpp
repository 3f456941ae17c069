// The adaptive random walk: its covariance estimator against independent draws of known
// covariance, what a burn-in on a correlated two-dimensional posterior teaches it, that it stays
// fixed once the burn-in ends, the exact posterior from the frozen kernel under the minibatch
// test (mean, variance, KS), and the refusal of a run that has no burn-in to learn from.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>
#include <boost/math/distributions/normal.hpp>

#include "core/chain/chain_runner.h"
#include "core/correction/correction_distribution.h"
#include "core/experiment/inputs/datasets.h"
#include "core/experiment/service/experiment_runner.h"
#include "core/experiment/settings/run_config.h"
#include "core/experiment/settings/settings_table.h"
#include "core/models/gaussian_mean_model.h"
#include "core/proposals/adaptive_random_walk_proposal.h"
#include "tests/support/statistics.h"

using namespace core;

namespace {

// Two-dimensional data x_i ~ N(μ, S) with known S, θ = μ, flat prior: the tempered posterior is
// exactly N(x̄, (T/N) S). S has correlation 0.8 and unequal variances, so an isotropic random
// walk is a poor fit and the learned covariance has something to find.
class CorrelatedMeanModel final : public Model {
public:
    // Dynamic-size 2×2 matrices throughout: GCC 12 misreports AVX-512 copies out of fixed 2×2
    // ones as out-of-bounds reads (-Warray-bounds).
    CorrelatedMeanModel(DataIndex n, std::uint64_t seed) : m_x(n, 2), m_covariance(2, 2)
    {
        m_covariance << 1.0, 1.2, 1.2, 2.25;
        m_precision = m_covariance.inverse();
        const Eigen::MatrixXd factor = m_covariance.llt().matrixL();
        Vector centre(2), z(2);
        centre << 0.5, -0.3;
        Rng rng(seed);
        for (DataIndex i = 0; i < n; ++i) {
            z << rng.normal(), rng.normal();
            m_x.row(i) = (centre + factor * z).transpose();
        }
        m_mean = m_x.colwise().mean().transpose();
    }
    std::string name() const override { return "correlated-mean"; }
    int dimension() const override { return 2; }
    DataIndex dataSize() const override { return static_cast<DataIndex>(m_x.rows()); }
    double logPrior(const Vector &) const override { return 0.0; }
    // l_i = (θ' − θ)ᵀ P x_i − (θ'ᵀ P θ' − θᵀ P θ)/2 with P = S⁻¹.
    void logLikelihoodRatios(const Vector &from, const Vector &to, std::span<const DataIndex> rows,
                             std::span<double> out) const override
    {
        const Vector slope = m_precision * (to - from);
        const double offset = 0.5 * (to.dot(m_precision * to) - from.dot(m_precision * from));
        for (std::size_t k = 0; k < rows.size(); ++k)
            out[k] = slope[0] * m_x(rows[k], 0) + slope[1] * m_x(rows[k], 1) - offset;
    }
    void logLikelihoodRatiosRange(const Vector &from, const Vector &to, DataIndex first,
                                  std::span<double> out) const override
    {
        const Vector slope = m_precision * (to - from);
        const double offset = 0.5 * (to.dot(m_precision * to) - from.dot(m_precision * from));
        for (std::size_t k = 0; k < out.size(); ++k)
            out[k] = slope[0] * m_x(first + static_cast<DataIndex>(k), 0) + slope[1] * m_x(first + static_cast<DataIndex>(k), 1)
                     - offset;
    }
    double logLikelihoodSum(const Vector &theta) const override
    {
        double sum = 0.0;
        for (Eigen::Index i = 0; i < m_x.rows(); ++i) {
            const Vector r = m_x.row(i).transpose() - theta;
            sum -= 0.5 * r.dot(m_precision * r);
        }
        return sum;
    }
    Vector initialTheta() const override { return m_mean; }

    Vector posteriorMean() const { return m_mean; }
    Eigen::MatrixXd posteriorCovariance(double temperature) const
    {
        return temperature / static_cast<double>(m_x.rows()) * m_covariance;
    }

private:
    Eigen::Matrix<double, Eigen::Dynamic, 2, Eigen::RowMajor> m_x;
    Eigen::MatrixXd m_covariance, m_precision;
    Vector m_mean;
};

// The eigenvalues of Σ_target⁻¹ Σ̂ (all 1 when Σ̂ = Σ_target): an affine-invariant comparison
// that weighs the narrow direction of a correlated posterior as much as the wide one.
Eigen::VectorXd relativeEigenvalues(const Eigen::MatrixXd &estimate, const Eigen::MatrixXd &target)
{
    const Eigen::MatrixXd whitening = target.llt().matrixL().solve(Eigen::MatrixXd::Identity(target.rows(), target.cols()));
    const Eigen::MatrixXd whitened = whitening * estimate * whitening.transpose();
    return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(whitened).eigenvalues();
}

RunConfig configFor(TestMethod method)
{
    RunConfig config;
    config.method = method;
    return config;
}

} // namespace

// Independent draws of a known covariance, fed straight to observe(): the Welford estimate must
// agree within its sampling error, for the full (d = 3) and the diagonal (d = 60) structure.
BOOST_AUTO_TEST_CASE(estimatesTheCovarianceOfItsObservations)
{
    const int n = 20000;
    Rng rng(7);
    Eigen::MatrixXd covariance(3, 3);
    covariance << 4.0, 1.0, -0.5, 1.0, 1.0, 0.3, -0.5, 0.3, 0.25;
    const Eigen::MatrixXd factor = covariance.llt().matrixL();
    Vector centre(3), z(3);
    centre << 1.0, 2.0, 3.0;
    AdaptationSettings fifth;
    fifth.targetAcceptance = 0.2;
    AdaptiveRandomWalkProposal full(3, 0.1, fifth);
    BOOST_TEST(full.fullCovariance());
    for (int t = 0; t < n; ++t) {
        z << rng.normal(), rng.normal(), rng.normal();
        full.observe(centre + factor * z, t % 5 == 0);
    }
    const LearnedProposal learned = full.learned();
    BOOST_TEST(learned.covarianceLearned);
    // The relative sampling sd of a variance from n independent draws is sqrt(2/n) = 0.01; five
    // of them (0.05) bounds every eigenvalue of Σ⁻¹Σ̂ but misses a wrong estimate by far.
    const Eigen::VectorXd ratios = relativeEigenvalues(learned.covariance, covariance);
    BOOST_TEST_MESSAGE("full: eigenvalues of the relative covariance " << ratios.transpose());
    BOOST_TEST((ratios.array() - 1.0).abs().maxCoeff() < 5.0 * std::sqrt(2.0 / n));
    // The Robbins–Monro scale: an acceptance of 1/5 is the target itself, so the scale ends near
    // where the warm-up restarted it, 2.38/√3.
    BOOST_TEST(std::abs(std::log(learned.scale / (2.38 / std::sqrt(3.0)))) < 0.5);

    const int d = 60;
    AdaptiveRandomWalkProposal diagonal(d, 0.1);
    BOOST_TEST(!diagonal.fullCovariance());
    Eigen::VectorXd sds(d);
    for (int k = 0; k < d; ++k)
        sds[k] = std::exp(0.1 * (k - 30)); // variances from e^-6 to e^6
    Vector draw(d);
    for (int t = 0; t < n; ++t) {
        for (int k = 0; k < d; ++k)
            draw[k] = -1.0 + sds[k] * rng.normal();
        diagonal.observe(draw, t % 5 == 0);
    }
    const LearnedProposal variances = diagonal.learned();
    BOOST_TEST(variances.covariance.cols() == 1);
    const Eigen::ArrayXd relative = variances.covariance.col(0).array() / sds.array().square();
    // 60 coordinates: 5 sampling sds leave each a chance of about 6e-7 to fail.
    BOOST_TEST((relative - 1.0).abs().maxCoeff() < 5.0 * std::sqrt(2.0 / n), "worst relative variance " << relative.transpose());
}

// A burn-in of the chain itself on the correlated posterior: the learned covariance is the
// posterior's, the burn-in acceptance comes near the target, and nothing changes afterwards.
BOOST_AUTO_TEST_CASE(learnsThePosteriorCovarianceAndFreezes)
{
    // N/T = 1000 as in the other stationary suites, with N small enough that the exact test
    // costs little: the posterior covariance is S/1000.
    const double temperature = 2.0;
    const CorrelatedMeanModel model(2000, 11);
    const Eigen::MatrixXd target = model.posteriorCovariance(temperature);
    AdaptiveRandomWalkProposal proposal(2, 0.01);
    auto test = makeAcceptanceTest(configFor(TestMethod::Metropolis), nullptr);
    ChainSettings settings;
    settings.samples = 30000;
    settings.burnIn = 20000;
    settings.burnInTemperature = temperature;
    settings.temperature = temperature;
    settings.seed = 5;
    settings.adaptation = &proposal;
    const ChainResult chain = runChain(model, proposal, *test, settings);
    BOOST_REQUIRE(chain.adaptation.has_value());
    const LearnedProposal &learned = *chain.adaptation;
    BOOST_TEST(learned.covarianceLearned);
    BOOST_TEST(learned.observations == settings.burnIn);

    // Monte Carlo error of the estimate: the burn-in's draws are correlated, so the effective
    // count is the burn-in over the integrated autocorrelation time, about 10 for this walk
    // (2000 effective draws): the relative sd of a variance is then sqrt(2/2000) = 0.03. The
    // first draws, before the scale settles, add some more; 0.2 is over five such sds and
    // still rejects the isotropic start (whose relative eigenvalues are 0.1 and 10 apart).
    const Eigen::VectorXd ratios = relativeEigenvalues(learned.covariance, target);
    BOOST_TEST_MESSAGE("learned " << learned.covariance.row(0) << "; " << learned.covariance.row(1) << " vs "
                                  << target.row(0) << "; " << target.row(1) << ", relative eigenvalues "
                                  << ratios.transpose() << ", scale " << learned.scale << ", burn-in acceptance "
                                  << learned.burnInAcceptance);
    BOOST_TEST((ratios.array() - 1.0).abs().maxCoeff() < 0.2);
    // The Robbins–Monro step holds the acceptance near its target once the covariance is
    // learned; the burn-in's average includes the warm-up, hence the margin.
    const double targetAcceptance = AdaptationSettings{}.targetAcceptance;
    BOOST_TEST(std::abs(learned.burnInAcceptance - targetAcceptance) < 0.05);
    const std::int64_t acceptedAfter = std::count(chain.accepted.begin() + settings.burnIn, chain.accepted.end(), 1);
    const double acceptanceAfter = static_cast<double>(acceptedAfter) / static_cast<double>(settings.samples - settings.burnIn);
    BOOST_TEST_MESSAGE("acceptance after the burn-in " << acceptanceAfter);
    BOOST_TEST(std::abs(acceptanceAfter - targetAcceptance) < 0.05);

    // Frozen: the state after all samples is the state at the end of the burn-in, the target
    // segment records the learned scale, and further observations change nothing.
    BOOST_TEST(proposal.frozen());
    const LearnedProposal after = proposal.learned();
    BOOST_TEST(after.scale == learned.scale);
    BOOST_TEST((after.covariance == learned.covariance));
    BOOST_TEST(after.observations == learned.observations);
    BOOST_TEST(chain.segments.back().step == learned.scale);
    BOOST_TEST(chain.segments.front().burnIn);
    proposal.observe(Vector::Zero(2), true);
    BOOST_TEST((proposal.learned().covariance == learned.covariance));
    BOOST_TEST(proposal.step() == learned.scale);
    BOOST_TEST(proposal.logProposalRatio(Vector::Zero(2), Vector::Ones(2)) == 0.0);
    // A live step change keeps the learned covariance and stays frozen.
    const auto retuned = proposal.withStep(0.5);
    BOOST_TEST(retuned->step() == 0.5);
    BOOST_TEST(dynamic_cast<const AdaptiveRandomWalkProposal &>(*retuned).frozen());
}

// The exact tempered posterior from the adaptive proposal and the minibatch test (σ = 1,
// correction table): mean, variance and KS on both coordinates and on the narrow principal
// direction, from about 2000 nearly independent draws. Each check has level 1e-4.
BOOST_AUTO_TEST_CASE(minibatchChainMatchesThePosterior)
{
    const double temperature = 20.0;
    const CorrelatedMeanModel model(20000, 12);
    CorrectionParams params;
    params.grid = 2000;
    const auto correction = std::make_shared<const CorrectionDistribution>(CorrectionDistribution::solve(params));
    auto test = makeAcceptanceTest(configFor(TestMethod::Minibatch), correction);
    AdaptiveRandomWalkProposal proposal(2, 0.01);
    const int thinning = 30, draws = 2000;
    ChainSettings settings;
    settings.burnIn = 4000;
    settings.samples = settings.burnIn + static_cast<std::int64_t>(thinning) * draws;
    settings.burnInTemperature = temperature;
    settings.temperature = temperature;
    settings.seed = 21;
    settings.adaptation = &proposal;
    const ChainResult chain = runChain(model, proposal, *test, settings);
    BOOST_REQUIRE(chain.adaptation.has_value());
    BOOST_TEST_MESSAGE("minibatch: scale " << chain.adaptation->scale << ", burn-in acceptance "
                                           << chain.adaptation->burnInAcceptance);

    const Vector mean = model.posteriorMean();
    const Eigen::MatrixXd covariance = model.posteriorCovariance(temperature);
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> principal(covariance);
    const double alpha = 1e-4;
    // Coordinates 0 and 1, then the projection on the narrow principal axis.
    for (int direction = 0; direction < 3; ++direction) {
        const Vector axis = direction == 2 ? Vector(principal.eigenvectors().col(0)) : Vector(Vector::Unit(2, direction));
        const double exactMean = axis.dot(mean);
        const double sd = std::sqrt(axis.dot(covariance * axis));
        std::vector<double> thinned;
        for (std::int64_t t = settings.burnIn; t < chain.completed; t += thinning)
            thinned.push_back(axis.dot(chain.samples.row(t).transpose()));
        const double correlation = teststats::lagOneCorrelation(thinned);
        BOOST_TEST(std::abs(correlation) < 0.1, "direction " << direction << ": lag-1 correlation " << correlation);
        const Eigen::Map<const Eigen::ArrayXd> v(thinned.data(), static_cast<Eigen::Index>(thinned.size()));
        const double n = static_cast<double>(thinned.size());
        const double sampleMean = v.mean();
        const double meanTolerance = teststats::zCritical(alpha) * sd / std::sqrt(n);
        BOOST_TEST(std::abs(sampleMean - exactMean) < meanTolerance,
                   "direction " << direction << ": mean " << sampleMean << " vs " << exactMean);
        const double ratio = (v - sampleMean).square().sum() / (sd * sd);
        BOOST_TEST((ratio > teststats::chiSquaredLower(n - 1.0, alpha / 2) && ratio < teststats::chiSquaredUpper(n - 1.0, alpha / 2)),
                   "direction " << direction << ": variance " << ratio / (n - 1.0) * sd * sd << " vs " << sd * sd);
        const boost::math::normal posterior(exactMean, sd);
        const double d = teststats::ksStatistic(thinned, [&](double x) { return boost::math::cdf(posterior, x); });
        const double p = teststats::ksPValue(d, thinned.size());
        BOOST_TEST(p > alpha, "direction " << direction << ": KS D = " << d << ", p = " << p);
        BOOST_TEST_MESSAGE("direction " << direction << ": mean " << sampleMean << " vs " << exactMean << ", sd "
                                        << std::sqrt(ratio / (n - 1.0)) * sd << " vs " << sd << ", KS p " << p
                                        << ", lag-1 " << correlation);
    }
}

// `--proposal adaptive` needs a burn-in at the target: without one the settings are refused
// with a message that names the fix; with one, the configured run wires the adaptation in and
// the worst case's posterior mean comes out.
BOOST_AUTO_TEST_CASE(configuredRunNeedsABurnIn)
{
    RunConfig config;
    config.dataset = "worst-case";
    config.nData = 10000;
    config.method = TestMethod::Metropolis;
    config.samples = 6000;
    applyDatasetDefaults(config, false, false);
    findSettingByKey("proposal")->set(config, "proposal", "adaptive");
    BOOST_TEST((config.proposal == ProposalKind::Adaptive));
    BOOST_TEST(proposalName(config.proposal) == "adaptive");
    try {
        validate(config);
        BOOST_ERROR("adaptive without a burn-in was accepted");
    } catch (const std::invalid_argument &error) {
        const std::string message = error.what();
        BOOST_TEST(message.find("burn-in must be > 0 with --proposal adaptive") == 0, message);
        BOOST_TEST(message.find("--burn-in") != std::string::npos, message);
    }
    findSettingByKey("adapt_target")->set(config, "adapt-target", "0.3");
    BOOST_TEST(config.adaptTarget == 0.3);
    config.burnIn = 1000;
    config.adaptTarget = 0.5; // unreachable for Barker's test, fine for Metropolis'
    BOOST_CHECK_NO_THROW(validate(config));
    config.method = TestMethod::Minibatch;
    BOOST_CHECK_THROW(validate(config), std::invalid_argument);
    config.method = TestMethod::Metropolis;
    config.adaptTarget = 1.0;
    BOOST_CHECK_THROW(validate(config), std::invalid_argument);
    config.adaptTarget = 0.3;
    config.annealFrom = 10.0;
    BOOST_CHECK_THROW(validate(config), std::invalid_argument);
    config.annealFrom = 0.0;
    BOOST_CHECK_NO_THROW(validate(config));

    const DatasetInstance dataset = makeDataset(config, false);
    const ExperimentOutcome outcome = runExperiment(config, dataset, nullptr);
    BOOST_REQUIRE(outcome.chain.adaptation.has_value());
    BOOST_TEST(outcome.chain.adaptation->observations == 1000);
    BOOST_TEST(outcome.chain.segments.back().step == outcome.chain.adaptation->scale);
    BOOST_TEST(outcome.summary.burnInIterations == 1000);
    const auto *model = dynamic_cast<const GaussianMeanModel *>(dataset.model.get());
    BOOST_REQUIRE(model);
    const double exactMean = model->posteriorMean(config.temperature);
    const double sd = std::sqrt(model->posteriorVariance(config.temperature));
    double sum = 0.0;
    for (std::int64_t t = config.burnIn; t < outcome.chain.completed; ++t)
        sum += outcome.chain.samples(t, 0);
    const double sampleMean = sum / static_cast<double>(outcome.chain.completed - config.burnIn);
    // 5000 correlated draws (integrated autocorrelation well under 25): at least 200 effective.
    BOOST_TEST(std::abs(sampleMean - exactMean) < teststats::zCritical(1e-4) * sd / std::sqrt(200.0),
               "mean " << sampleMean << " vs " << exactMean);
}
