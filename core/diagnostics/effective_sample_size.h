#pragma once
/// Convergence diagnostics for one or several chains of one scalar quantity: effective sample
/// sizes and split R-hat as defined by Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021),
/// "Rank-normalization, folding, and localization: an improved R-hat for assessing convergence
/// of MCMC", Bayesian Analysis 16(2), with the estimator choices ArviZ 0.21 makes, so that the
/// figures agree with it:
/// - chains are split into halves (the middle draw of an odd-length chain is dropped);
/// - autocovariances are the n-divided (biased) estimates, computed by FFT;
/// - the autocorrelation sum uses Geyer's initial positive sequence, keeps the first negative
///   pair's even term when it is positive, then forces the pair sums to be non-increasing
///   (the initial monotone sequence);
/// - τ̂ is bounded below by 1/log10(S) for S split draws, so ESS ≤ S·log10(S) for antithetic
///   chains;
/// - rank normalisation maps average ranks r (ties share one) to Φ⁻¹((r − 3/8)/(S + 1/4))
///   (Blom's offsets, Vehtari et al. Eq. 14);
/// - quantiles are Hyndman & Fan's type 7 (linear interpolation between order statistics).
/// Chains must have equal lengths; one chain is fine (its two halves are compared). A NaN draw
/// makes the result NaN.
#include <cstddef>
#include <functional>
#include <vector>

#include "core/diagnostics/rank_normalisation.h" // ChainDraws

namespace core {

/// Autocovariance γ_0..γ_{n−1} of one series with divisor n (the biased estimator, which keeps
/// the sequence positive semi-definite), via FFT in O(n log n).
std::vector<double> autocovariance(const std::vector<double> &series);

/// Autocorrelation ρ_t = γ_t/γ_0 of one series; ρ_0 = 1. A constant series gives all zeros
/// beyond lag 0.
std::vector<double> autocorrelation(const std::vector<double> &series);

/// The integrated autocorrelation time τ̂ = −1 + 2 Σ of the kept pairs that the estimates below
/// read off autocorrelations ρ(1), ρ(2), … (ρ(0) = 1) of split chains `length` draws long:
/// Geyer's initial positive sequence, the first rejected pair's even term when positive, then
/// the initial monotone sequence (Vehtari et al. 2021 Sec. 3.2), before τ̂'s floor. `rhoAt` is
/// asked for increasing lags, each once. NaN when a ρ is. The truncation is made for reversible
/// chains, whose pair sums stay positive: on a chain whose autocorrelations swing negative
/// (SGHMC's momentum at a long step) it leaves the negative swings out and reads τ too long.
double truncatedAutocorrelationTime(const std::function<double(std::ptrdiff_t)> &rhoAt, std::ptrdiff_t length);

/// ESS of the mean: the draws as they are (no rank normalisation), over the split halves of
/// every chain (ArviZ's ess(method="mean")). Constant draws give S, the number of split draws.
/// Throws std::invalid_argument for no chains, unequal lengths or fewer than 4 draws a chain.
double effectiveSampleSize(const ChainDraws &chains);

/// Bulk ESS: ESS of the rank-normalised split chains, ranks taken over all chains together
/// (Vehtari et al. Sec. 4.3; ArviZ's method="bulk"). Throws like effectiveSampleSize.
double bulkEffectiveSampleSize(const ChainDraws &chains);

/// ESS of the quantile at `prob`: ESS of the split indicator I(θ ≤ q̂_prob), q̂ over all
/// chains' draws (Vehtari et al. Sec. 4.3). Throws std::domain_error unless 0 < prob < 1.
double quantileEffectiveSampleSize(const ChainDraws &chains, double prob);

/// Tail ESS: min of the quantile ESS at 5% and at 95% (ArviZ's method="tail").
double tailEffectiveSampleSize(const ChainDraws &chains);

/// Split R-hat of Vehtari et al. (2021), Sec. 4.2: the larger of the rank-normalised split
/// R-hat of the draws (location) and of the folded draws |θ − median θ| (scale), so a chain
/// with a different spread shows as well as one with a different mean. ≈ 1 when all halves
/// sample the same distribution; above 1.01 signals trouble. Throws like effectiveSampleSize.
double splitRhat(const ChainDraws &chains);

/// The bulk ESS and split R-hat of the same draws, which share the ranks of their split halves:
/// equal to bulkEffectiveSampleSize() and splitRhat() (both NaN for a NaN draw), for about two
/// thirds of their work. Throws like effectiveSampleSize.
struct BulkDiagnostics {
    double bulkEss = 0.0;
    double splitRhat = 0.0;
};
BulkDiagnostics bulkEssAndSplitRhat(const ChainDraws &chains);

/// Type-7 quantile at `prob` of all draws of all chains together. Throws std::domain_error
/// unless 0 ≤ prob ≤ 1, std::invalid_argument for no draws.
double pooledQuantile(const ChainDraws &chains, double prob);

} // namespace core
