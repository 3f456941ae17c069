#include "core/correction/folded_normal_equations.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "core/correction/correction_distribution.h"
#include "core/correction/correction_grid.h"

namespace core {

namespace {

using ConstMap = Eigen::Map<const Eigen::VectorXd>;

/// Streams the rows p = 0..N of G = M̃ᵀM̃ (each as k = -N..N) to `sink(p, row + N)`.
template <typename Sink>
void forEachGramRow(const CorrectionGrid &grid, const std::function<void(double)> &checkpoint, Sink &&sink)
{
    const int n = grid.atomsPerSide();
    const std::size_t width = 2 * static_cast<std::size_t>(n) + 1;
    std::vector<double> row(width), next(width);
    if (grid.gramIsToeplitz()) {
        const Eigen::VectorXd g = grid.gramFirstColumn();
        for (int p = 0; p <= n; ++p) {
            for (int k = -n; k <= n; ++k)
                row[static_cast<std::size_t>(k + n)] = g(std::abs(k - p));
            sink(p, row.data() + n);
            if (checkpoint && p % 256 == 255)
                checkpoint(static_cast<double>(p) / n);
        }
        return;
    }
    const double *f = grid.kernelCentre();
    const Eigen::Index rows = grid.rows();
    // Row 0 is even in k (J G J = G); column -N gives each next row its first entry.
    std::vector<double> firstColumn(static_cast<std::size_t>(n) + 1);
    for (int k = 0; k <= n; ++k)
        row[static_cast<std::size_t>(n + k)] = row[static_cast<std::size_t>(n - k)] =
            ConstMap(f - 2 * n, rows).dot(ConstMap(f - 2 * n - k, rows));
    for (int j = 0; j <= n; ++j)
        firstColumn[static_cast<std::size_t>(j)] = ConstMap(f - 2 * n - j, rows).dot(ConstMap(f - n, rows));
    if (checkpoint)
        checkpoint(0.3);
    // The recurrence's k-dependent factors, laid out contiguously so the row update vectorises.
    std::vector<double> lowEnd(width - 1), highEnd(width - 1);
    for (int k = -n; k < n; ++k) {
        lowEnd[static_cast<std::size_t>(k + n)] = f[-2 * n - 1 - k];
        highEnd[static_cast<std::size_t>(k + n)] = f[2 * n - k];
    }
    for (int p = 0; p <= n; ++p) {
        sink(p, row.data() + n);
        if (p == n)
            break;
        const double a = f[-2 * n - 1 - p];
        const double b = f[2 * n - p];
        for (std::size_t k = 0; k + 1 < width; ++k)
            next[k + 1] = row[k] + a * lowEnd[k] - b * highEnd[k];
        next[0] = firstColumn[static_cast<std::size_t>(p) + 1];
        row.swap(next);
        if (checkpoint && p % 64 == 63)
            checkpoint(0.3 + 0.7 * p / n);
    }
}

} // namespace

FoldedNormalEquations buildFoldedNormalEquations(const CorrectionParams &params, bool withAntisymmetric,
                                                 bool fullSymmetric, const std::function<void(double)> &checkpoint)
{
    const CorrectionGrid grid(params);
    const int n = grid.atomsPerSide();
    FoldedNormalEquations eq;
    eq.grid = n;
    eq.rows = static_cast<double>(grid.rows());
    eq.weights = Eigen::VectorXd::Constant(n + 1, 2.0);
    eq.weights(0) = 1.0;
    eq.symmetricGram.resize(n + 1, n + 1);

    // M̃ᵀṽ is even in j and M̃ᵀ1 odd: fold them with S and T.
    const Eigen::VectorXd rhs = grid.centredRhs();
    eq.symmetricRhs = 2.0 * rhs.tail(n + 1);
    eq.symmetricRhs(0) = rhs(n);
    if (withAntisymmetric) {
        eq.antisymmetricGram.resize(n, n);
        eq.antisymmetricOnes = 2.0 * grid.centredColumnSums().tail(n);
    }

    forEachGramRow(grid, checkpoint, [&](int p, const double *r) {
        // r[k] = G[p][k]. Sᵀ G S and Tᵀ G T use J G J = G: G[-p][±q] = G[p][∓q].
        const double rowScale = p == 0 ? 1.0 : 2.0;
        double *symColumn = eq.symmetricGram.col(p).data();
        symColumn[p] = rowScale * (p == 0 ? r[0] : r[p] + r[-p]);
        for (int q = std::max(p, 1); q <= n; ++q)
            symColumn[q] = rowScale * (r[q] + r[-q]);
        if (fullSymmetric)
            for (int q = p + 1; q <= n; ++q)
                eq.symmetricGram(p, q) = symColumn[q];
        if (withAntisymmetric && p > 0) {
            double *antiColumn = eq.antisymmetricGram.col(p - 1).data();
            for (int q = p; q <= n; ++q)
                antiColumn[q - 1] = 2.0 * (r[q] - r[-q]);
        }
    });
    if (checkpoint)
        checkpoint(1.0);
    return eq;
}

std::vector<double> unfoldMasses(const Eigen::VectorXd &a, const Eigen::VectorXd &b, int grid)
{
    std::vector<double> u(2 * static_cast<std::size_t>(grid) + 1);
    for (int j = -grid; j <= grid; ++j) {
        const int q = std::abs(j);
        const double odd = (q == 0 || b.size() == 0) ? 0.0 : (j > 0 ? b(q - 1) : -b(q - 1));
        u[static_cast<std::size_t>(j + grid)] = a(q) + odd;
    }
    return u;
}

} // namespace core
