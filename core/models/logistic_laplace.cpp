#include "core/models/logistic_laplace.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include <Eigen/Cholesky>

#include "core/correction/cancelled.h"
#include "core/models/feature_rows.h"
#include "core/validation/range_checks.h"

namespace core {
namespace {

// The tempered log-posterior at θ (normalising constants dropped).
double logPosterior(const LogisticRegressionModel &model, const Vector &theta, double temperature)
{
    return model.logPrior(theta) + model.logLikelihoodSum(theta) / temperature;
}

void addPriorCurvature(const LogisticRegressionModel &model, Eigen::MatrixXd &h)
{
    const double priorSd = model.options().priorSd;
    if (priorSd > 0.0)
        h.diagonal().array() += 1.0 / (priorSd * priorSd);
}

// Over rows [begin, end) at θ: Σ_i w_i x_i x_iᵀ (its lower triangle, in float, the data's own
// precision), Σ_i w_i x_i and Σ_i w_i, with w_i = σ(z_i)σ(−z_i)/T, and the log-likelihood's
// gradient Σ_i g_i x_i and Σ_i g_i, g_i = s_i σ(−s_i z_i) (s_i = ±1, the label), from the same
// read of each row. The margins z_i are double sums of the model's fixed-order row kernel, so
// that the weights carry no more error than the features; the rows, scaled by √w_i a block at
// a time (no N × d copy), go into symmetric rank updates.
struct CurvatureSums {
    Eigen::MatrixXf gram;
    Eigen::VectorXd cross;
    double weightSum = 0.0;
    Eigen::VectorXd gradient;
    double gradientBias = 0.0;

    CurvatureSums(const ClassificationData &data, const Vector &theta, bool bias, double temperature,
                  Eigen::Index begin, Eigen::Index end)
    {
        constexpr Eigen::Index kBlockRows = 1024;
        const Eigen::Index d = data.featureCount();
        gram = Eigen::MatrixXf::Zero(d, d);
        cross = Eigen::VectorXd::Zero(d);
        gradient = Eigen::VectorXd::Zero(d);
        FeatureMatrix scaled; // row-major like the features: each row is written whole
        for (Eigen::Index first = begin; first < end; first += kBlockRows) {
            const Eigen::Index rows = std::min(kBlockRows, end - first);
            scaled.resize(rows, d);
            for (Eigen::Index k = 0; k < rows; ++k) {
                const float *row = data.features.row(first + k).data();
                std::array<double, 1> margin = {bias ? theta[d] : 0.0};
                feature_rows::accumulateDots<1>(row, {theta.data()}, d, margin);
                const double p = 1.0 / (1.0 + std::exp(-margin[0]));
                const double w = p * (1.0 - p) / temperature;
                weightSum += w;
                if (bias)
                    feature_rows::addScaledRow(row, w, d, cross.data());
                // d/dz log σ(s z) = s σ(−s z) = s / (1 + e^{s z}); e^{s z} = ∞ gives the exact limit 0.
                const double s = data.labels[static_cast<std::size_t>(first + k)] != 0 ? 1.0 : -1.0;
                const double g = s / (1.0 + std::exp(s * margin[0]));
                feature_rows::addScaledRow(row, g, d, gradient.data());
                gradientBias += g;
                scaled.row(k) = data.features.row(first + k) * static_cast<float>(std::sqrt(w));
            }
            gram.selfadjointView<Eigen::Lower>().rankUpdate(scaled.transpose());
        }
    }
};

// What a Newton step needs at θ, from one pass over the rows.
struct NewtonTerms {
    /// H = P + (1/T) Xᵀ W X (with the intercept's row and column when the model has one).
    Eigen::MatrixXd negativeHessian;
    /// The untempered log-likelihood's gradient Σ_i ∇ log p(y_i | x_i, θ).
    Vector likelihoodGradient;
};

NewtonTerms newtonTerms(const LogisticRegressionModel &model, const Vector &theta, double temperature)
{
    const ClassificationData &data = model.data();
    if (data.mapped) {
        // Rows read in place: a block at a time through the proxies' sums, never an N × d copy.
        LogisticRegressionModel::TaylorSums sums = model.taylorSums(theta);
        NewtonTerms terms{-sums.hessian / temperature, std::move(sums.gradient)};
        addPriorCurvature(model, terms.negativeHessian);
        return terms;
    }
    const int features = data.featureCount(), d = model.dimension();
    const bool bias = model.options().bias;
    // The rows in two fixed halves, each summed on its own and the two added in double: the
    // same matrix whether the second half runs on a thread of its own (two cores, the usual
    // case; it halves the fit's wall time) or after the first.
    const Eigen::Index rows = data.size(), middle = rows / 2;
    std::optional<CurvatureSums> second;
    std::optional<CurvatureSums> first;
    {
        std::jthread helper;
        if (std::thread::hardware_concurrency() > 1 && rows >= 2048)
            helper = std::jthread([&] { second.emplace(data, theta, bias, temperature, middle, rows); });
        first.emplace(data, theta, bias, temperature, 0, middle);
    } // joins the helper
    if (!second)
        second.emplace(data, theta, bias, temperature, middle, rows);
    const Eigen::MatrixXd gram = first->gram.cast<double>() + second->gram.cast<double>(); // the lower triangle
    NewtonTerms terms{Eigen::MatrixXd::Zero(d, d), Vector::Zero(d)};
    Eigen::MatrixXd &h = terms.negativeHessian;
    h.topLeftCorner(features, features) = gram.selfadjointView<Eigen::Lower>().toDenseMatrix();
    terms.likelihoodGradient.head(features) = first->gradient + second->gradient;
    if (bias) {
        const Eigen::VectorXd cross = first->cross + second->cross;
        h.block(0, features, features, 1) = cross;
        h.block(features, 0, 1, features) = cross.transpose();
        h(features, features) = first->weightSum + second->weightSum;
        terms.likelihoodGradient[features] = first->gradientBias + second->gradientBias;
    }
    addPriorCurvature(model, h);
    return terms;
}

} // namespace

GaussianApproximation logisticLaplace(const LogisticRegressionModel &model, double temperature, int maxSteps,
                                      std::stop_token stop)
{
    const auto checkStop = [&stop] {
        if (stop.stop_requested())
            throw Cancelled("the Laplace fit was stopped");
    };
    requireFinitePositive("temperature", temperature);
    const int d = model.dimension();
    const auto notice = model.announceFullPass("the Laplace fit (Newton steps of 2 or more passes each)", 2 * maxSteps + 2);
    GaussianApproximation fit;
    fit.mode = model.initialTheta();
    Vector gradient(d);
    Eigen::MatrixXd h; // −Hessian at fit.mode while curvatureAtMode, without the ridge
    bool curvatureAtMode = false;
    double value = logPosterior(model, fit.mode, temperature);
    for (; fit.newtonSteps < maxSteps; ++fit.newtonSteps) {
        checkStop();
        model.gradLogPrior(fit.mode, gradient);
        NewtonTerms terms = newtonTerms(model, fit.mode, temperature);
        gradient += terms.likelihoodGradient / temperature;
        h = std::move(terms.negativeHessian);
        curvatureAtMode = true;
        // A ridge relative to the curvature keeps H invertible without a prior (see the header).
        Eigen::MatrixXd ridged = h;
        ridged.diagonal().array() += 1e-8 * h.diagonal().mean() + 1e-300;
        const Eigen::LLT<Eigen::MatrixXd> llt(ridged);
        const Vector step = llt.solve(gradient);
        const double decrement = gradient.dot(step); // λ², the predicted gain times two
        if (!(decrement > 1e-16)) { // quadratic convergence makes this one step past 1e-8
            fit.converged = true;
            break;
        }
        // Backtracking: halve until the log-posterior rises (Armijo, c = 1/4).
        double length = 1.0;
        Vector next = fit.mode + step;
        double nextValue = logPosterior(model, next, temperature);
        while (!(nextValue >= value + 0.25 * length * decrement) && length > 1e-6) {
            length *= 0.5;
            next = fit.mode + length * step;
            nextValue = logPosterior(model, next, temperature);
        }
        if (!(nextValue >= value)) {
            // No step raises the log-posterior: keep the current point. When the gain Newton
            // predicts (half the decrement) is below what the sum over N rows resolves in double,
            // that point is the mode to working precision (near-flat directions make the last
            // steps linear, and their gains vanish under the rounding before λ² reaches 1e-16).
            fit.converged = decrement <= 1e-12 * (1.0 + std::abs(value));
            break;
        }
        fit.mode = next;
        curvatureAtMode = false;
        value = nextValue;
    }
    checkStop();
    // The fit usually ends at the point whose curvature its last step measured: a pass over
    // the data fewer (one of about ten on Fashion-MNIST).
    if (!curvatureAtMode)
        h = newtonTerms(model, fit.mode, temperature).negativeHessian;
    h.diagonal().array() += 1e-6 * h.diagonal().mean();
    // L with H⁻¹ = L Lᵀ: invert H and Cholesky-factorise the inverse (d³ work, at d = 784 a
    // fraction of one Gram product over the data).
    const Eigen::LLT<Eigen::MatrixXd> hFactor(h);
    const Eigen::MatrixXd covariance = hFactor.solve(Eigen::MatrixXd::Identity(d, d));
    const Eigen::LLT<Eigen::MatrixXd> covarianceFactor(0.5 * (covariance + covariance.transpose()));
    if (covarianceFactor.info() != Eigen::Success)
        throw std::runtime_error("the Laplace covariance is not positive definite");
    fit.covarianceFactor = covarianceFactor.matrixL();
    return fit;
}

GaussianApproximation LogisticRegressionModel::laplaceFit(double temperature, int maxSteps, std::stop_token stop) const
{
    return logisticLaplace(*this, temperature, maxSteps, std::move(stop));
}

} // namespace core
