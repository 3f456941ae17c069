#pragma once
/// Convergence diagnostics for one or several chains of one scalar quantity: effective sample
/// size and split R-hat, in the rank-normalised "bulk" form of Vehtari, Gelman, Simpson,
/// Carpenter & Bürkner (2021), with Geyer's initial monotone sequence for the autocorrelation
/// sum. Chains must have equal lengths.
#include <vector>

namespace core {

using ChainDraws = std::vector<std::vector<double>>; ///< one inner vector per chain

/// Autocorrelation ρ_0..ρ_{n−1} of one series (via FFT, O(n log n)); ρ_0 = 1. A constant
/// series gives all zeros beyond lag 0.
std::vector<double> autocorrelation(const std::vector<double> &series);

/// ESS of the draws as they are (no rank normalisation), over split halves of every chain.
/// Throws std::invalid_argument for no chains, unequal lengths or fewer than 4 draws a chain.
double effectiveSampleSize(const ChainDraws &chains);

/// Bulk ESS: ESS of the rank-normalised split chains (robust to heavy tails).
double bulkEffectiveSampleSize(const ChainDraws &chains);

/// Rank-normalised split R-hat: ≈ 1 when all (half-)chains sample the same distribution;
/// above 1.01 signals trouble. Throws like effectiveSampleSize.
double splitRhat(const ChainDraws &chains);

} // namespace core
