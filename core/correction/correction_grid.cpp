#include "core/correction/correction_grid.h"

#include <cmath>

#include "core/correction/correction_distribution.h"

namespace core {

namespace {

using ConstMap = Eigen::Map<const Eigen::VectorXd>;

/// Φ is within 1.2e-19 of 0 or 1 beyond this many standard deviations.
constexpr double kNegligibleSds = 9.0;

} // namespace

CorrectionGrid::CorrectionGrid(const CorrectionParams &params)
    : m_n(params.grid), m_step(params.range / params.grid), m_sigma(params.sigma), m_reach(3L * params.grid + 1)
{
    m_kernel.resize(2 * static_cast<std::size_t>(m_reach) + 1);
    for (long t = -m_reach; t <= m_reach; ++t)
        m_kernel[static_cast<std::size_t>(t + m_reach)] = 0.5 * std::erf(t * m_step / (m_sigma * M_SQRT2));
    m_target.resize(static_cast<std::size_t>(rows()));
    for (long i = -2L * m_n; i <= 2L * m_n; ++i)
        m_target[static_cast<std::size_t>(i + 2L * m_n)] = 0.5 * std::tanh(0.5 * i * m_step);
}

bool CorrectionGrid::gramIsToeplitz(int n, double step, double sigma) { return kNegligibleSds * sigma <= (n - 1) * step; }

bool CorrectionGrid::gramIsToeplitz(const CorrectionParams &params)
{
    return gramIsToeplitz(params.grid, params.range / params.grid, params.sigma);
}

Eigen::VectorXd CorrectionGrid::gramFirstColumn() const
{
    const double *f = kernelCentre();
    const Eigen::Index length = rows();
    Eigen::VectorXd column(2 * m_n + 1);
    // G̃[-N][-N+d] = Σ_i f(i + N) f(i + N - d), i = -2N..2N.
    const ConstMap first(f - m_n, length);
    for (long d = 0; d <= 2L * m_n; ++d)
        column(d) = first.dot(ConstMap(f - m_n - d, length));
    return column;
}

Eigen::VectorXd CorrectionGrid::centredRhs() const
{
    const double *f = kernelCentre();
    const Eigen::Index length = rows();
    const ConstMap target(centredTarget(), length);
    Eigen::VectorXd rhs(2 * m_n + 1);
    for (long j = 0; j <= m_n; ++j)
        rhs(m_n + j) = rhs(m_n - j) = ConstMap(f - 2L * m_n - j, length).dot(target);
    return rhs;
}

Eigen::VectorXd CorrectionGrid::centredColumnSums() const
{
    const double *f = kernelCentre();
    const Eigen::Index length = rows();
    Eigen::VectorXd sums(2 * m_n + 1);
    sums(m_n) = 0.0;
    for (long j = 1; j <= m_n; ++j) {
        const double s = ConstMap(f - 2L * m_n - j, length).sum();
        sums(m_n + j) = s;
        sums(m_n - j) = -s;
    }
    return sums;
}

} // namespace core
