#include "core/correction/ridge_solver.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>

#include <Eigen/Dense>

#include "core/correction/blocked_cholesky.h"
#include "core/correction/cancelled.h"
#include "core/correction/correction_distribution.h"
#include "core/correction/correction_grid.h"
#include "core/correction/folded_normal_equations.h"

namespace core {

namespace {

[[noreturn]] void notPositiveDefinite(double lambda)
{
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.17g", lambda);
    throw std::runtime_error(std::string("ridge correction solve: MᵀM + λI is not positive definite in double "
                                         "precision (lambda ") + buffer + " too small); use a larger lambda or nnls");
}

/// Levinson-Durbin (Golub & Van Loan, Alg. 4.7.2) for T X = B, T symmetric positive definite
/// Toeplitz with first column t; all right-hand sides share the Durbin recursion. B is
/// overwritten with X. Returns false if T is not numerically positive definite.
bool levinsonSolve(const Eigen::VectorXd &t, Eigen::MatrixXd &b, const std::function<void(double)> &checkpoint)
{
    const Eigen::Index n = t.size();
    const double t0 = t(0);
    if (!(t0 > 0.0))
        return false;
    const Eigen::VectorXd r = t / t0;
    b /= t0;
    Eigen::MatrixXd x = Eigen::MatrixXd::Zero(n, b.cols());
    x.row(0) = b.row(0);
    Eigen::VectorXd y = Eigen::VectorXd::Zero(n), yReversed(n);
    double alpha = n > 1 ? -r(1) : 0.0, beta = 1.0;
    if (n > 1)
        y(0) = alpha;
    for (Eigen::Index k = 1; k < n; ++k) {
        beta *= (1.0 - alpha) * (1.0 + alpha);
        if (!(beta > 0.0))
            return false;
        yReversed.head(k) = y.head(k).reverse();
        const auto rHead = r.segment(1, k);
        for (Eigen::Index c = 0; c < b.cols(); ++c) {
            const double mu = (b(k, c) - rHead.dot(x.col(c).head(k).reverse())) / beta;
            x.col(c).head(k) += mu * yReversed.head(k);
            x(k, c) = mu;
        }
        if (k + 1 < n) {
            alpha = (-r(k + 1) - rHead.dot(yReversed.head(k))) / beta;
            y.head(k) += alpha * yReversed.head(k);
            y(k) = alpha;
        }
        if (checkpoint && k % 512 == 0)
            checkpoint(static_cast<double>(k) * k / (static_cast<double>(n) * n));
    }
    b = std::move(x);
    return true;
}

/// y = T u for the symmetric Toeplitz T with first column t, in O(n²) vectorised dots.
Eigen::VectorXd toeplitzProduct(const Eigen::VectorXd &t, const Eigen::VectorXd &u)
{
    const Eigen::Index n = t.size();
    Eigen::VectorXd y(n);
    for (Eigen::Index j = 0; j < n; ++j)
        y(j) = t.segment(1, j).dot(u.head(j).reverse()) + t.head(n - j).dot(u.tail(n - j));
    return y;
}

std::vector<double> solveToeplitz(const CorrectionParams &params, const std::function<void(double)> &report)
{
    const auto checkpoint = [&](double from, double to) {
        return std::function<void(double)>([&report, from, to](double f) {
            if (report)
                report(from + (to - from) * f);
        });
    };
    const CorrectionGrid grid(params);
    const double rows = static_cast<double>(grid.rows());
    // A = G̃ + λI is SPD Toeplitz; MᵀM + λI = A + U C Uᵀ with U = [1, c̃], C = [[n/4, ½], [½, 0]].
    Eigen::VectorXd a = grid.gramFirstColumn();
    a(0) += params.lambda;
    if (report)
        report(0.15);
    const Eigen::VectorXd centredSums = grid.centredColumnSums();
    const Eigen::Index size = a.size();
    // Mᵀv = M̃ᵀṽ + ½ c̃ + (n/4) 1, since 1ᵀṽ = 0.
    const Eigen::VectorXd rhs =
        grid.centredRhs() + 0.5 * centredSums + Eigen::VectorXd::Constant(size, 0.25 * rows);
    if (report)
        report(0.3);

    Eigen::MatrixXd basis(size, 3);
    basis << rhs, Eigen::VectorXd::Ones(size), centredSums;
    if (!levinsonSolve(a, basis, checkpoint(0.3, 0.7)))
        notPositiveDefinite(params.lambda);
    const Eigen::MatrixXd ainvU = basis.rightCols(2);
    const Eigen::MatrixXd uT = (Eigen::MatrixXd(size, 2) << Eigen::VectorXd::Ones(size), centredSums).finished();
    Eigen::Matrix2d capacitance;
    capacitance << 0.0, 2.0, 2.0, -rows; // C⁻¹
    capacitance += uT.transpose() * ainvU;
    const Eigen::PartialPivLU<Eigen::Matrix2d> capacitanceLu(capacitance);
    const auto woodbury = [&](const Eigen::VectorXd &ainvB) -> Eigen::VectorXd {
        return ainvB - ainvU * capacitanceLu.solve(uT.transpose() * ainvB);
    };
    const auto product = [&](const Eigen::VectorXd &u) -> Eigen::VectorXd {
        const double total = u.sum(), moment = centredSums.dot(u);
        Eigen::VectorXd y = toeplitzProduct(a, u);
        y.array() += 0.25 * rows * total + 0.5 * moment;
        y += 0.5 * total * centredSums;
        return y;
    };

    Eigen::VectorXd u = woodbury(basis.col(0));
    // Levinson is only weakly stable (Cybenko 1980); refinement against the exact product
    // brings the normal-equation residual down to rounding level even for λ = 0.001.
    const double rhsScale = rhs.cwiseAbs().maxCoeff();
    double residualNorm = HUGE_VAL;
    for (int step = 0; step < 4; ++step) {
        Eigen::MatrixXd residual = rhs - product(u);
        const double norm = residual.cwiseAbs().maxCoeff();
        if (!(norm < 0.5 * residualNorm) || norm <= 1e-15 * rhsScale)
            break;
        residualNorm = norm;
        if (!levinsonSolve(a, residual, checkpoint(0.7 + 0.1 * step, 0.8 + 0.1 * step)))
            notPositiveDefinite(params.lambda);
        u += woodbury(residual.col(0));
    }
    std::vector<double> masses(static_cast<std::size_t>(size));
    Eigen::VectorXd::Map(masses.data(), size) = u;
    return masses;
}

std::vector<double> solveDense(const CorrectionParams &params, const std::function<void(double)> &report,
                               const std::stop_token &stop)
{
    FoldedNormalEquations eq = buildFoldedNormalEquations(params, true, false, [&](double f) {
        if (report)
            report(0.1 * f);
    });
    const double lambda = params.lambda;
    Eigen::MatrixXd &hs = eq.symmetricGram;
    Eigen::MatrixXd &ha = eq.antisymmetricGram;
    // ‖u‖² = Σ w_q a_q² + 2 Σ b_q², so the ridge term weights the halves by w and 2.
    hs.diagonal() += lambda * eq.weights;
    ha.diagonal().array() += 2.0 * lambda;

    // The halves are independent: factor the smaller one on a second thread.
    std::atomic<bool> abandon{false};
    bool antisymmetricOk = true;
    std::exception_ptr workerError;
    std::thread worker([&] {
        try {
            antisymmetricOk = choleskyInPlace(ha, [&](double) {
                if (abandon.load() || stop.stop_requested())
                    throw Cancelled("correction solve cancelled");
            });
        } catch (...) {
            workerError = std::current_exception();
        }
    });
    bool symmetricOk = false;
    try {
        symmetricOk = choleskyInPlace(hs, [&](double f) {
            if (report)
                report(0.1 + 0.8 * f);
        });
    } catch (...) {
        abandon = true;
        worker.join();
        throw;
    }
    worker.join();
    if (workerError)
        std::rethrow_exception(workerError);
    if (!symmetricOk || !antisymmetricOk)
        notPositiveDefinite(lambda);

    // Minimising over b first leaves a γ (wᵀa - 1)² term on the symmetric half (see
    // folded_normal_equations.h); Sherman-Morrison adds that rank-one term to H_s.
    Eigen::VectorXd hae = eq.antisymmetricOnes;
    choleskySolveInPlace(ha, hae);
    const double gamma = 0.25 * (eq.rows - eq.antisymmetricOnes.dot(hae));
    Eigen::VectorXd y = eq.symmetricRhs + gamma * eq.weights;
    Eigen::VectorXd hw = eq.weights;
    choleskySolveInPlace(hs, y);
    choleskySolveInPlace(hs, hw);
    const Eigen::VectorXd a = y - hw * (gamma * eq.weights.dot(y) / (1.0 + gamma * eq.weights.dot(hw)));
    const double massExcess = eq.weights.dot(a) - 1.0;
    return unfoldMasses(a, -0.5 * massExcess * hae, params.grid);
}

} // namespace

std::vector<double> solveRidgeMasses(const CorrectionParams &params, const std::function<void(double)> &checkpoint,
                                     std::stop_token stop, RidgeMethod method)
{
    validate(params);
    const bool toeplitz = CorrectionGrid::gramIsToeplitz(params);
    if (method == RidgeMethod::Toeplitz && !toeplitz)
        throw std::invalid_argument("RidgeMethod::Toeplitz needs range >= 9 sigma + range/grid");
    if (method == RidgeMethod::DenseCholesky || !toeplitz)
        return solveDense(params, checkpoint, stop);
    return solveToeplitz(params, checkpoint);
}

} // namespace core
