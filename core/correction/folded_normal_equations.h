#pragma once
/// The least-squares system of Seita et al. Eq. 14-15, split into its mirror-symmetric and
/// antisymmetric halves: the NNLS solve and the dense ridge fallback work on these.
/// Implementation detail of CorrectionDistribution.
#include <functional>
#include <vector>

#include <Eigen/Core>

namespace core {

struct CorrectionParams;

/// Notation (Seita et al., "Minibatch Acceptance Test", Sec. 4): h = V/N, X_i = i h (i = -2N..2N, n
/// = 4N+1 rows), Y_j = j h (j = -N..N), M_ij = Φ((X_i - Y_j)/σ), v_i = S(X_i).
///
/// The grid is symmetric and Φ(-t) = 1 - Φ(t), S(-x) = 1 - S(x), so with the centred
/// M̃ = M - ½·11ᵀ and ṽ = v - ½·1 one has J M̃ J = -M̃ and J ṽ = -ṽ (J reverses order), and
///     M u - v = (M̃ u - ṽ) + ½ (1ᵀu - 1) 1.
/// Writing u = S a + T b with a_q = (u_q + u_-q)/2 (q = 0..N) and b_q = (u_q - u_-q)/2
/// (q = 1..N), the first bracket depends on a only and is odd in i, the second on b and the
/// total mass 1ᵀu = wᵀa only and is even in i, so the two are orthogonal:
///     ‖M u - v‖² = ‖M̃ S a - ṽ‖² + ‖M̃ T b + ½ (wᵀa - 1) 1‖².
/// Hence the 2N+1 unknowns split into two independent Gram matrices of about half the size
/// (an 8x cheaper Cholesky, and two that run in parallel), coupled only through the scalar
/// wᵀa. This reformulation is exact: it does not change the minimiser of Eq. 15.
struct FoldedNormalEquations {
    int grid = 0;               ///< N
    double rows = 0;            ///< n = 4N + 1, the number of solve-grid points X_i
    /// Sᵀ M̃ᵀ M̃ S, (N+1)x(N+1). Only the lower triangle is filled unless a full matrix was asked for.
    Eigen::MatrixXd symmetricGram;
    /// Tᵀ M̃ᵀ M̃ T, NxN, lower triangle only; empty unless requested.
    Eigen::MatrixXd antisymmetricGram;
    Eigen::VectorXd symmetricRhs;     ///< Sᵀ M̃ᵀ ṽ, N+1
    Eigen::VectorXd antisymmetricOnes; ///< Tᵀ M̃ᵀ 1, N (empty unless the antisymmetric part was requested)
    Eigen::VectorXd weights;          ///< w = diag(SᵀS) = (1, 2, ..., 2): u's mass is wᵀa, ‖S a‖² = Σ w_q a_q²
};

/// Fills the folded Gram matrices in O(N²) without forming M. G = M̃ᵀM̃ is read off its first
/// column when it is Toeplitz (CorrectionGrid::gramIsToeplitz(), true unless V < 9σ);
/// otherwise it follows from one directly summed row and column through the diagonal recurrence
///     G[j+1][k+1] = G[j][k] + f(-2N-1-j) f(-2N-1-k) - f(2N-j) f(2N-k),  f(t) = Φ(t h/σ) - ½,
/// (the sums defining G shift by one X_i at each end). Rows are streamed, so peak memory is
/// the output only: 8 (N+1)² bytes per Gram matrix (128 MB each at N = 4000).
///
/// `checkpoint(fraction)` is called every few dozen rows and may throw (cancellation).
/// `fullSymmetric` also fills the upper triangle of symmetricGram.
FoldedNormalEquations buildFoldedNormalEquations(const CorrectionParams &params, bool withAntisymmetric,
                                                 bool fullSymmetric,
                                                 const std::function<void(double)> &checkpoint = {});

/// Expands folded halves back to the 2N+1 masses (index j + N): u_±q = a_q ± b_q, with b
/// empty meaning symmetric.
std::vector<double> unfoldMasses(const Eigen::VectorXd &a, const Eigen::VectorXd &b, int grid);

} // namespace core
