// The binned tempered posterior of the mixture and the paper's metrics (TV, χ², Eq. 39).
#include <boost/test/unit_test.hpp>

#include "core/data/gaussian_mixture_data.h"
#include "core/diagnostics/gmm_posterior.h"
#include "core/models/gaussian_mixture_model.h"
#include "core/random/rng.h"
#include "tests/support/statistics.h"

using namespace core;

namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Independent draws from the binned posterior itself (uniform within the chosen bin), shifted.
RowMatrix drawFromBins(const GaussianMixturePosterior &posterior, int count, double shift, std::uint64_t seed)
{
    const auto &spec = posterior.spec();
    const Eigen::MatrixXd p = posterior.binLogProbability().array().exp().matrix();
    std::vector<double> cumulative;
    double total = 0.0;
    for (int i = 0; i < spec.bins1; ++i)
        for (int j = 0; j < spec.bins2; ++j)
            cumulative.push_back(total += p(i, j));
    Rng rng(seed);
    RowMatrix samples(count, 2);
    const double w1 = (spec.theta1Max - spec.theta1Min) / spec.bins1, w2 = (spec.theta2Max - spec.theta2Min) / spec.bins2;
    for (int k = 0; k < count; ++k) {
        const double u = rng.uniform01() * total;
        const auto cell = static_cast<int>(std::lower_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin());
        const int i = cell / spec.bins2, j = cell % spec.bins2;
        samples(k, 0) = spec.theta1Min + (i + rng.uniform01()) * w1 + shift;
        samples(k, 1) = spec.theta2Min + (j + rng.uniform01()) * w2;
    }
    return samples;
}

} // namespace

BOOST_AUTO_TEST_CASE(binnedDensityWithinStatedBound)
{
    GaussianMixtureSpec spec;
    spec.size = 20000;
    spec.seed = 4;
    const Eigen::VectorXd x = generateGaussianMixture(spec);
    const double temperature = 200.0; // N/T = 100: the paper's effective data size
    PosteriorGridSpec grid;
    grid.dataBins = 400;
    const GaussianMixturePosterior posterior(x, temperature, grid);
    const double constant = std::log(0.5) - 0.5 * std::log(2.0 * M_PI * 2.0);
    BOOST_TEST((posterior.binningErrorBound() > 0.0 && posterior.binningErrorBound() < 1e-2));
    for (auto [t1, t2] : {std::pair{0.0, 1.0}, std::pair{1.0, -1.0}, std::pair{-1.5, 2.5}, std::pair{2.0, 0.3}}) {
        double exact = 0.0;
        for (Eigen::Index i = 0; i < x.size(); ++i)
            exact += GaussianMixtureModel::pointLogLikelihood(x[i], t1, t2) - constant;
        exact = exact / temperature - 0.5 * (t1 * t1 / 10.0 + t2 * t2);
        const double binned = posterior.logDensity(t1, t2);
        BOOST_TEST(std::abs(binned - exact) <= posterior.binningErrorBound(),
                   "binned " << binned << " exact " << exact << " bound " << posterior.binningErrorBound());
    }
}

BOOST_AUTO_TEST_CASE(posteriorIsNormalisedAndBimodal)
{
    GaussianMixtureSpec spec;
    spec.size = 100000;
    const GaussianMixturePosterior posterior(generateGaussianMixture(spec), 1000.0);
    const Eigen::MatrixXd p = posterior.binLogProbability().array().exp().matrix();
    BOOST_TEST(std::abs(p.sum() - 1.0) < 1e-12);
    BOOST_TEST(posterior.outsideMass() < 1e-6);
    // Welling & Teh's two modes, near (0, 1) and (1, −1).
    const auto &g = posterior.spec();
    auto massNear = [&](double a, double b) {
        double mass = 0.0;
        for (int i = 0; i < g.bins1; ++i)
            for (int j = 0; j < g.bins2; ++j) {
                const double c1 = g.theta1Min + (i + 0.5) * 0.1, c2 = g.theta2Min + (j + 0.5) * 0.1;
                if (std::hypot(c1 - a, c2 - b) < 0.6)
                    mass += p(i, j);
            }
        return mass;
    };
    BOOST_TEST(massNear(0.0, 1.0) > 0.2, massNear(0.0, 1.0));
    BOOST_TEST(massNear(1.0, -1.0) > 0.2, massNear(1.0, -1.0));
}

// Independent draws from the posterior pass χ² at its own quantile; shifted draws fail it,
// and have larger TV and a lower Eq. 39 likelihood.
BOOST_AUTO_TEST_CASE(metricsSeparateRightFromWrong)
{
    GaussianMixtureSpec spec;
    spec.size = 100000;
    const GaussianMixturePosterior posterior(generateGaussianMixture(spec), 1000.0);
    const PosteriorMetrics right = posterior.compare(drawFromBins(posterior, 3000, 0.0, 1), 3000);
    const PosteriorMetrics wrong = posterior.compare(drawFromBins(posterior, 3000, 0.3, 2), 3000);
    const double limit = teststats::chiSquaredUpper(right.chiSquaredCells - 1, 1e-4);
    BOOST_TEST(right.chiSquared < limit, "chi2 " << right.chiSquared << " limit " << limit);
    BOOST_TEST(wrong.chiSquared > 5 * limit);
    BOOST_TEST(right.totalVariation < 0.25);
    BOOST_TEST(wrong.totalVariation > right.totalVariation + 0.2);
    BOOST_TEST(wrong.poissonLogLikelihood < right.poissonLogLikelihood - 100.0);
    BOOST_TEST(right.outside == std::int64_t(0));
}

