// The correction distribution C_σ (Seita et al., "Minibatch Acceptance Test", Sec. 4, Eq. 14-15;
// its appendix Table 3): accuracy against the paper, moments, the sampler (KS and chi-squared
// against exact answers), parameter checks and cancellation. Solver internals:
// tst_correction_solvers.cpp; the disk cache: tst_correction_cache.cpp.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <optional>
#include <ostream>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include <boost/math/distributions/chi_squared.hpp>

#include "core/correction/correction_distribution.h"
#include "tests/support/nearly_equal.h"

using namespace core;
namespace data = boost::unit_test::data;

namespace {

constexpr double kLogisticVariance = 3.289868133696453; // π²/3
/// Kolmogorov distribution: P(√n D_n > 1.94947) → 0.001.
constexpr double kKsCritical001 = 1.94947;

double logisticCdf(double x) { return 1.0 / (1.0 + std::exp(-x)); }

CorrectionParams makeParams(int grid, double sigma, double lambda, CorrectionSolver solver = CorrectionSolver::Ridge,
                            double range = 20.0)
{
    CorrectionParams p;
    p.grid = grid;
    p.sigma = sigma;
    p.lambda = lambda;
    p.solver = solver;
    p.range = range;
    return p;
}

double chiSquaredUpper(double df, double alpha)
{
    return boost::math::quantile(boost::math::complement(boost::math::chi_squared(df), alpha));
}

} // namespace

// Suite-wide state, solved once before the first test case.
struct Suite {
    static inline std::optional<CorrectionDistribution> ridge; // the paper's N = 4000, V = 20, σ = 1, λ = 10
    static inline std::optional<CorrectionDistribution> nnls;  // same grid, NNLS

    void setup()
    {
        ridge.emplace(CorrectionDistribution::solve(makeParams(4000, 1.0, 10.0)));
        nnls.emplace(CorrectionDistribution::solve(makeParams(4000, 1.0, 10.0, CorrectionSolver::Nnls)));
        BOOST_TEST_MESSAGE("ridge: linf " << ridge->linfError() << " (paper convention " << ridge->solveGridLinfError()
                                          << "), raw mass " << std::setprecision(10) << ridge->rawMass()
                                          << std::setprecision(6) << ", variance " << ridge->variance() << ", "
                                          << ridge->solveSeconds() << " s");
        BOOST_TEST_MESSAGE("nnls: linf " << nnls->linfError() << ", " << nnls->positiveAtoms() << " atoms, variance "
                                         << nnls->variance() << ", " << nnls->solveSeconds() << " s");
    }
};
BOOST_TEST_GLOBAL_FIXTURE(Suite);

const CorrectionDistribution &table(const std::string &name) { return name == "ridge" ? *Suite::ridge : *Suite::nnls; }

// The data of the test cases that run on both tables.
const std::vector<std::string> kTableNames = {"ridge", "nnls"};

struct RejectRow {
    std::string name;
    int grid;
    double range;
    double sigma;
    double lambda;
    std::string field;
};
std::ostream &operator<<(std::ostream &out, const RejectRow &row) { return out << row.name; }

std::vector<RejectRow> rejectRows()
{
    const double nan = std::nan(""), inf = HUGE_VAL;
    return {
        {"sigma 0", 4000, 20.0, 0.0, 10.0, "sigma"},
        {"sigma 1.82", 4000, 20.0, 1.82, 10.0, "sigma"},
        {"sigma sqrt(pi^2/3)", 4000, 20.0, kLogisticSd, 10.0, "sigma"},
        {"sigma -1", 4000, 20.0, -1.0, 10.0, "sigma"},
        {"sigma nan", 4000, 20.0, nan, 10.0, "sigma"},
        {"lambda -1", 4000, 20.0, 1.0, -1.0, "lambda"},
        {"lambda inf", 4000, 20.0, 1.0, inf, "lambda"},
        {"lambda nan", 4000, 20.0, 1.0, nan, "lambda"},
        {"grid 0", 0, 20.0, 1.0, 10.0, "grid"},
        {"grid 9", 9, 20.0, 1.0, 10.0, "grid"},
        {"grid too big", kMaxCorrectionGrid + 1, 20.0, 1.0, 10.0, "grid"},
        {"range 0", 4000, 0.0, 1.0, 10.0, "range"},
        {"range -5", 4000, -5.0, 1.0, 10.0, "range"},
        {"range inf", 4000, inf, 1.0, 10.0, "range"},
        {"range nan", 4000, nan, 1.0, 10.0, "range"},
    };
}

BOOST_DATA_TEST_CASE(validateRejects, data::make(rejectRows()), row)
{
    const CorrectionParams p = makeParams(row.grid, row.sigma, row.lambda, CorrectionSolver::Ridge, row.range);
    BOOST_CHECK_THROW(validate(p), std::invalid_argument);
    try {
        validate(p);
    } catch (const std::invalid_argument &e) {
        BOOST_TEST(std::string_view(e.what()).starts_with(row.field), e.what());
    }
    BOOST_CHECK_THROW(CorrectionDistribution::solve(p), std::invalid_argument);
}

// The values just inside each limit validateRejects tests from outside: a validation that is
// too strict (σ refused below sqrt(π²/3), λ = 0 refused, the grid's or range's end refused) fails.
BOOST_AUTO_TEST_CASE(validateAccepts)
{
    BOOST_CHECK_NO_THROW(validate(CorrectionParams{}));
    BOOST_CHECK_NO_THROW(validate(makeParams(4000, std::nextafter(kLogisticSd, 0.0), 10.0)));
    BOOST_CHECK_NO_THROW(validate(makeParams(4000, 1.81, 10.0)));
    BOOST_CHECK_NO_THROW(validate(makeParams(4000, 1e-6, 10.0)));
    BOOST_CHECK_NO_THROW(validate(makeParams(4000, 1.0, 0.0)));
    BOOST_CHECK_NO_THROW(validate(makeParams(4000, 1.0, 1e12)));
    BOOST_CHECK_NO_THROW(validate(makeParams(kMinCorrectionGrid, 1.8, 0.0, CorrectionSolver::Nnls, 0.5)));
    BOOST_CHECK_NO_THROW(validate(makeParams(kMaxCorrectionGrid, 1e-3, 1e6)));
    BOOST_CHECK_NO_THROW(validate(makeParams(4000, 1.0, 10.0, CorrectionSolver::Ridge, kMaxCorrectionRange)));
    BOOST_CHECK_NO_THROW(validate(makeParams(4000, 1.0, 10.0, CorrectionSolver::Ridge, 1e-9)));
}

BOOST_DATA_TEST_CASE(massesAreADistribution, data::make(kTableNames), name)
{
    const CorrectionDistribution &t = table(name);
    BOOST_TEST_REQUIRE(t.masses().size() == std::size_t{8001});
    BOOST_TEST_REQUIRE(t.support().size() == std::size_t{8001});
    BOOST_TEST(testcheck::nearlyEqual(t.support().front(), -20.0));
    BOOST_TEST(testcheck::nearlyEqual(t.support().back(), 20.0));
    BOOST_TEST(testcheck::nearlyEqual(t.support()[4000], 0.0));
    long double sum = 0.0L;
    for (const double m : t.masses()) {
        BOOST_TEST(m >= 0.0);
        sum += m;
    }
    BOOST_TEST(std::fabs(static_cast<double>(sum) - 1.0) < 1e-12);
}

BOOST_DATA_TEST_CASE(symmetricWithZeroMean, data::make(kTableNames), name)
{
    const CorrectionDistribution &t = table(name);
    const auto &m = t.masses();
    double asymmetry = 0.0;
    for (std::size_t j = 0; j < m.size(); ++j)
        asymmetry = std::max(asymmetry, std::fabs(m[j] - m[m.size() - 1 - j]));
    // The ridge solution has an exact antisymmetric part proportional to its mass excess.
    BOOST_TEST(asymmetry < 1e-8, asymmetry);
    BOOST_TEST(std::fabs(t.mean()) < 1e-6);
}

BOOST_AUTO_TEST_CASE(varianceMatchesLogistic)
{
    const double target = kLogisticVariance - 1.0;
    // NNLS fits the CDF to ~1e-7, which pins the second moment: 1e-4 is generous.
    BOOST_TEST(std::fabs(Suite::nnls->variance() - target) < 1e-4, Suite::nnls->variance());
    // Ridge shrinkage plus clipping widens C by about 3% at λ = 10; allow 5%.
    BOOST_TEST(std::fabs(Suite::ridge->variance() - target) < 0.05 * target, Suite::ridge->variance());
}

BOOST_AUTO_TEST_CASE(ridgeReproducesPaper)
{
    // Appendix Table 3: N = 4000, σ = 1, λ = 10 gives 8.9e-4. The paper's figure is the
    // clipped, not yet renormalised table on the solve grid; the table actually sampled
    // (renormalised) is better, measured on a 4x finer grid.
    BOOST_TEST(std::fabs(Suite::ridge->solveGridLinfError() / 8.9e-4 - 1.0) < 0.10, Suite::ridge->solveGridLinfError());
    BOOST_TEST(Suite::ridge->linfError() > 1e-4);
    BOOST_TEST(Suite::ridge->linfError() < 8.9e-4 * 1.1);
    BOOST_TEST((Suite::ridge->rawMass() > 1.0 && Suite::ridge->rawMass() < 1.01));
}

struct Table3Row {
    std::string name;
    int grid;
    double sigma;
    double lambda;
    double paper;
};
std::ostream &operator<<(std::ostream &out, const Table3Row &row) { return out << row.name; }

const std::vector<Table3Row> kTable3Rows = {
    {"N2000 s1.0 l10", 2000, 1.0, 10.0, 1.3e-3},
    {"N2000 s0.8 l1", 2000, 0.8, 1.0, 6.7e-5},
    {"N2000 s0.9 l0.1", 2000, 0.9, 0.1, 1.3e-4},
    {"N2000 s0.8 l0.01", 2000, 0.8, 0.01, 5.0e-6},
};

BOOST_DATA_TEST_CASE(table3, data::make(kTable3Rows), row)
{
    const auto &[name, grid, sigma, lambda, paper] = row;
    const auto t = CorrectionDistribution::solve(makeParams(grid, sigma, lambda));
    BOOST_TEST(std::fabs(t.solveGridLinfError() / paper - 1.0) < 0.10, t.solveGridLinfError());
}

BOOST_AUTO_TEST_CASE(nnlsReachesTarget)
{
    BOOST_TEST(Suite::nnls->linfError() <= 1e-6, Suite::nnls->linfError());
    BOOST_TEST(std::fabs(Suite::nnls->rawMass() - 1.0) < 1e-6);
    BOOST_TEST(Suite::nnls->positiveAtoms() < 500);
}

BOOST_DATA_TEST_CASE(cdfErrorAgreesWithLinf, data::make(kTableNames), name)
{
    const CorrectionDistribution &t = table(name);
    // The fine grid x = k h/4 where the error peaks (|x| ≤ 8): the maximum must be linf.
    const double step = t.spacing() / 4.0;
    double gridMax = 0.0;
    for (int k = -6400; k <= 6400; ++k)
        gridMax = std::max(gridMax, std::fabs(t.cdfError(k * step)));
    BOOST_TEST(std::fabs(gridMax - t.linfError()) < 1e-12 + 1e-9 * t.linfError(), gridMax << " vs " << t.linfError());
    // Anywhere else, including off-grid points and far tails, it may exceed linf only by
    // the curvature between grid points.
    Rng rng(11);
    for (int i = 0; i < 2000; ++i) {
        const double x = -50.0 + 100.0 * rng.uniform01();
        BOOST_TEST(std::fabs(t.cdfError(x)) <= t.linfError() * (1.0 + 1e-3) + 1e-15);
    }
    BOOST_TEST(std::fabs(t.cdfError(1e300)) < 1e-15);
    BOOST_TEST(std::fabs(t.cdfError(-1e300)) < 1e-15);
    BOOST_TEST(std::fabs(t.convolvedCdf(0.0) - 0.5) < 1e-6);
}

BOOST_DATA_TEST_CASE(sumMatchesLogisticKs, data::make(kTableNames), name)
{
    const CorrectionDistribution &t = table(name);
    const double sigma = t.params().sigma;
    constexpr int kDraws = 2'000'000;
    Rng rng(20240601);
    std::vector<double> x(kDraws);
    for (double &v : x)
        v = t.sample(rng) + sigma * rng.normal();
    std::sort(x.begin(), x.end());
    double d = 0.0;
    for (int i = 0; i < kDraws; ++i) {
        const double f = logisticCdf(x[static_cast<std::size_t>(i)]);
        d = std::max({d, (i + 1.0) / kDraws - f, f - static_cast<double>(i) / kDraws});
    }
    // Under H0 (the sum has CDF F) √n D ≤ 1.949 with probability 0.999, and F differs
    // from the logistic by at most linf.
    const double critical = kKsCritical001 / std::sqrt(static_cast<double>(kDraws)) + t.linfError();
    BOOST_TEST(d < critical, "D " << d << ", critical " << critical);
}

BOOST_DATA_TEST_CASE(drawsMatchMassesChiSquared, data::make(kTableNames), name)
{
    const CorrectionDistribution &t = table(name);
    constexpr int kDraws = 10'000'000;
    const int n = t.params().grid;
    std::vector<long> counts(t.masses().size(), 0);
    Rng rng(77);
    for (int i = 0; i < kDraws; ++i) {
        const double x = t.sample(rng);
        const double index = x / t.spacing() + n;
        const long j = std::lround(index);
        BOOST_TEST((j >= 0 && j <= 2 * n && std::fabs(index - j) < 1e-9)); // draws are atoms
        ++counts[static_cast<std::size_t>(j)];
    }
    // Consecutive atoms pooled until each cell expects at least 20 draws.
    double chi2 = 0.0, expected = 0.0;
    long observed = 0;
    int cells = 0;
    for (std::size_t j = 0; j < counts.size(); ++j) {
        expected += kDraws * t.masses()[j];
        observed += counts[j];
        if (expected >= 20.0 || j + 1 == counts.size()) {
            chi2 += (observed - expected) * (observed - expected) / expected;
            ++cells;
            expected = 0.0;
            observed = 0;
        }
    }
    BOOST_TEST(cells > 10);
    const double critical = chiSquaredUpper(cells - 1, 0.001);
    BOOST_TEST(chi2 < critical, "chi2 " << chi2 << " on " << cells << " cells, critical " << critical);
}

BOOST_AUTO_TEST_CASE(samplingIsDeterministic)
{
    Rng a(5), b(5);
    for (int i = 0; i < 1000; ++i)
        BOOST_TEST(testcheck::nearlyEqual(Suite::ridge->sample(a), Suite::ridge->sample(b)));
}

struct CancellationRow {
    std::string name;
    double range;
    CorrectionSolver solver;
};
std::ostream &operator<<(std::ostream &out, const CancellationRow &row) { return out << row.name; }

const std::vector<CancellationRow> kCancellationRows = {
    {"ridge toeplitz", 20.0, CorrectionSolver::Ridge},
    {"ridge dense", 5.0, CorrectionSolver::Ridge},
    {"nnls", 20.0, CorrectionSolver::Nnls},
};

BOOST_DATA_TEST_CASE(cancellation, data::make(kCancellationRows), row)
{
    const CorrectionParams p = makeParams(1000, 1.0, 10.0, row.solver, row.range);
    std::stop_source early;
    early.request_stop();
    BOOST_CHECK_THROW(CorrectionDistribution::solve(p, {}, early.get_token()), Cancelled);

    std::stop_source midway;
    auto stopHalfway = [&](double f) {
        if (f > 0.3)
            midway.request_stop();
    };
    BOOST_CHECK_THROW(CorrectionDistribution::solve(p, stopHalfway, midway.get_token()), Cancelled);

    std::vector<double> seen;
    CorrectionDistribution::solve(p, [&](double f) { seen.push_back(f); });
    BOOST_TEST(seen.size() >= 3);
    BOOST_TEST(std::is_sorted(seen.begin(), seen.end()));
    BOOST_TEST(testcheck::nearlyEqual(seen.front(), 0.0));
    BOOST_TEST(testcheck::nearlyEqual(seen.back(), 1.0));
}

