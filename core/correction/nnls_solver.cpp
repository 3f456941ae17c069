#include "core/correction/nnls_solver.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include <Eigen/Core>

namespace core {

namespace {

/// Cholesky factor L of Q restricted to the passive set, in the order variables entered.
class PassiveFactor {
public:
    explicit PassiveFactor(const Eigen::MatrixXd &q) : m_q(q) {}

    const std::vector<Eigen::Index> &indices() const { return m_indices; }
    Eigen::Index size() const { return static_cast<Eigen::Index>(m_indices.size()); }

    /// Adds variable j unless its pivot shows it is numerically dependent on the others.
    bool append(Eigen::Index j, double dependentPivot)
    {
        const Eigen::Index m = size();
        if (m_l.rows() <= m) {
            Eigen::MatrixXd grown = Eigen::MatrixXd::Zero(std::max<Eigen::Index>(16, 2 * m), std::max<Eigen::Index>(16, 2 * m));
            grown.topLeftCorner(m, m) = m_l.topLeftCorner(m, m);
            m_l.swap(grown);
        }
        Eigen::VectorXd l(m);
        for (Eigen::Index r = 0; r < m; ++r)
            l(r) = m_q(m_indices[static_cast<std::size_t>(r)], j);
        if (m > 0)
            m_l.topLeftCorner(m, m).triangularView<Eigen::Lower>().solveInPlace(l);
        const double pivot = m_q(j, j) - l.squaredNorm();
        if (!(pivot > dependentPivot * m_q(j, j)))
            return false;
        m_l.row(m).head(m) = l.transpose();
        m_l(m, m) = std::sqrt(pivot);
        m_indices.push_back(j);
        return true;
    }

    /// Removes the variable at `position`: delete its row of L and restore the triangle with
    /// Givens rotations on adjacent column pairs, O((m - position)²).
    void remove(Eigen::Index position)
    {
        const Eigen::Index m = size();
        for (Eigen::Index r = position; r + 1 < m; ++r)
            m_l.row(r).head(r + 2) = m_l.row(r + 1).head(r + 2);
        for (Eigen::Index c = position; c + 1 < m; ++c) {
            const double x = m_l(c, c), y = m_l(c, c + 1);
            const double radius = std::hypot(x, y);
            const double cs = x / radius, sn = y / radius;
            for (Eigen::Index r = c; r + 1 < m; ++r) {
                const double a = m_l(r, c), b = m_l(r, c + 1);
                m_l(r, c) = cs * a + sn * b;
                m_l(r, c + 1) = -sn * a + cs * b;
            }
            m_l(c, c + 1) = 0.0;
        }
        m_indices.erase(m_indices.begin() + position);
    }

    /// Solves Q_PP z = rhs_P.
    Eigen::VectorXd solve(const Eigen::VectorXd &rhs) const
    {
        const Eigen::Index m = size();
        Eigen::VectorXd z(m);
        for (Eigen::Index r = 0; r < m; ++r)
            z(r) = rhs(m_indices[static_cast<std::size_t>(r)]);
        const auto lower = m_l.topLeftCorner(m, m).triangularView<Eigen::Lower>();
        lower.solveInPlace(z);
        lower.adjoint().solveInPlace(z);
        return z;
    }

private:
    const Eigen::MatrixXd &m_q;
    Eigen::MatrixXd m_l;
    std::vector<Eigen::Index> m_indices;
};

/// The free variable (neither passive nor blocked) with the steepest slope above `tolerance`,
/// or -1 where none is: the active-set method's entering variable.
Eigen::Index steepestFreeVariable(const Eigen::VectorXd &slope, const std::vector<char> &passive,
                                  const std::vector<char> &blocked, double tolerance)
{
    Eigen::Index entering = -1;
    double best = tolerance;
    for (Eigen::Index j = 0; j < slope.size(); ++j)
        if (!passive[static_cast<std::size_t>(j)] && !blocked[static_cast<std::size_t>(j)] && slope(j) > best) {
            best = slope(j);
            entering = j;
        }
    return entering;
}

/// Steps the passive variables from x towards the unconstrained solution z until the first of
/// them hits zero, and moves every variable at zero back out of the passive set.
void stepTowardsUntilOneHitsZero(Eigen::VectorXd &x, const Eigen::VectorXd &z, PassiveFactor &factor,
                                 std::vector<char> &passive)
{
    const Eigen::Index m = factor.size();
    double alpha = HUGE_VAL;
    Eigen::Index limiting = -1;
    for (Eigen::Index r = 0; r < m; ++r) {
        if (z(r) > 0.0)
            continue;
        const double xr = x(factor.indices()[static_cast<std::size_t>(r)]);
        const double ratio = xr / (xr - z(r));
        if (ratio < alpha) { // a 0/0 ratio (x = z = 0) is NaN and never limits
            alpha = ratio;
            limiting = r;
        }
    }
    alpha = std::min(alpha, 1.0);
    for (Eigen::Index r = 0; r < m; ++r) {
        double &xr = x(factor.indices()[static_cast<std::size_t>(r)]);
        xr += alpha * (z(r) - xr);
    }
    for (Eigen::Index r = m - 1; r >= 0; --r) {
        const Eigen::Index j = factor.indices()[static_cast<std::size_t>(r)];
        if (r == limiting || x(j) <= 0.0) {
            x(j) = 0.0;
            passive[static_cast<std::size_t>(j)] = 0;
            factor.remove(r);
        }
    }
}

} // namespace

NnlsResult solveNnls(const Eigen::MatrixXd &q, const Eigen::VectorXd &p, const NnlsOptions &options,
                     const std::function<void(double)> &checkpoint)
{
    const Eigen::Index n = p.size();
    if (q.rows() != n || q.cols() != n)
        throw std::invalid_argument("solveNnls: Q must be square with the size of p");

    NnlsResult result;
    result.x = Eigen::VectorXd::Zero(n);
    if (n == 0) {
        result.converged = true;
        return result;
    }
    const double tolerance = options.tolerance * p.cwiseAbs().maxCoeff();
    const int maxIterations = options.maxIterations > 0 ? options.maxIterations : static_cast<int>(3 * n);

    PassiveFactor factor(q);
    std::vector<char> passive(static_cast<std::size_t>(n), 0), blocked(static_cast<std::size_t>(n), 0);
    Eigen::VectorXd &x = result.x;
    Eigen::VectorXd slope(n);

    for (result.iterations = 0; result.iterations < maxIterations; ++result.iterations) {
        if (checkpoint && result.iterations % 8 == 0)
            checkpoint(static_cast<double>(result.iterations) / maxIterations);
        // Recomputed, not updated, so rounding does not accumulate over hundreds of steps.
        const auto &set = factor.indices();
        slope = p;
        for (const Eigen::Index j : set)
            slope.noalias() -= q.col(j) * x(j);

        const Eigen::Index entering = steepestFreeVariable(slope, passive, blocked, tolerance);
        if (entering < 0) {
            result.converged = true;
            break;
        }
        if (!factor.append(entering, options.dependentPivot)) {
            blocked[static_cast<std::size_t>(entering)] = 1;
            continue;
        }
        passive[static_cast<std::size_t>(entering)] = 1;

        for (bool first = true;; first = false) {
            const Eigen::VectorXd z = factor.solve(p);
            const Eigen::Index m = factor.size();
            if (first && z(m - 1) <= 0.0) {
                // Exact arithmetic guarantees the entering variable a positive value; if
                // rounding says otherwise, its slope was noise.
                factor.remove(m - 1);
                passive[static_cast<std::size_t>(entering)] = 0;
                blocked[static_cast<std::size_t>(entering)] = 1;
                break;
            }
            if ((z.array() > 0.0).all()) {
                for (Eigen::Index r = 0; r < m; ++r)
                    x(factor.indices()[static_cast<std::size_t>(r)]) = z(r);
                break;
            }
            stepTowardsUntilOneHitsZero(x, z, factor, passive);
            std::fill(blocked.begin(), blocked.end(), 0);
            if (factor.size() == 0)
                break;
        }
    }

    result.passiveSize = static_cast<int>((x.array() > 0.0).count());
    slope = p - q * x;
    result.maxSlope = 0.0;
    for (Eigen::Index j = 0; j < n; ++j)
        if (x(j) <= 0.0)
            result.maxSlope = std::max(result.maxSlope, slope(j));
    return result;
}

} // namespace core
