#pragma once
/// A cheap square root of a covariance that differs from a multiple of the identity in a few
/// directions only, for the Hamiltonian proposal's mass matrix.
///
/// Why: with a N(0, s²I) prior the Laplace covariance of logistic regression is
/// Σ = (I/s² + A)⁻¹, A = (1/T) Σ_i w_i x_i x_iᵀ (logistic_laplace.h). The data inform a few
/// directions; in the others Σ is s²I. On the bundled digits at T = 100 (784 weights) 50 of
/// Σ's eigenvalues lie below 0.95 s² and 700 above 0.9999 s². Applying the dense triangular
/// factor L costs d²/2 multiply-adds and reads a 2.5 MB matrix, twice per leapfrog step; it
/// was half of a Hamiltonian run's time there. The symmetric root of
///
///   Σ̃ = c I − U Θ Uᵀ,   c = λ_max(Σ),   U Θ Uᵀ the k leading eigenpairs of c I − Σ,
///
///   S = √c I + U diag(√(c − θ_j) − √c) Uᵀ,   S Sᵀ = S² = Σ̃,
///
/// costs 2·d·k. Σ̃ equals Σ on U's span and puts variance c on the rest, where Σ's own lies
/// within (1 − tolerance)·c … c: a whitened direction then oscillates at most 1/√(1 − tol)
/// times faster than the others (2.6 % at the default 5 %), which leaves the stable leapfrog
/// step as it was. Exactness does not depend on it at all: Hamiltonian Monte Carlo is exact for
/// any fixed positive-definite mass matrix (Neal 2011, on linear transformations), and Σ̃ is one (its
/// eigenvalues are Σ's on U and c elsewhere).
///
/// U comes from randomised subspace iteration (Halko, Martinsson & Tropp 2011, Algs. 4.4 and
/// 5.3) on c I − Σ = c I − L Lᵀ with triangular products, from a fixed seed so that the same
/// L always gives the same root (a chain's draws do not depend on anything else).
#include <memory>
#include <optional>

#include <Eigen/Core>

#include "core/models/model.h"

namespace core {

class LowRankRoot {
public:
    /// The root of Σ = L Lᵀ (`lowerFactor`'s lower triangle, d×d) when every direction outside
    /// at most `maxRank` of them (0: d/4) has a variance within `tolerance`·c of the largest
    /// eigenvalue c (found by power iteration), and d ≥ 64 (below that the dense factor is cheap anyway); nullopt
    /// otherwise (a flat prior, say, where the variances span orders of magnitude).
    static std::optional<LowRankRoot> compress(const Eigen::MatrixXd &lowerFactor, double tolerance = 0.05,
                                               Eigen::Index maxRank = 0);

    /// out = S v (`out` must not be `v`). `scratch` is resized to the rank once; allocates nothing after that.
    void apply(const Vector &v, Vector &out, Vector &scratch) const;
    /// out = S² v = Σ̃ v, as apply(): one product where S(S v) takes two.
    void applySquare(const Vector &v, Vector &out, Vector &scratch) const;
    /// out = S⁻¹ v = v/√c + U diag(1/(√c + s_j) − 1/√c) Uᵀ v, as apply().
    void applyInverse(const Vector &v, Vector &out, Vector &scratch) const;

    Eigen::Index dimension() const { return m_basis.rows(); }
    /// k, the number of directions kept.
    Eigen::Index rank() const { return m_basis.cols(); }
    /// c, the variance every direction outside U's span is given.
    double plateauVariance() const { return m_rootPlateau * m_rootPlateau; }
    /// Σ̃ as a dense matrix (for tests and reports; d² memory).
    Eigen::MatrixXd covariance() const;

private:
    double m_rootPlateau = 0.0;  // √c
    Eigen::MatrixXd m_basis;     // U, d×k with orthonormal columns
    Eigen::VectorXd m_shrink;    // √(c − θ_j) − √c, all negative
    Eigen::VectorXd m_squareChange;  // (√c + s_j)² − c = −θ_j: S² = c I + U diag(·) Uᵀ
    Eigen::VectorXd m_inverseChange; // 1/(√c + s_j) − 1/√c: S⁻¹ = I/√c + U diag(·) Uᵀ

    // out = a v + U diag(change) Uᵀ v.
    void applyFunction(double a, const Eigen::VectorXd &change, const Vector &v, Vector &out, Vector &scratch) const;
};

} // namespace core
