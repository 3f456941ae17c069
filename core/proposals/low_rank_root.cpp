#include "core/proposals/low_rank_root.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>

#include "core/random/rng.h"

namespace core {

namespace {

// Orthonormal columns spanning Y's (Householder QR's thin Q).
Eigen::MatrixXd orthonormalBasis(const Eigen::MatrixXd &y)
{
    const Eigen::HouseholderQR<Eigen::MatrixXd> qr(y);
    return qr.householderQ() * Eigen::MatrixXd::Identity(y.rows(), y.cols());
}

// (c I − L Lᵀ) X with two triangular products.
Eigen::MatrixXd deficit(const Eigen::MatrixXd &lower, double plateau, const Eigen::MatrixXd &x)
{
    const Eigen::MatrixXd lt = lower.triangularView<Eigen::Lower>().transpose() * x;
    Eigen::MatrixXd out = plateau * x;
    out.noalias() -= lower.triangularView<Eigen::Lower>() * lt;
    return out;
}

// λ_max(L Lᵀ) by power iteration, at least the largest diagonal entry. On a covariance that is
// c I but for some directions of smaller variance, components outside the plateau shrink by
// (1 − tolerance) or more per product, so 40 products leave them at 13 % of their size at most.
double largestEigenvalue(const Eigen::MatrixXd &lower, Rng &rng)
{
    const Eigen::Index d = lower.rows();
    Vector v(d);
    for (Eigen::Index i = 0; i < d; ++i)
        v[i] = rng.normal();
    v.normalize();
    double rayleigh = 0.0;
    for (int product = 0; product < 40; ++product) {
        Vector w = lower.triangularView<Eigen::Lower>().transpose() * v;
        rayleigh = w.squaredNorm();
        w = lower.triangularView<Eigen::Lower>() * w;
        const double norm = w.norm();
        if (!(norm > 0.0) || !std::isfinite(norm))
            return norm;
        v = w / norm;
    }
    return std::max(rayleigh, lower.rowwise().squaredNorm().maxCoeff());
}

// Directions kept in the block: eigenvalues of c I − Σ above tolerance·c.
constexpr Eigen::Index kOversampling = 16;
// Subspace iterations: the deficit's spectrum decays slowly near the tolerance, where two
// passes bring the Ritz values of the kept directions close to their eigenvalues.
constexpr int kPowerIterations = 2;

} // namespace

std::optional<LowRankRoot> LowRankRoot::compress(const Eigen::MatrixXd &lowerFactor, double tolerance,
                                                 Eigen::Index maxRank)
{
    const Eigen::Index d = lowerFactor.rows();
    if (d < 64 || lowerFactor.cols() != d || !(tolerance > 0.0 && tolerance < 1.0))
        return std::nullopt;
    if (maxRank <= 0)
        maxRank = d / 4;
    maxRank = std::min(maxRank, d - kOversampling);
    const Eigen::MatrixXd lower = lowerFactor.triangularView<Eigen::Lower>();
    Rng rng(0x10ADC0DE);
    const double plateau = largestEigenvalue(lower, rng);
    if (!(plateau > 0.0) || !std::isfinite(plateau))
        return std::nullopt;

    for (Eigen::Index block = std::min<Eigen::Index>(64, maxRank + kOversampling);;
         block = std::min(2 * block, maxRank + kOversampling)) {
        Eigen::MatrixXd probe(d, block);
        for (Eigen::Index j = 0; j < block; ++j)
            for (Eigen::Index i = 0; i < d; ++i)
                probe(i, j) = rng.normal();
        Eigen::MatrixXd basis = orthonormalBasis(deficit(lower, plateau, probe));
        for (int pass = 0; pass < kPowerIterations; ++pass)
            basis = orthonormalBasis(deficit(lower, plateau, basis));
        Eigen::MatrixXd projected = basis.transpose() * deficit(lower, plateau, basis);
        projected = 0.5 * (projected + projected.transpose()).eval();
        const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(projected);
        const Eigen::VectorXd &ritz = eigen.eigenvalues(); // ascending
        // c is Σ's largest eigenvalue only to the power iteration's accuracy: a direction whose
        // variance exceeds it by more than the tolerance would be squeezed, so it declines.
        if (ritz[0] < -tolerance * plateau)
            return std::nullopt;
        Eigen::Index kept = 0;
        while (kept < block && ritz[block - 1 - kept] > tolerance * plateau)
            ++kept;
        if (kept + kOversampling <= block || block >= maxRank + kOversampling) {
            if (kept > maxRank)
                return std::nullopt; // more directions than a low rank: the dense factor is cheaper
            LowRankRoot root;
            root.m_rootPlateau = std::sqrt(plateau);
            root.m_basis = basis * eigen.eigenvectors().rightCols(kept);
            root.m_shrink.resize(kept);
            for (Eigen::Index j = 0; j < kept; ++j) {
                const double remaining = plateau - ritz[block - kept + j];
                if (!(remaining > 1e-12 * plateau))
                    return std::nullopt; // Σ̃ would be singular
                root.m_shrink[j] = std::sqrt(remaining) - root.m_rootPlateau;
            }
            root.m_squareChange = (root.m_rootPlateau + root.m_shrink.array()).square() - plateau;
            root.m_inverseChange = 1.0 / (root.m_rootPlateau + root.m_shrink.array()) - 1.0 / root.m_rootPlateau;
            return root;
        }
    }
}

void LowRankRoot::apply(const Vector &v, Vector &out, Vector &scratch) const
{
    applyFunction(m_rootPlateau, m_shrink, v, out, scratch);
}

void LowRankRoot::applyFunction(double a, const Eigen::VectorXd &change, const Vector &v, Vector &out,
                                Vector &scratch) const
{
    scratch.resize(rank());
    scratch.noalias() = m_basis.transpose() * v;
    scratch.array() *= change.array();
    out = a * v;
    out.noalias() += m_basis * scratch;
}

void LowRankRoot::applySquare(const Vector &v, Vector &out, Vector &scratch) const
{
    applyFunction(plateauVariance(), m_squareChange, v, out, scratch);
}

void LowRankRoot::applyInverse(const Vector &v, Vector &out, Vector &scratch) const
{
    applyFunction(1.0 / m_rootPlateau, m_inverseChange, v, out, scratch);
}

Eigen::MatrixXd LowRankRoot::covariance() const
{
    // S² = c I + U diag((√c + s_j)² − c) Uᵀ.
    const double c = plateauVariance();
    const Eigen::VectorXd change = (m_rootPlateau + m_shrink.array()).square() - c;
    Eigen::MatrixXd sigma = m_basis * change.asDiagonal() * m_basis.transpose();
    sigma.diagonal().array() += c;
    return sigma;
}

} // namespace core
