#pragma once
/// The discretised kernel of Seita et al. Eq. 14-15 ("Minibatch Acceptance
/// Test", Sec. 4), shared by
/// the ridge and NNLS solvers. Implementation detail of CorrectionDistribution.
#include <cstddef>
#include <vector>

#include <Eigen/Core>

namespace core {

struct CorrectionParams;

/// Notation: h = V/N, rows X_i = i h (i = -2N..2N, n = 4N+1 of them), atoms Y_j = j h
/// (j = -N..N), M_ij = Φ((X_i - Y_j)/σ), v_i = S(X_i) (logistic CDF).
/// Everything is kept centred, f(t) = Φ(t h/σ) - ½ and ṽ_i = S(X_i) - ½ = ½ tanh(X_i/2), so
/// that M = M̃ + ½·11ᵀ with M̃_ij = f(i - j): the centred values are odd and computed
/// without cancellation.
class CorrectionGrid {
public:
    /// Precomputes f(t) for |t| ≤ 3N+1 and ṽ. `params` must be valid (see validate()).
    explicit CorrectionGrid(const CorrectionParams &params);

    int atomsPerSide() const { return m_n; } ///< N
    double step() const { return m_step; }   ///< h
    Eigen::Index rows() const { return 4 * static_cast<Eigen::Index>(m_n) + 1; }

    /// f(t) = Φ(t h/σ) - ½; valid for |t| ≤ 3N+1.
    double kernel(long t) const { return m_kernel[static_cast<std::size_t>(t + m_reach)]; }
    /// Pointer p with p[t] = f(t), |t| ≤ 3N+1: column j of M̃ starts at p - 2N - j.
    const double *kernelCentre() const { return m_kernel.data() + m_reach; }
    /// ṽ_i for i = -2N..2N stored at index i + 2N.
    const double *centredTarget() const { return m_target.data(); }

    /// True when G̃ = M̃ᵀM̃ is a Toeplitz matrix to double precision: G̃_jk is a sum of
    /// f(m) f(m - (k-j)) over a window of 4N+1 rows, which reaches every m where the product
    /// differs from ¼ (|m| ≲ |k-j| + 9σ/h) as long as 9σ ≤ V - h. Then G̃_jk = g(|j - k|).
    bool gramIsToeplitz() const { return gramIsToeplitz(m_n, m_step, m_sigma); }
    static bool gramIsToeplitz(const CorrectionParams &params);

    /// g(d) = G̃[-N][-N+d] for d = 0..2N (the first column of G̃). O(N²).
    Eigen::VectorXd gramFirstColumn() const;
    /// (M̃ᵀṽ)_j = Σ_i f(i - j) ṽ_i for j = -N..N (index j + N). Even in j. O(N²).
    Eigen::VectorXd centredRhs() const;
    /// (M̃ᵀ1)_j = Σ_i f(i - j) for j = -N..N (index j + N); odd in j, ≈ -j. O(N²).
    Eigen::VectorXd centredColumnSums() const;

private:
    static bool gramIsToeplitz(int n, double step, double sigma);

    int m_n = 0;
    double m_step = 0.0;
    double m_sigma = 0.0;
    long m_reach = 0;
    std::vector<double> m_kernel;
    std::vector<double> m_target;
};

} // namespace core
