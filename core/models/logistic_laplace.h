#pragma once
/// The Laplace approximation of logistic regression's tempered posterior, used as the
/// preconditioner of the Langevin proposal (--proposal laplace-langevin).
///
/// The tempered log-posterior f(θ) = log p0(θ) + (1/T) Σ_i log σ(s_i θᵀx_i) is concave, so
/// Newton's method with a backtracking line search finds its mode θ̂; the negative Hessian there,
///
///   H = P + (1/T) Σ_i w_i x_i x_iᵀ,  w_i = σ(z_i) σ(−z_i),  P = I/s² (0 for the flat prior),
///
/// gives the Gaussian N(θ̂, H⁻¹) that a posterior of N ≫ d points is close to (the Bernstein–von
/// Mises regime). Proposing with M = H⁻¹ whitens the target: in 784 dimensions the random walk's
/// step is limited by the few best-determined directions, while a prior-dominated weight (a blank
/// border pixel) has a posterior sd some hundred times larger; with M every direction moves at
/// its own scale.
///
/// Only a preconditioner: M may be any fixed positive-definite matrix and the Langevin kernel
/// stays exact, so precision matters little. With the flat prior on separable data there is no
/// mode (the likelihood keeps rising along a separating direction); the fit then stops after
/// its iteration budget and H gets a ridge ε·mean(diag H)·I, which keeps it positive definite.
#include <stop_token>

#include <Eigen/Core>

#include "core/models/gaussian_approximation.h"
#include "core/models/logistic_regression_model.h"

namespace core {

/// Fits the approximation at temperature T > 0. Each Newton step reads the data twice (the
/// gradient and the weighted Gram matrix Xᵀ W X, a d×d product over N rows; about half a second
/// for Fashion-MNIST's 12,000 × 784). Throws std::invalid_argument for T ≤ 0, and Cancelled
/// when `stop` is requested: it is checked before every Newton step and the final Hessian.
GaussianApproximation logisticLaplace(const LogisticRegressionModel &model, double temperature, int maxSteps = 40,
                                      std::stop_token stop = {});

} // namespace core
