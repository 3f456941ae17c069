#include "core/models/logistic_laplace.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

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
// precision), Σ_i w_i x_i and Σ_i w_i, with w_i = σ(z_i)σ(−z_i)/T. The margins z_i are double
// sums of the model's fixed-order row kernel, so that the weights carry no more error than the
// features; the rows, scaled by √w_i a block at a time (no N × d copy), go into symmetric rank
// updates.
struct CurvatureSums {
    Eigen::MatrixXf gram;
    Eigen::VectorXd cross;
    double weightSum = 0.0;

    CurvatureSums(const ClassificationData &data, const Vector &theta, bool bias, double temperature,
                  Eigen::Index begin, Eigen::Index end)
    {
        constexpr Eigen::Index kBlockRows = 1024;
        const Eigen::Index d = data.featureCount();
        gram = Eigen::MatrixXf::Zero(d, d);
        cross = Eigen::VectorXd::Zero(d);
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
                scaled.row(k) = data.features.row(first + k) * static_cast<float>(std::sqrt(w));
            }
            gram.selfadjointView<Eigen::Lower>().rankUpdate(scaled.transpose());
        }
    }
};

// H = P + (1/T) Xᵀ W X (with the intercept's row and column when the model has one), in double.
Eigen::MatrixXd negativeHessian(const LogisticRegressionModel &model, const Vector &theta, double temperature)
{
    const ClassificationData &data = model.data();
    if (data.mapped) {
        // Rows read in place: a block at a time through the proxies' sums, never an N × d copy.
        Eigen::MatrixXd h = -model.taylorSums(theta).hessian / temperature;
        addPriorCurvature(model, h);
        return h;
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
    Eigen::MatrixXd h = Eigen::MatrixXd::Zero(d, d);
    h.topLeftCorner(features, features) = gram.selfadjointView<Eigen::Lower>().toDenseMatrix();
    if (bias) {
        const Eigen::VectorXd cross = first->cross + second->cross;
        h.block(0, features, features, 1) = cross;
        h.block(features, 0, 1, features) = cross.transpose();
        h(features, features) = first->weightSum + second->weightSum;
    }
    addPriorCurvature(model, h);
    return h;
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
    const bool inPlace = static_cast<bool>(model.data().mapped);
    const auto notice = model.announceFullPass("the Laplace fit (Newton steps of 2 or more passes each)", 2 * maxSteps + 2);
    // Every row's index, for the gradient over all rows in memory; rows read in place get the
    // gradient from the proxies' sums instead (no O(N) index list).
    std::vector<DataIndex> all(inPlace ? 0 : static_cast<std::size_t>(model.dataSize()));
    std::iota(all.begin(), all.end(), DataIndex{0});
    GaussianApproximation fit;
    fit.mode = model.initialTheta();
    Vector gradient(d), likelihoodGradient(d);
    Eigen::MatrixXd h; // −Hessian at fit.mode while curvatureAtMode, without the ridge
    bool curvatureAtMode = false;
    double value = logPosterior(model, fit.mode, temperature);
    for (; fit.newtonSteps < maxSteps; ++fit.newtonSteps) {
        checkStop();
        model.gradLogPrior(fit.mode, gradient);
        if (inPlace) {
            LogisticRegressionModel::TaylorSums sums = model.taylorSums(fit.mode);
            gradient += sums.gradient / temperature;
            h = -sums.hessian / temperature;
            addPriorCurvature(model, h);
        } else {
            model.sumGradLogLikelihood(fit.mode, all, likelihoodGradient);
            gradient += likelihoodGradient / temperature;
            h = negativeHessian(model, fit.mode, temperature);
        }
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
        h = negativeHessian(model, fit.mode, temperature);
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

} // namespace core
