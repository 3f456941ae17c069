#pragma once
/// A Gaussian approximation N(θ̂, H⁻¹) of a tempered posterior: what a model with the LaplaceFit
/// capability makes (Model::laplaceFit), and what the laplace-* proposals are built around.
#include <Eigen/Core>

namespace core {

struct GaussianApproximation {
    Eigen::VectorXd mode;             ///< θ̂ (the last iterate when the budget ran out)
    Eigen::MatrixXd covarianceFactor; ///< lower-triangular L with H⁻¹ = L Lᵀ
    int newtonSteps = 0;
    bool converged = false;           ///< the Newton decrement fell below its tolerance
};

} // namespace core
