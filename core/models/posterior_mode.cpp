#include "core/models/posterior_mode.h"

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "core/correction/cancelled.h"
#include "core/models/control_variates.h"
#include "core/validation/range_checks.h"

namespace core {
namespace {

// ∇² log p0 by central differences of the prior's gradient: exact up to rounding for the
// Gaussian priors of the models here, and d + 1 gradient evaluations, no data read.
Eigen::MatrixXd priorHessian(const Model &model, const Vector &theta)
{
    const int d = model.dimension();
    Eigen::MatrixXd hessian(d, d);
    Vector plus, minus, shifted = theta;
    for (int j = 0; j < d; ++j) {
        const double h = 1e-4 * std::max(1.0, std::abs(theta[j]));
        shifted[j] = theta[j] + h;
        model.gradLogPrior(shifted, plus);
        shifted[j] = theta[j] - h;
        model.gradLogPrior(shifted, minus);
        shifted[j] = theta[j];
        hessian.col(j) = (plus - minus) / (2.0 * h);
    }
    return 0.5 * (hessian + hessian.transpose());
}

} // namespace

PosteriorMode findPosteriorMode(const Model &model, double temperature, Vector start, int maxSteps, std::stop_token stop)
{
    requireFinitePositive("temperature", temperature);
    if (!model.hasGradient())
        throw std::invalid_argument("finding the posterior mode needs the model's gradients; '" + model.name()
                                    + "' has none");
    const auto started = std::chrono::steady_clock::now();
    const auto notice = model.announceFullPass("the posterior mode (Newton steps of 2 or more passes each)", 2 * maxSteps + 1);
    PosteriorMode result;
    Vector theta = start.size() == model.dimension() ? std::move(start) : model.initialTheta();
    const auto check = [&] {
        if (stop.stop_requested())
            throw Cancelled("finding the posterior mode stopped");
    };
    const auto objective = [&](const Vector &at) {
        check();
        ++result.passes;
        return model.logPrior(at) + model.logLikelihoodSum(at) / temperature;
    };
    double value = objective(theta);
    Vector priorGradient;
    for (int step = 0; step < maxSteps; ++step) {
        check();
        const auto proxies = makeTaylorProxies(model, theta, 2);
        ++result.passes;
        model.gradLogPrior(theta, priorGradient);
        const Vector gradient = proxies->gradientSum() / temperature + priorGradient;
        const Eigen::MatrixXd hessian = proxies->hessianSum() / temperature + priorHessian(model, theta);
        // Converged when the Newton decrement (or, off a concave region, the gradient) is tiny
        // against the posterior's own scale: changes of f below 1e-10 nats.
        Eigen::LDLT<Eigen::MatrixXd> factor(-hessian);
        Vector direction;
        if (factor.info() == Eigen::Success && factor.isPositive() && (factor.vectorD().array() > 0.0).all()) {
            direction = factor.solve(gradient);
            if (gradient.dot(direction) < 2e-10) {
                result.converged = true;
                break;
            }
        } else {
            // A saddle or a convex patch (the mixture's ridge): Newton on −H shifted until it is
            // positive definite (Levenberg–Marquardt), an ascent direction scaled to the curvature.
            const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(-hessian);
            const double largest = eigen.eigenvalues().cwiseAbs().maxCoeff();
            const double shift = std::max(0.0, -eigen.eigenvalues().minCoeff()) + 1e-3 * std::max(largest, 1e-300);
            direction = eigen.eigenvectors()
                        * ((eigen.eigenvectors().transpose() * gradient).array()
                           / (eigen.eigenvalues().array() + shift))
                              .matrix();
        }
        double length = 1.0, next = value;
        Vector candidate;
        for (int halvings = 0; halvings < 40; ++halvings, length *= 0.5) {
            candidate = theta + length * direction;
            next = objective(candidate);
            if (std::isfinite(next) && next >= value)
                break;
        }
        ++result.newtonSteps;
        if (!(std::isfinite(next) && next >= value))
            break; // no ascent along the direction: as good as this method gets
        const bool flat = next - value < 1e-12 * std::max(1.0, std::abs(value));
        theta = std::move(candidate);
        value = next;
        if (flat) {
            result.converged = true;
            break;
        }
    }
    result.mode = std::move(theta);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

} // namespace core
