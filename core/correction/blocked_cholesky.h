#pragma once
/// A cancellable, progress-reporting dense Cholesky factorisation.
#include <functional>

#include <Eigen/Core>

namespace core {

/// Overwrites the lower triangle of the symmetric positive definite matrix `a` (only its lower
/// triangle is read) with L such that A = L Lᵀ, using the right-looking blocked algorithm
/// with Eigen's triangular solve and rank-k update kernels, so it runs at GEMM speed.
///
/// Unlike Eigen::LLT it calls `checkpoint(fraction done in [0, 1])` between blocks, so a
/// multi-second factorisation can report progress and be cancelled: `checkpoint` may throw
/// (e.g. core::Cancelled), which leaves `a` partly factorised.
///
/// Returns false, leaving `a` partly factorised, if a pivot is not positive, i.e. A is not
/// numerically positive definite. The strict upper triangle is never touched.
bool choleskyInPlace(Eigen::MatrixXd &a, const std::function<void(double)> &checkpoint = {});

/// Solves A x = b in place given the factor from choleskyInPlace (lower triangle of `factor`).
void choleskySolveInPlace(const Eigen::MatrixXd &factor, Eigen::VectorXd &b);

} // namespace core
