// Internals of the correction solve (Seita et al., "Minibatch Acceptance Test", Sec. 4): the alias
// table, the NNLS active-set solver, and the two ridge methods (Toeplitz and dense), which must
// agree.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include <boost/math/distributions/chi_squared.hpp>

#include "core/correction/alias_table.h"
#include "core/correction/correction_cache.h"
#include "core/correction/correction_distribution.h"
#include "core/correction/nnls_solver.h"
#include "core/correction/ridge_solver.h"
#include "tests/support/temporary_directory.h"

using namespace core;
namespace data = boost::unit_test::data;

namespace {

double chiSquaredUpper(double df, double alpha)
{
    return boost::math::quantile(boost::math::complement(boost::math::chi_squared(df), alpha));
}

CorrectionParams makeParams(int grid, double sigma, double lambda, double range = 20.0)
{
    CorrectionParams p;
    p.grid = grid;
    p.sigma = sigma;
    p.lambda = lambda;
    p.range = range;
    return p;
}

} // namespace

BOOST_AUTO_TEST_CASE(aliasTableProbabilities)
{
    const std::vector<double> weights = {0.0, 3.0, 1e-12, 0.5, 0.0, 7.25, 1.0};
    const AliasTable alias(weights);
    double total = 0.0;
    for (const double w : weights)
        total += w;
    for (std::size_t i = 0; i < weights.size(); ++i)
        BOOST_TEST(std::fabs(alias.probability(i) - weights[i] / total) < 1e-15);
    // draw() must realise those probabilities: chi-squared over the positive cells.
    Rng rng(3);
    constexpr int kDraws = 1'000'000;
    std::vector<long> counts(weights.size(), 0);
    for (int i = 0; i < kDraws; ++i)
        ++counts[alias.draw(rng)];
    double chi2 = 0.0;
    int cells = 0;
    long tiny = 0;
    for (std::size_t i = 0; i < weights.size(); ++i) {
        if (weights[i] == 0.0)
            BOOST_TEST(counts[i] == 0L);
        else if (weights[i] < 1e-6)
            tiny += counts[i];
        else {
            const double expected = kDraws * weights[i] / total;
            chi2 += (counts[i] - expected) * (counts[i] - expected) / expected;
            ++cells;
        }
    }
    BOOST_TEST(tiny <= 1);
    BOOST_TEST(chi2 < chiSquaredUpper(cells - 1, 0.001), chi2);
    BOOST_CHECK_THROW(AliasTable(std::vector<double>{}), std::invalid_argument);
    BOOST_CHECK_THROW(AliasTable(std::vector<double>{0.0, 0.0}), std::invalid_argument);
    BOOST_CHECK_THROW(AliasTable(std::vector<double>{1.0, -1.0}), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(nnlsSolverSatisfiesKkt)
{
    // Random least squares: the KKT conditions characterise the unique optimum.
    Rng rng(9);
    for (int trial = 0; trial < 20; ++trial) {
        Eigen::MatrixXd a(30, 12);
        Eigen::VectorXd y(30);
        for (Eigen::Index i = 0; i < a.size(); ++i)
            a.data()[i] = rng.normal();
        for (Eigen::Index i = 0; i < y.size(); ++i)
            y(i) = rng.normal();
        const Eigen::MatrixXd q = a.transpose() * a;
        const Eigen::VectorXd p = a.transpose() * y;
        const NnlsResult r = solveNnls(q, p);
        BOOST_TEST(r.converged);
        const Eigen::VectorXd slope = p - q * r.x;
        for (Eigen::Index j = 0; j < r.x.size(); ++j) {
            BOOST_TEST(r.x(j) >= 0.0);
            if (r.x(j) > 0.0)
                BOOST_TEST(std::fabs(slope(j)) < 1e-10);
            else
                BOOST_TEST(slope(j) < 1e-10);
        }
    }
}

// A solve cut short by the iteration limit says so, and such a table is never cached: a
// cached copy would later load as if it were the optimum.
BOOST_AUTO_TEST_CASE(nnlsIterationLimitIsReported)
{
    Rng rng(4);
    Eigen::MatrixXd a(40, 20);
    for (Eigen::Index i = 0; i < a.size(); ++i)
        a.data()[i] = rng.normal();
    Eigen::VectorXd y = a * Eigen::VectorXd::Constant(20, 1.0); // optimum: all 20 passive
    const Eigen::MatrixXd q = a.transpose() * a;
    const Eigen::VectorXd p = a.transpose() * y;
    NnlsOptions limited;
    limited.maxIterations = 3;
    const NnlsResult cut = solveNnls(q, p, limited);
    BOOST_TEST(!cut.converged);
    BOOST_TEST(cut.maxSlope > limited.tolerance);
    BOOST_TEST(solveNnls(q, p).converged);

    const CorrectionParams params = makeParams(200, 1.0, 10.0);
    const CorrectionDistribution solved = CorrectionDistribution::solve(params);
    BOOST_TEST(solved.solverConverged());
    CorrectionStats stats = solved.stats();
    stats.solverConverged = false;
    const CorrectionDistribution unconverged = CorrectionDistribution::fromMasses(params, solved.masses(), stats);
    BOOST_TEST(!unconverged.solverConverged());
    const testfiles::TemporaryDirectory dir;
    const CorrectionCache cache(dir.path());
    BOOST_TEST(!cache.store(unconverged));
    BOOST_TEST(!cache.load(params).has_value());
    BOOST_TEST(cache.store(solved));
    BOOST_TEST(cache.load(params).has_value());
}

struct RidgeRow {
    std::string name;
    double sigma;
    double lambda;
};
std::ostream &operator<<(std::ostream &out, const RidgeRow &row) { return out << row.name; }

const std::vector<RidgeRow> kRidgeRows = {{"s1 l10", 1.0, 10.0}, {"s0.8 l0.01", 0.8, 0.01}};

BOOST_DATA_TEST_CASE(ridgeMethodsAgree, data::make(kRidgeRows), row)
{
    const CorrectionParams p = makeParams(400, row.sigma, row.lambda);
    const auto toeplitz = solveRidgeMasses(p, {}, {}, RidgeMethod::Toeplitz);
    const auto dense = solveRidgeMasses(p, {}, {}, RidgeMethod::DenseCholesky);
    double diff = 0.0;
    for (std::size_t j = 0; j < dense.size(); ++j)
        diff = std::max(diff, std::fabs(toeplitz[j] - dense[j]));
    BOOST_TEST(diff < 1e-9, diff);
}

BOOST_AUTO_TEST_CASE(smallRangeUsesDenseFallback)
{
    // V = 5 < 9σ: MᵀM is no longer Toeplitz, so the Toeplitz method must refuse.
    const CorrectionParams p = makeParams(500, 1.0, 10.0, 5.0);
    BOOST_CHECK_THROW(solveRidgeMasses(p, {}, {}, RidgeMethod::Toeplitz), std::invalid_argument);
    const auto t = CorrectionDistribution::solve(p);
    BOOST_TEST((t.linfError() > 0.0 && t.linfError() < 0.05));
}

