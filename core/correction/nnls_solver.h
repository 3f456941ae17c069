#pragma once
/// Non-negative least squares in normal-equation form (Lawson-Hanson active set method).
#include <functional>

#include <Eigen/Core>

namespace core {

struct NnlsOptions {
    /// Stop when every variable held at zero has a descent slope p_j - (Q x)_j at most
    /// `tolerance` · max_j |p_j| (the KKT condition, relative to the data's scale).
    double tolerance = 1e-15;
    /// A candidate whose new Cholesky pivot is below `dependentPivot` · Q_jj is numerically a
    /// combination of the passive columns: its positive slope is rounding noise, so it is
    /// skipped until the passive set changes. This replaces a Tikhonov term, which would bias
    /// a solution whose residual is ~1e-7.
    double dependentPivot = 1e-13;
    int maxIterations = 0; ///< outer iterations; 0 means 3 · size
};

struct NnlsResult {
    Eigen::VectorXd x;
    int iterations = 0;
    int passiveSize = 0;      ///< number of strictly positive x_j at the end
    bool converged = false;   ///< false if maxIterations was reached
    double maxSlope = 0.0;    ///< largest remaining p_j - (Q x)_j over x_j = 0 (≤ tolerance if converged)
};

/// Minimises ½ xᵀQx - pᵀx subject to x ≥ 0, which is min ‖A x - y‖² for Q = AᵀA, p = Aᵀy.
/// Lawson & Hanson ("Solving Least Squares Problems", 1974, ch. 23) with the passive-set
/// system kept as a Cholesky factor that is extended (O(m²)) when a variable enters and
/// downdated with Givens rotations (O(m²)) when one leaves, so the cost is dominated by the
/// O(n m) slope updates, m = passive-set size. Suited to sparse solutions (m ≪ n), which is
/// what the correction problem has.
///
/// Q must be symmetric positive semidefinite with both triangles stored. `checkpoint` is
/// called with the iteration count / maxIterations between outer iterations and may throw.
/// Throws std::invalid_argument if the sizes do not match.
NnlsResult solveNnls(const Eigen::MatrixXd &q, const Eigen::VectorXd &p, const NnlsOptions &options = {},
                     const std::function<void(double)> &checkpoint = {});

} // namespace core
