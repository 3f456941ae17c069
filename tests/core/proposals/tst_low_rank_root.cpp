// The low-rank root of a Laplace covariance (low_rank_root.h) and the Hamiltonian proposal that
// uses it: the root against the covariance it compresses (exact on the kept directions, within
// the tolerance elsewhere, declined where the spectrum has no plateau), and chains on a
// Gaussian linear regression in 96 dimensions, whose posterior is known in closed form, under
// the Barker and minibatch tests.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <boost/math/distributions/normal.hpp>
#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/QR>

#include "core/chain/chain_runner.h"
#include "core/correction/correction_distribution.h"
#include "core/experiment/settings/run_config.h"
#include "core/models/model.h"
#include "core/proposals/hamiltonian_proposal.h"
#include "core/proposals/low_rank_root.h"
#include "core/random/rng.h"
#include "tests/support/statistics.h"

using namespace core;

namespace {

Eigen::MatrixXd randomOrthonormal(Eigen::Index d, Eigen::Index k, std::uint64_t seed)
{
    Rng rng(seed);
    Eigen::MatrixXd m(d, k);
    for (Eigen::Index j = 0; j < k; ++j)
        for (Eigen::Index i = 0; i < d; ++i)
            m(i, j) = rng.normal();
    return Eigen::HouseholderQR<Eigen::MatrixXd>(m).householderQ() * Eigen::MatrixXd::Identity(d, k);
}

// Σ = c I − U diag(deficits) Uᵀ and its Cholesky factor.
Eigen::MatrixXd covarianceWithDeficits(const Eigen::MatrixXd &basis, const Eigen::VectorXd &deficits, double c)
{
    Eigen::MatrixXd sigma = -basis * deficits.asDiagonal() * basis.transpose();
    sigma.diagonal().array() += c;
    return sigma;
}

Eigen::MatrixXd lowerFactorOf(const Eigen::MatrixXd &sigma) { return Eigen::LLT<Eigen::MatrixXd>(sigma).matrixL(); }

// y_i ~ N(a_{i mod r} · θ, 1) with a prior N(0, I) on θ ∈ ℝ^d: at temperature T the posterior
// is Gaussian with precision P = I + (1/T) Σ_i a a ᵀ and mean P⁻¹ (1/T) Σ_i y_i a, so its
// covariance is the identity but for r directions: the shape of an image posterior's Laplace
// covariance, with a known answer.
class GaussianProjectionModel final : public Model {
public:
    GaussianProjectionModel(Eigen::MatrixXd directions, Eigen::VectorXd y)
        : m_directions(std::move(directions)), m_y(std::move(y))
    {
    }
    std::string name() const override { return "gaussian-projection"; }
    Eigen::MatrixXd::ConstColXpr direction(DataIndex i) const { return m_directions.col(i % m_directions.cols()); }
    int dimension() const override { return static_cast<int>(m_directions.rows()); }
    DataIndex dataSize() const override { return m_y.size(); }
    double logPrior(const Vector &theta) const override { return -0.5 * theta.squaredNorm(); }
    void logLikelihoodRatios(const Vector &from, const Vector &to, std::span<const DataIndex> rows,
                             std::span<double> out) const override
    {
        for (std::size_t k = 0; k < rows.size(); ++k)
            out[k] = pointLogLikelihood(to, rows[k]) - pointLogLikelihood(from, rows[k]);
    }
    void logLikelihoodRatiosRange(const Vector &from, const Vector &to, DataIndex first,
                                  std::span<double> out) const override
    {
        for (std::size_t k = 0; k < out.size(); ++k)
            out[k] = pointLogLikelihood(to, first + static_cast<DataIndex>(k))
                     - pointLogLikelihood(from, first + static_cast<DataIndex>(k));
    }
    double logLikelihoodSum(const Vector &theta) const override
    {
        double sum = 0.0;
        for (DataIndex i = 0; i < dataSize(); ++i)
            sum += pointLogLikelihood(theta, i);
        return sum;
    }
    Vector initialTheta() const override { return Vector::Zero(dimension()); }
    bool hasGradient() const override { return true; }
    void gradLogPrior(const Vector &theta, Vector &out) const override { out = -theta; }
    void sumGradLogLikelihood(const Vector &theta, std::span<const DataIndex> rows, Vector &out) const override
    {
        out.setZero(dimension());
        for (DataIndex i : rows) {
            const auto a = direction(i);
            out += (m_y[i] - a.dot(theta)) * a;
        }
    }

    Eigen::MatrixXd posteriorPrecision(double temperature) const
    {
        Eigen::MatrixXd precision = Eigen::MatrixXd::Identity(dimension(), dimension());
        for (DataIndex i = 0; i < dataSize(); ++i)
            precision += direction(i) * direction(i).transpose() / temperature;
        return precision;
    }
    Vector posteriorMean(double temperature) const
    {
        Vector b = Vector::Zero(dimension());
        for (DataIndex i = 0; i < dataSize(); ++i)
            b += m_y[i] * direction(i) / temperature;
        return posteriorPrecision(temperature).llt().solve(b);
    }

private:
    double pointLogLikelihood(const Vector &theta, DataIndex i) const
    {
        const double r = m_y[i] - direction(i).dot(theta);
        return -0.5 * r * r;
    }

    Eigen::MatrixXd m_directions; // d × r
    Eigen::VectorXd m_y;
};

} // namespace

// Σ = c I − U Θ Uᵀ with 12 strong directions and 20 whose deficit is under the 5 % tolerance:
// the root keeps the 12 (and at most the oversampled block), S is symmetric, S² = Σ on the
// strong directions to the subspace iteration's accuracy and within the tolerance elsewhere.
BOOST_AUTO_TEST_CASE(rootMatchesTheCovarianceOnTheKeptDirections)
{
    const Eigen::Index d = 200;
    const double c = 2.5;
    const Eigen::MatrixXd basis = randomOrthonormal(d, 32, 3);
    Eigen::VectorXd deficits(32);
    for (Eigen::Index j = 0; j < 12; ++j)
        deficits[j] = c * (0.95 - 0.07 * static_cast<double>(j)); // 0.95c … 0.18c
    for (Eigen::Index j = 12; j < 32; ++j)
        deficits[j] = c * 0.002 * static_cast<double>(j - 11); // up to 0.04c
    const Eigen::MatrixXd sigma = covarianceWithDeficits(basis, deficits, c);
    const auto root = LowRankRoot::compress(lowerFactorOf(sigma));
    BOOST_REQUIRE(root.has_value());
    BOOST_TEST(root->rank() >= 12);
    BOOST_TEST(root->rank() <= 32);
    BOOST_TEST(root->plateauVariance() == c, boost::test_tools::tolerance(1e-3));

    const Eigen::MatrixXd compressed = root->covariance();
    // Subspace iteration finds the strong directions to about (0.04 / 0.18)^5 ≈ 6·10⁻⁴.
    const Eigen::MatrixXd strong = basis.leftCols(12);
    for (Eigen::Index j = 0; j < 12; ++j)
        BOOST_TEST(((compressed - sigma) * strong.col(j)).norm() < 2e-3 * c, "strong direction " << j);
    const double operatorError =
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(compressed - sigma).eigenvalues().cwiseAbs().maxCoeff();
    BOOST_TEST_MESSAGE("rank " << root->rank() << ", ‖S² − Σ‖ = " << operatorError / c << " c");
    BOOST_TEST(operatorError <= 0.05 * c);

    // apply() is S·v with S symmetric and S·S = Σ̃; applySquare() is Σ̃ v in one product, and
    // applyInverse() undoes apply().
    Rng rng(5);
    Vector v(d), w(d), sv(d), ssv(d), scratch;
    for (Eigen::Index i = 0; i < d; ++i) {
        v[i] = rng.normal();
        w[i] = rng.normal();
    }
    root->apply(v, sv, scratch);
    root->apply(sv, ssv, scratch);
    BOOST_TEST((ssv - compressed * v).norm() < 1e-9 * v.norm());
    Vector sw(d);
    root->apply(w, sw, scratch);
    BOOST_TEST(std::abs(w.dot(sv) - v.dot(sw)) < 1e-9);
    Vector squared(d), back(d);
    root->applySquare(v, squared, scratch);
    BOOST_TEST((squared - compressed * v).norm() < 1e-9 * v.norm());
    root->applyInverse(sv, back, scratch);
    BOOST_TEST((back - v).norm() < 1e-9 * v.norm());
    root->applyInverse(v, back, scratch);
    root->apply(back, sw, scratch);
    BOOST_TEST((sw - v).norm() < 1e-9 * v.norm());

    // The same factor always gives the same root (the probe's seed is fixed).
    const auto again = LowRankRoot::compress(lowerFactorOf(sigma));
    BOOST_REQUIRE(again.has_value());
    BOOST_TEST((again->covariance() - compressed).norm() == 0.0);
}

// No plateau, no root: variances spread over two orders of magnitude (a flat prior), more strong
// directions than a quarter of d, or a dimension too small for the dense factor to matter.
BOOST_AUTO_TEST_CASE(declinedWhereTheSpectrumHasNoPlateau)
{
    const Eigen::Index d = 128;
    const Eigen::MatrixXd basis = randomOrthonormal(d, d, 7);
    Eigen::VectorXd spread(d);
    for (Eigen::Index j = 0; j < d; ++j)
        spread[j] = std::pow(100.0, -static_cast<double>(j) / static_cast<double>(d - 1));
    const Eigen::MatrixXd wide = basis * spread.asDiagonal() * basis.transpose();
    BOOST_TEST(!LowRankRoot::compress(lowerFactorOf(wide)).has_value());

    Eigen::VectorXd manyDeficits = Eigen::VectorXd::Zero(d);
    manyDeficits.head(d / 2).setConstant(0.5);
    BOOST_TEST(!LowRankRoot::compress(lowerFactorOf(covarianceWithDeficits(basis, manyDeficits, 1.0))).has_value());

    const Eigen::MatrixXd small = Eigen::MatrixXd::Identity(32, 32);
    BOOST_TEST(!LowRankRoot::compress(small).has_value());
    // A multiple of the identity is rank 0: S = √c I.
    const auto identity = LowRankRoot::compress(3.0 * Eigen::MatrixXd::Identity(100, 100));
    BOOST_REQUIRE(identity.has_value());
    BOOST_TEST(identity->rank() == 0);
    BOOST_TEST((identity->covariance() - 9.0 * Eigen::MatrixXd::Identity(100, 100)).norm() < 1e-12);
}

// The Hamiltonian proposal with the compressed mass matrix samples the exact posterior: a
// Gaussian linear regression in d = 96 whose 6 data directions are informed 4 to 60 times more
// than the prior, N = 600 points at T = 1. The factor given is the exact posterior covariance's;
// the proposal compresses it. Draws projected on an informed direction, a weakly informed one
// and a prior-only one, thinned, are tested against their exact normal marginals (mean, variance,
// KS at α = 10⁻⁴) under Barker's test and the minibatch test, both with the full-data gradient
// (here a minibatch gradient's noise, N/B times a residual of sd 1, would swamp the trajectory).
BOOST_AUTO_TEST_CASE(compressedMassSamplesTheExactPosterior)
{
    const Eigen::Index d = 96, r = 6;
    const DataIndex n = 600;
    const Eigen::MatrixXd basis = randomOrthonormal(d, r + 1, 11);
    Eigen::MatrixXd directions = basis.leftCols(r);
    for (Eigen::Index j = 0; j < r; ++j)
        directions.col(j) *= std::sqrt(0.3 + 0.4 * static_cast<double>(j)); // n/r · |a|² = 30 … 230
    Rng dataRng(12);
    Vector truth(d);
    for (Eigen::Index i = 0; i < d; ++i)
        truth[i] = 0.5 * dataRng.normal();
    Eigen::VectorXd y(n);
    for (DataIndex i = 0; i < n; ++i)
        y[i] = directions.col(i % r).dot(truth) + dataRng.normal();
    const GaussianProjectionModel model(directions, y);
    const double temperature = 1.0;
    const Eigen::MatrixXd covariance = model.posteriorPrecision(temperature).inverse();
    const Vector mean = model.posteriorMean(temperature);
    const Eigen::MatrixXd factor = lowerFactorOf(covariance);
    BOOST_REQUIRE(LowRankRoot::compress(factor).has_value());

    CorrectionParams params;
    params.grid = 2000;
    const auto correction = std::make_shared<const CorrectionDistribution>(CorrectionDistribution::solve(params));
    struct Case {
        std::string method;
        DataIndex gradBatch;
    };
    for (const Case &testCase : {Case{"barker", n}, Case{"minibatch", n}}) {
        const HamiltonianProposal proposal(model, factor, 0.5, testCase.gradBatch, 3);
        RunConfig config;
        config.method = parseMethod(testCase.method);
        auto test = makeAcceptanceTest(config, correction);
        ChainSettings settings;
        const int thinning = 8;
        settings.samples = 500 + 2500 * thinning;
        settings.seed = 21;
        settings.temperature = temperature;
        settings.initialTheta = mean;
        const ChainResult chain = runChain(model, proposal, *test, settings);
        const double acceptance = static_cast<double>(std::count(chain.accepted.begin(), chain.accepted.end(), 1))
                                  / static_cast<double>(chain.completed);
        BOOST_TEST_MESSAGE(testCase.method << " B = " << testCase.gradBatch << ": acceptance " << acceptance);
        BOOST_TEST(acceptance > 0.15);
        for (const Eigen::Index which : {Eigen::Index{0}, r - 1, r}) {
            const Vector v = basis.col(which); // informed most, least, and not at all
            const double exactMean = v.dot(mean), exactSd = std::sqrt(v.dot(covariance * v));
            std::vector<double> thinned;
            for (std::int64_t t = 500; t < chain.completed; t += thinning)
                thinned.push_back(v.dot(chain.samples.row(static_cast<Eigen::Index>(t)).transpose()));
            const auto count = static_cast<double>(thinned.size());
            const Eigen::Map<const Eigen::ArrayXd> draws(thinned.data(), static_cast<Eigen::Index>(thinned.size()));
            const double alpha = 1e-4;
            BOOST_TEST(std::abs(teststats::lagOneCorrelation(thinned)) < 0.15,
                       testCase.method << " direction " << which);
            BOOST_TEST(std::abs(draws.mean() - exactMean) < teststats::zCritical(alpha) * exactSd / std::sqrt(count),
                       testCase.method << " direction " << which << ": mean " << draws.mean() << " vs " << exactMean);
            const double ratio = (draws - draws.mean()).square().sum() / (exactSd * exactSd);
            BOOST_TEST((ratio > teststats::chiSquaredLower(count - 1.0, alpha / 2)
                        && ratio < teststats::chiSquaredUpper(count - 1.0, alpha / 2)),
                       testCase.method << " direction " << which << ": variance " << ratio / (count - 1.0) * exactSd * exactSd
                                       << " vs " << exactSd * exactSd);
            const boost::math::normal marginal(exactMean, exactSd);
            const double ks = teststats::ksStatistic(thinned, [&](double x) { return boost::math::cdf(marginal, x); });
            BOOST_TEST(teststats::ksPValue(ks, thinned.size()) > alpha, testCase.method << " direction " << which);
        }
    }
}
