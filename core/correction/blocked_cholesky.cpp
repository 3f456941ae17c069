#include "core/correction/blocked_cholesky.h"

#include <algorithm>

#include <Eigen/Cholesky>

namespace core {

bool choleskyInPlace(Eigen::MatrixXd &a, const std::function<void(double)> &checkpoint)
{
    const Eigen::Index n = a.rows();
    // Large enough that the rank-k update dominates and runs as a GEMM, small enough that a
    // checkpoint comes every few hundred milliseconds on an 8000-row matrix.
    constexpr Eigen::Index kBlock = 128;
    const double total = static_cast<double>(n) * n * n;
    for (Eigen::Index k = 0; k < n; k += kBlock) {
        const Eigen::Index b = std::min(kBlock, n - k);
        const Eigen::Index rest = n - k - b;
        Eigen::Ref<Eigen::MatrixXd> a11 = a.block(k, k, b, b);
        Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>, Eigen::Lower> diagonal(a11);
        if (diagonal.info() != Eigen::Success)
            return false;
        if (rest > 0) {
            auto a21 = a.block(k + b, k, rest, b);
            a11.triangularView<Eigen::Lower>().adjoint().solveInPlace<Eigen::OnTheRight>(a21);
            a.block(k + b, k + b, rest, rest).selfadjointView<Eigen::Lower>().rankUpdate(a21, -1.0);
        }
        if (checkpoint)
            checkpoint(1.0 - static_cast<double>(rest) * rest * rest / total);
    }
    return true;
}

void choleskySolveInPlace(const Eigen::MatrixXd &factor, Eigen::VectorXd &b)
{
    const auto lower = factor.triangularView<Eigen::Lower>();
    lower.solveInPlace(b);
    lower.adjoint().solveInPlace(b);
}

} // namespace core
