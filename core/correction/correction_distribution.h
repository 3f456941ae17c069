#pragma once
/// The correction distribution C_σ of the minibatch Barker test: the law of X_corr such that
/// X_norm + X_corr, X_norm ~ N(0, σ²), has (nearly) the standard logistic CDF S(x) = 1/(1+e^-x).
///
/// Seita et al., "An Efficient Minibatch Acceptance Test for Metropolis-Hastings":
/// Sec. 4 (Eq. 14-15, Table 1) and its appendix (Table 3, Sec. C.1).
///
/// Representation. C_σ is the discrete distribution with masses u_j on the atoms Y_j = j h,
/// h = V/N, j = -N..N, exactly as the paper discretises it. sample() draws those atoms exactly
/// (alias table), so the law of X_norm + X_corr has the CDF
///     F(x) = (Φ_σ * C)(x) = Σ_j u_j Φ((x - Y_j)/σ),
/// and every error figure below is the error of F, i.e. of what the sampler really uses.
/// (Drawing from piecewise-uniform cells instead, by inverse CDF with linear interpolation,
/// would convolve C with a uniform of width h: a different law, whose error the solve does
/// not control. Exact atoms keep the measured error exact and cost one alias lookup.)
#include <cstddef>
#include <functional>
#include <stop_token>
#include <vector>

#include "core/correction/alias_table.h"
#include "core/correction/cancelled.h"
#include "core/random/rng.h"

namespace core {

enum class CorrectionSolver {
    /// The paper's method: ridge regression (Eq. 15), negative masses clipped to 0.
    Ridge,
    /// min ‖M u - v‖₂ subject to u ≥ 0 on the same grid (Lawson-Hanson). About 1e-7 at σ = 1.
    Nnls,
};

/// Solve settings. Defaults are the paper's choice (Seita et al., "Minibatch Acceptance Test",
/// appendix C.1): N = 4000, V = 20, σ = 1, λ = 10.
struct CorrectionParams {
    int grid = 4000;       ///< N: atoms Y_j = j V/N, j = -N..N; solve rows X_i = i V/N, i = -2N..2N
    double range = 20.0;   ///< V: the atoms cover [-V, V], the fitted CDF [-2V, 2V]
    double sigma = 1.0;    ///< standard deviation of X_norm; 0 < σ < sqrt(π²/3) ≈ 1.8138
    /// Ridge weight of Eq. 15, ≥ 0. Used by the ridge solver only: NNLS ignores it (its
    /// conditioning is handled without a penalty, see CorrectionDistribution::solve).
    double lambda = 10.0;
    CorrectionSolver solver = CorrectionSolver::Ridge;

    /// Exact comparison of every field (the cache key).
    bool operator==(const CorrectionParams &) const = default;
};

inline constexpr int kMinCorrectionGrid = 10;
/// The ridge solve holds two (N+1)² double matrices (1.6 GB at this bound) and costs O(N³).
inline constexpr int kMaxCorrectionGrid = 10000;
inline constexpr double kMaxCorrectionRange = 1000.0;
/// sqrt(π²/3), the logistic standard deviation: σ must stay below it (Seita et al., "Minibatch
/// Acceptance Test", appendix C.1).
inline constexpr double kLogisticSd = 1.8137993642342178;

/// Checks the parameters. Throws std::invalid_argument naming the field and its allowed range
/// ("sigma must be in (0, 1.8138); got 2"): grid in [10, 10000], range in (0, 1000],
/// sigma in (0, sqrt(π²/3)), lambda finite and ≥ 0, solver a listed enumerator.
void validate(const CorrectionParams &params);

/// Accuracy figures of a solved table, stored with it in the cache.
struct CorrectionStats {
    /// Σ max(u_j, 0) before renormalisation (1 for an exact solution).
    double rawMass = 1.0;
    /// sup_x |F(x) - S(x)| of the renormalised masses that sample() draws, evaluated on the grid
    /// x = k h/4 over [-2V, 2V] (4x finer than the solve grid; beyond 2V both CDFs are within
    /// e^-2V of 0 or 1).
    double linfError = 0.0;
    /// The paper's convention, which reproduces its Tables 1 and 3: the clipped masses before
    /// renormalisation, evaluated on the solve grid X_i only, i.e. max_i |(M max(u,0))_i - v_i|.
    double solveGridLinfError = 0.0;
    double solveSeconds = 0.0; ///< wall-clock time of the solve that produced the table
    /// False when the NNLS active-set method stopped at its iteration limit before meeting its
    /// KKT tolerance: the table is usable (its linfError is measured all the same) but not the
    /// optimum. Such tables are never cached. Always true for ridge.
    bool solverConverged = true;
};

class CorrectionDistribution {
public:
    /// Solves Eq. 14-15 for `params` (validated first: see validate()).
    ///
    /// Ridge computes the paper's u* = (MᵀM + λI)⁻¹ Mᵀv (Eq. 15) exactly, without forming the
    /// (4N+1)x(2N+1) matrix M: MᵀM is a symmetric positive definite Toeplitz matrix plus rank
    /// two, solved by Levinson-Durbin, Woodbury and iterative refinement in O(N²)
    /// (ridge_solver.h); when V < 9σ + h, where the Toeplitz structure breaks, by a dense
    /// mirror-symmetric split and two Cholesky factorisations in O(N³). Negative masses are
    /// then clipped and the rest renormalised to 1, because the draws come from a
    /// probability table, which cannot hold negative masses.
    ///
    /// Nnls minimises ‖M u - v‖₂ over u ≥ 0 restricted to mirror-symmetric u (u_j = u_-j),
    /// by Lawson-Hanson on the folded normal equations (nnls_solver.h). The restriction
    /// halves the problem; the unrestricted optimum can differ from it only through the total
    /// mass's deviation from 1 (~1e-9). λ is ignored; numerically dependent columns are
    /// skipped by a pivot test instead of adding a Tikhonov term. The solution is sparse
    /// (about 50 atoms at σ = 1).
    ///
    /// Measured at N = 4000, V = 20, σ = 1 on one core of a 2.5 GHz Xeon: ridge about 0.5 s,
    /// NNLS about 0.3 s, each including the two error measurements (N = 10000: 3.5 s and
    /// 2.6 s). Memory: O(N) for ridge, 8 (N+1)² bytes for NNLS (128 MB at N = 4000).
    ///
    /// `progress(fraction in [0, 1])` is called from the calling thread. If `stop` is
    /// requested, throws core::Cancelled (from solve() or from within progress calls).
    /// Throws std::invalid_argument for bad params, std::runtime_error if the ridge system is
    /// not positive definite in double precision (λ = 0, or below about 1e-9 at the
    /// default grid).
    static CorrectionDistribution solve(const CorrectionParams &params, std::function<void(double)> progress = {},
                                        std::stop_token stop = {});

    /// Rebuilds a table from stored masses and stats (used by the cache), bit for bit: the
    /// masses are used as given. Throws std::invalid_argument unless params are valid and
    /// `masses` has 2N+1 finite non-negative entries summing to 1 within 1e-9.
    static CorrectionDistribution fromMasses(const CorrectionParams &params, std::vector<double> masses,
                                             const CorrectionStats &stats);

    const CorrectionParams &params() const { return m_params; }
    /// Y_j = j V/N, j = -N..N (2N+1 values), ascending.
    const std::vector<double> &support() const { return m_support; }
    /// Probability of each atom of support(): ≥ 0, sums to 1. Density for plots: masses()/spacing().
    const std::vector<double> &masses() const { return m_masses; }
    /// h = V/N, the atom spacing.
    double spacing() const { return m_params.range / m_params.grid; }
    const CorrectionStats &stats() const { return m_stats; }
    double rawMass() const { return m_stats.rawMass; }
    double linfError() const { return m_stats.linfError; }
    double solveGridLinfError() const { return m_stats.solveGridLinfError; }
    double solveSeconds() const { return m_stats.solveSeconds; }
    bool solverConverged() const { return m_stats.solverConverged; }
    double mean() const { return m_mean; }
    /// Variance of C; the exact correction has π²/3 - σ² (the ridge's clipping adds a few %).
    double variance() const { return m_variance; }
    /// Number of atoms with positive mass (tens for NNLS, thousands for ridge).
    std::size_t positiveAtoms() const { return m_atomValues.size(); }

    /// F(x) = (Φ_σ * C)(x), the CDF of X_norm + X_corr. O(σ/h) per call.
    double convolvedCdf(double x) const;
    /// F(x) - S(x). Its sup over x is linfError().
    double cdfError(double x) const;

    /// One X_corr draw: an atom Y_j with probability masses()[j]. O(1) (alias table), no allocation.
    double sample(Rng &rng) const { return m_atomValues[m_alias.draw(rng)]; }

private:
    CorrectionDistribution(const CorrectionParams &params, std::vector<double> masses, const CorrectionStats &stats);

    CorrectionParams m_params;
    CorrectionStats m_stats;
    std::vector<double> m_support;
    std::vector<double> m_masses;
    std::vector<double> m_cumulative; ///< m_cumulative[j] = Σ_{k<j} masses[k]
    std::vector<double> m_atomValues; ///< support values of the positive atoms, alias order
    AliasTable m_alias;
    double m_mean = 0.0;
    double m_variance = 0.0;
};

/// max_k |F(x_k) - S(x_k)| for the atoms `masses` (2N+1 of them, any total) on the grid
/// x_k = k h / refinement, |x_k| ≤ 2V. refinement = 1 is the solve grid, 4 what linfError()
/// uses. O(N · refinement · σ/h) via running sums plus a band of ±9σ (Φ(-9) ≈ 1e-19).
/// Throws std::invalid_argument on a size mismatch or refinement < 1.
double correctionGridLinfError(const CorrectionParams &params, const std::vector<double> &masses, int refinement);

} // namespace core
