// Every model's gradients against central finite differences: ∇ log p0 against logPrior, and
// the minibatch sum of ∇ log p(x_i|θ) against the per-point log-likelihood ratios, which give
// Σ_k [log p(x_k|θ + h e_j) − log p(x_k|θ − h e_j)] directly (without cancelling two large
// full-data sums).
//
// Tolerance: with h = 1e-5 the truncation error of a central difference is h²/6 · |f'''|, about
// 1e-11 relative here, and the rounding error is about B · 1e-16 / (2h) ≈ 1e-9 relative for a
// batch of B = 200 terms of order one. A relative tolerance of 1e-6 sits far above both and far
// below any real mistake (a missing factor, a wrong sign or a wrong component moves the result
// by order one).
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/models/gaussian_mean_model.h"
#include "core/models/gaussian_mixture_model.h"
#include "core/models/logistic_regression_model.h"
#include "core/random/rng.h"
#include "tests/support/random_classification.h"

using namespace core;
namespace data = boost::unit_test::data;

namespace {

constexpr double kStep = 1e-5;
constexpr double kTolerance = 1e-6;

std::vector<DataIndex> randomRows(DataIndex n, std::size_t count, Rng &rng)
{
    std::vector<DataIndex> rows(count);
    for (auto &row : rows)
        row = static_cast<DataIndex>(rng.uniformIndex(static_cast<std::uint64_t>(n)));
    return rows;
}

double relativeError(double value, double reference, double scale)
{
    return std::abs(value - reference) / std::max({std::abs(reference), scale, 1.0});
}

// Central differences of the prior and of the batch log-likelihood, coordinate by coordinate.
void checkGradients(const Model &model, const Vector &theta, const std::vector<DataIndex> &rows)
{
    const int dim = model.dimension();
    Vector prior, likelihood;
    model.gradLogPrior(theta, prior);
    model.sumGradLogLikelihood(theta, rows, likelihood);
    BOOST_REQUIRE_EQUAL(prior.size(), dim);
    BOOST_REQUIRE_EQUAL(likelihood.size(), dim);
    std::vector<double> ratios(rows.size());
    const double scale = likelihood.cwiseAbs().maxCoeff();
    for (int j = 0; j < dim; ++j) {
        Vector below = theta, above = theta;
        below[j] -= kStep;
        above[j] += kStep;
        const double priorDifference = (model.logPrior(above) - model.logPrior(below)) / (2.0 * kStep);
        BOOST_TEST(relativeError(prior[j], priorDifference, prior.cwiseAbs().maxCoeff()) < kTolerance,
                   model.name() << " prior coordinate " << j << ": " << prior[j] << " vs " << priorDifference);
        model.logLikelihoodRatios(below, above, rows, ratios);
        double sum = 0.0;
        for (double r : ratios)
            sum += r;
        const double likelihoodDifference = sum / (2.0 * kStep);
        BOOST_TEST(relativeError(likelihood[j], likelihoodDifference, scale) < kTolerance,
                   model.name() << " likelihood coordinate " << j << ": " << likelihood[j] << " vs "
                                << likelihoodDifference);
    }
}

std::shared_ptr<ClassificationData> randomData(DataIndex n, int d, std::uint64_t seed)
{
    return testdata::randomClassification(n, d, seed, -0.3); // features of both signs
}

} // namespace

BOOST_DATA_TEST_CASE(gaussianMean, data::make(std::vector<double>{-1.3, 0.0, 0.4, 2.5}), mu)
{
    Rng rng(5);
    Eigen::VectorXd x(1000);
    for (Eigen::Index i = 0; i < x.size(); ++i)
        x[i] = 0.5 + 1.7 * rng.normal();
    const GaussianMeanModel flat(x, 2.89);
    const GaussianMeanModel informative(x, 2.89, 0.3, 0.8);
    const Vector theta = Vector::Constant(1, mu);
    const auto rows = randomRows(1000, 200, rng);
    checkGradients(flat, theta, rows);
    checkGradients(informative, theta, rows);
    Vector prior;
    flat.gradLogPrior(theta, prior);
    BOOST_TEST(prior[0] == 0.0); // a flat prior pulls nowhere
}

// Near the two modes, between them, and far out where one component's responsibility
// saturates to 0 or 1.
BOOST_DATA_TEST_CASE(gaussianMixture,
                     data::make(std::vector<double>{0.0, 1.0, 0.0, 0.5, -3.0, 40.0})
                         ^ data::make(std::vector<double>{1.0, -1.0, 0.0, 0.3, 12.0, -35.0}),
                     theta1, theta2)
{
    Rng rng(11);
    Eigen::VectorXd x(2000);
    for (Eigen::Index i = 0; i < x.size(); ++i)
        x[i] = (i % 2 == 0 ? 0.0 : 1.0) + std::sqrt(2.0) * rng.normal();
    const GaussianMixtureModel model(x);
    Vector theta(2);
    theta << theta1, theta2;
    checkGradients(model, theta, randomRows(2000, 200, rng));
}

// Feature counts that exercise the 8-wide blocks and their scalar tail, with and without the
// bias weight and the Gaussian prior.
BOOST_DATA_TEST_CASE(logisticRegression,
                     data::make(std::vector<int>{1, 7, 8, 29, 64}) * data::make(std::vector<bool>{false, true}), features,
                     withBias)
{
    const auto trainingData = randomData(500, features, 17 + static_cast<std::uint64_t>(features));
    LogisticRegressionOptions options;
    options.bias = withBias;
    options.priorSd = withBias ? 0.7 : 0.0;
    const LogisticRegressionModel model(trainingData, options);
    Rng rng(23);
    for (double spread : {0.0, 0.3, 3.0}) {
        Vector theta(model.dimension());
        for (Eigen::Index j = 0; j < theta.size(); ++j)
            theta[j] = spread * rng.normal();
        checkGradients(model, theta, randomRows(500, 200, rng));
    }
}

// A gradient sums over the given rows only, counting a repeated row each time.
BOOST_AUTO_TEST_CASE(sumsOverTheGivenRows)
{
    Eigen::VectorXd x(4);
    x << 1.0, 2.0, 4.0, 8.0;
    const GaussianMeanModel model(x, 2.0);
    Vector gradient;
    const std::vector<DataIndex> rows{3, 3, 0};
    model.sumGradLogLikelihood(Vector::Constant(1, 1.0), rows, gradient);
    BOOST_TEST(gradient[0] == ((8.0 - 1.0) + (8.0 - 1.0) + (1.0 - 1.0)) / 2.0);
    model.sumGradLogLikelihood(Vector::Constant(1, 1.0), std::span<const DataIndex>{}, gradient);
    BOOST_TEST(gradient[0] == 0.0);
}
