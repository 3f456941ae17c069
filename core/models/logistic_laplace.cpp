#include "core/models/logistic_laplace.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <Eigen/Cholesky>

#include "core/correction/cancelled.h"
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

// Σ_i w_i x_i x_iᵀ over rows [begin, end) into `gram`'s lower triangle: rows scaled by √w_i,
// a block at a time (no N × d copy), as symmetric rank updates in float, the data's own
// precision.
void addWeightedGram(const FeatureMatrix &x, const Eigen::ArrayXf &rootWeights, Eigen::Index begin, Eigen::Index end,
                     Eigen::MatrixXf &gram)
{
    constexpr Eigen::Index kBlockRows = 1024;
    Eigen::MatrixXf scaled;
    for (Eigen::Index first = begin; first < end; first += kBlockRows) {
        const Eigen::Index rows = std::min(kBlockRows, end - first);
        scaled.noalias() = rootWeights.segment(first, rows).matrix().asDiagonal() * x.middleRows(first, rows);
        gram.selfadjointView<Eigen::Lower>().rankUpdate(scaled.transpose());
    }
}

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
    // The margins only weigh the rows, so float (the features' precision) is enough for them.
    const Eigen::VectorXf margins = data.features * theta.head(features).cast<float>();
    const Eigen::ArrayXd p =
        1.0 / (1.0 + (-(margins.cast<double>().array() + (bias ? theta[features] : 0.0))).exp());
    const Eigen::ArrayXd w = p * (1.0 - p) / temperature;
    const Eigen::ArrayXf rootWeights = w.sqrt().cast<float>();
    // The rows in two fixed halves, each summed in float and the two added in double: the same
    // matrix whether the second half runs on a thread of its own (two cores, the usual case;
    // it halves the fit's wall time) or after the first.
    const Eigen::Index rows = data.size(), middle = rows / 2;
    Eigen::MatrixXf firstHalf = Eigen::MatrixXf::Zero(features, features);
    Eigen::MatrixXf secondHalf = Eigen::MatrixXf::Zero(features, features);
    {
        std::jthread helper;
        if (std::thread::hardware_concurrency() > 1 && rows >= 2048)
            helper = std::jthread([&] { addWeightedGram(data.features, rootWeights, middle, rows, secondHalf); });
        addWeightedGram(data.features, rootWeights, 0, middle, firstHalf);
        if (!helper.joinable())
            addWeightedGram(data.features, rootWeights, middle, rows, secondHalf);
    } // joins the helper
    const Eigen::MatrixXd gram = firstHalf.cast<double>() + secondHalf.cast<double>(); // the lower triangle
    Eigen::MatrixXd h = Eigen::MatrixXd::Zero(d, d);
    h.topLeftCorner(features, features) = gram.selfadjointView<Eigen::Lower>().toDenseMatrix();
    if (bias) {
        const Eigen::VectorXd cross = (data.features.transpose() * w.cast<float>().matrix()).cast<double>();
        h.block(0, features, features, 1) = cross;
        h.block(features, 0, 1, features) = cross.transpose();
        h(features, features) = w.sum();
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
        if (!(nextValue >= value))
            break; // no progress possible: keep the current point
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
