#pragma once
/// The ridge-regression correction solve of Seita et al. Eq. 15
/// ("Minibatch Acceptance Test", Sec. 4): u* = (MᵀM + λI)⁻¹ Mᵀv. Implementation detail of
/// CorrectionDistribution, public so tests can compare the two methods.
#include <functional>
#include <stop_token>
#include <vector>

namespace core {

struct CorrectionParams;

enum class RidgeMethod {
    /// Toeplitz when it applies (CorrectionGrid::gramIsToeplitz(), i.e. V ≥ 9σ + h), else dense.
    Automatic,
    /// MᵀM = G̃ + (n/4)·11ᵀ + ½(c̃1ᵀ + 1c̃ᵀ) with G̃ = M̃ᵀM̃ Toeplitz and c̃ = M̃ᵀ1, so the
    /// system is SPD Toeplitz plus rank two: Levinson-Durbin (O(N²), Golub & Van Loan
    /// Alg. 4.7.2) and Woodbury, then iterative refinement against the exact structured product
    /// until the residual is at rounding level. About 0.3 s at N = 4000.
    Toeplitz,
    /// Mirror-symmetric split (folded_normal_equations.h) and two dense blocked Cholesky
    /// factorisations of size N+1 and N on two threads. O(N³): about 3-4 s at N = 4000.
    DenseCholesky,
};

/// Returns the 2N+1 ridge masses u* (unclipped, unnormalised), index j + N for Y_j.
/// `checkpoint(fraction)` is called from the calling thread and may throw (Cancelled); a stop
/// request on `stop` also ends the dense method's helper thread. Throws std::invalid_argument
/// for RidgeMethod::Toeplitz when the Gram matrix is not Toeplitz, std::runtime_error when
/// the system is not positive definite in double precision (λ far too small).
std::vector<double> solveRidgeMasses(const CorrectionParams &params, const std::function<void(double)> &checkpoint,
                                     std::stop_token stop = {}, RidgeMethod method = RidgeMethod::Automatic);

} // namespace core
