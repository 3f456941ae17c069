// The GLMs' Laplace fit: the posterior mode by Newton's method (posterior_mode.h) and the
// curvature there from the same derivative sums the Taylor proxies use.
#include <algorithm>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "core/models/gaussian_approximation.h"
#include "core/models/glm/glm_model.h"
#include "core/models/posterior_mode.h"

namespace core {

GaussianApproximation GlmModel::laplaceFit(double temperature, int maxSteps, std::stop_token stop) const
{
    const PosteriorMode mode = findPosteriorMode(*this, temperature, {}, maxSteps, stop);
    Eigen::MatrixXd h = -derivativeSums(mode.mode).hessian / temperature;
    if (m_options.priorSd > 0.0)
        h.diagonal().array() += 1.0 / (m_options.priorSd * m_options.priorSd);
    // Student-t noise is not log-concave: far residuals curve the log-likelihood upward, and
    // with few rows the sum may too. A preconditioner needs only to be positive definite, so
    // eigenvalues below 1e-6 of the largest are raised to it; the chain stays exact.
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(h);
    const double largest = std::max(eigen.eigenvalues().maxCoeff(), 1e-300);
    const Eigen::VectorXd curvature = eigen.eigenvalues().cwiseMax(1e-6 * largest);
    const Eigen::MatrixXd covariance
        = eigen.eigenvectors() * curvature.cwiseInverse().asDiagonal() * eigen.eigenvectors().transpose();
    const Eigen::LLT<Eigen::MatrixXd> factor(0.5 * (covariance + covariance.transpose()));
    GaussianApproximation fit;
    fit.mode = mode.mode;
    fit.covarianceFactor = factor.matrixL();
    fit.newtonSteps = mode.newtonSteps;
    fit.converged = mode.converged;
    return fit;
}

} // namespace core
