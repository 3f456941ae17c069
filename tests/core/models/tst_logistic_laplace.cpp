// The Laplace approximation of logistic regression that preconditions --proposal
// laplace-langevin: its mode against the log-posterior's own gradient, and its covariance
// against the inverse of a Hessian taken by finite differences of that gradient, with and
// without an intercept and at two temperatures.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <numeric>
#include <stop_token>
#include <vector>

#include <Eigen/Dense>

#include "core/correction/cancelled.h"
#include "core/models/logistic_laplace.h"
#include "tests/support/random_classification.h"

using namespace core;

namespace {

// ∇ log p0(θ) + (1/T) Σ_i ∇ log p(y_i | x_i, θ), from the model's own gradients.
Vector posteriorGradient(const LogisticRegressionModel &model, const Vector &theta, double temperature)
{
    std::vector<DataIndex> all(static_cast<std::size_t>(model.dataSize()));
    std::iota(all.begin(), all.end(), DataIndex{0});
    Vector prior(model.dimension()), likelihood(model.dimension());
    model.gradLogPrior(theta, prior);
    model.sumGradLogLikelihood(theta, all, likelihood);
    return prior + likelihood / temperature;
}

} // namespace

BOOST_AUTO_TEST_CASE(modeAndCovarianceMatchFiniteDifferences)
{
    const auto data = testdata::randomClassification(400, 4, 31);
    for (const bool bias : {false, true})
        for (const double temperature : {1.0, 10.0}) {
            LogisticRegressionOptions options;
            options.bias = bias;
            options.priorSd = 1.5;
            const LogisticRegressionModel model(data, options);
            const GaussianApproximation fit = logisticLaplace(model, temperature);
            BOOST_TEST(fit.converged);
            const int d = model.dimension();
            const Vector gradient = posteriorGradient(model, fit.mode, temperature);
            BOOST_TEST(gradient.norm() < 1e-6, "gradient at the mode " << gradient.transpose());
            // −Hessian by central differences of the gradient.
            Eigen::MatrixXd hessian(d, d);
            const double e = 1e-5;
            for (int j = 0; j < d; ++j) {
                Vector up = fit.mode, down = fit.mode;
                up[j] += e;
                down[j] -= e;
                hessian.col(j) = -(posteriorGradient(model, up, temperature) - posteriorGradient(model, down, temperature))
                                 / (2 * e);
            }
            const Eigen::MatrixXd expected = (0.5 * (hessian + hessian.transpose())).inverse();
            const Eigen::MatrixXd covariance = fit.covarianceFactor * fit.covarianceFactor.transpose();
            const double error = (covariance - expected).cwiseAbs().maxCoeff() / expected.cwiseAbs().maxCoeff();
            BOOST_TEST(error < 1e-4, "bias " << bias << ", T " << temperature << ": relative error " << error);
            // A lower-triangular factor with a positive diagonal, as the proposal requires.
            BOOST_TEST(fit.covarianceFactor.triangularView<Eigen::StrictlyUpper>().toDenseMatrix().isZero());
            BOOST_TEST((fit.covarianceFactor.diagonal().array() > 0.0).all());
        }
}

// Separable data under the flat prior have no mode: the fit stops within its budget and still
// returns a positive-definite covariance (a preconditioner need not be exact).
BOOST_AUTO_TEST_CASE(separableDataWithoutPriorStillGiveAPreconditioner)
{
    auto data = testdata::randomClassification(200, 3, 5);
    auto separable = std::make_shared<ClassificationData>(*data);
    for (DataIndex i = 0; i < separable->size(); ++i)
        separable->labels[static_cast<std::size_t>(i)] = separable->features(i, 0) > 0.0f ? 1 : 0;
    const LogisticRegressionModel model(separable, {});
    const GaussianApproximation fit = logisticLaplace(model, 1.0, 25);
    BOOST_TEST(fit.newtonSteps <= 25);
    BOOST_TEST(fit.covarianceFactor.allFinite());
    BOOST_TEST((fit.covarianceFactor.diagonal().array() > 0.0).all());
    BOOST_CHECK_THROW(logisticLaplace(model, 0.0), std::invalid_argument);
}

// The fit reads all N rows per Newton step (half a second on Fashion-MNIST): a stop request
// ends it with Cancelled, before the next step.
BOOST_AUTO_TEST_CASE(aStoppedFitIsCancelled)
{
    LogisticRegressionOptions options;
    options.priorSd = 1.0;
    const LogisticRegressionModel model(testdata::randomClassification(300, 3, 7), options);
    std::stop_source stop;
    BOOST_CHECK_NO_THROW(logisticLaplace(model, 1.0, 40, stop.get_token()));
    stop.request_stop();
    BOOST_CHECK_THROW(logisticLaplace(model, 1.0, 40, stop.get_token()), Cancelled);
}

// Past 2,048 rows the weighted Gram matrix is summed a block of rows at a time, in two halves
// (the second on a thread of its own where there are two cores): the covariance must still be
// the inverse of P + (1/T) Σ w_i x_i x_iᵀ, here summed row by row in double, with the intercept.
BOOST_AUTO_TEST_CASE(theBlockedCurvatureOfManyRowsIsTheDirectSum)
{
    for (const DataIndex rows : {2048, 5003}) {
        LogisticRegressionOptions options;
        options.bias = true;
        options.priorSd = 2.0;
        const LogisticRegressionModel model(testdata::randomClassification(rows, 6, 41), options);
        const double temperature = 3.0;
        const GaussianApproximation fit = logisticLaplace(model, temperature);
        BOOST_TEST(fit.converged);
        const int d = model.dimension(), features = d - 1;
        Eigen::MatrixXd h = Eigen::MatrixXd::Identity(d, d) / (options.priorSd * options.priorSd);
        const ClassificationData &data = model.data();
        for (DataIndex i = 0; i < rows; ++i) {
            Eigen::VectorXd x(d);
            x.head(features) = data.features.row(i).transpose().cast<double>();
            x[features] = 1.0;
            const double p = 1.0 / (1.0 + std::exp(-x.dot(fit.mode)));
            h += p * (1.0 - p) / temperature * x * x.transpose();
        }
        h.diagonal().array() += 1e-6 * h.diagonal().mean(); // the fit's own ridge
        const Eigen::MatrixXd expected = h.inverse();
        const Eigen::MatrixXd covariance = fit.covarianceFactor * fit.covarianceFactor.transpose();
        const double error = (covariance - expected).cwiseAbs().maxCoeff() / expected.cwiseAbs().maxCoeff();
        BOOST_TEST(error < 1e-5, rows << " rows: relative error " << error);
        // The same matrix whichever thread summed which half.
        const GaussianApproximation again = logisticLaplace(model, temperature);
        BOOST_TEST((again.covarianceFactor.array() == fit.covarianceFactor.array()).all());
    }
}
