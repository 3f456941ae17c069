#pragma once
/// Convergence diagnostics of finished (or stopped) chains in the shape reports show them: bulk
/// ESS per θ component and the worst split R-hat over components. Thin wrappers over
/// effective_sample_size.h that handle short, unequal and retuned chains instead of throwing.
///
/// A chain whose temperature or step changed during the run (see LiveTuning) targets a
/// different distribution in each segment, so these use the final segment only.
///
/// Each component is a sort, a normal quantile per rank and an FFT (about 3 ms for 30,000
/// draws); with many components (784 classifier weights) they are shared out over the
/// machine's cores. The results do not depend on how many cores there are.
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/chain/chain_runner.h"
#include "core/diagnostics/effective_sample_size.h"

namespace core {

/// Fewest draws per chain the rank-normalised diagnostics accept.
inline constexpr std::int64_t kMinDiagnosticDraws = 4;

/// Bulk ESS of a sampler's draws of one quantity (bulkEffectiveSampleSize), except that draws
/// that never changed count 0. The estimator's convention (shared with ArviZ) gives constant
/// draws full weight, which is right for a constant target; but every target here has spread,
/// so constant draws mean a chain that never moved (every proposal rejected), and it has
/// learned nothing about the posterior: an ESS per second of 0, not of draws per second.
double samplerBulkEss(const ChainDraws &draws);

/// samplerBulkEss of each θ component over the final segment's completed rows; empty when it
/// has fewer than kMinDiagnosticDraws rows.
std::vector<double> bulkEssPerComponent(const ChainResult &chain);
/// The same for the given θ components only (indices must be valid columns).
std::vector<double> bulkEssPerComponent(const ChainResult &chain, const std::vector<int> &components);

/// bulkEssPerComponent(chain) and maxSplitRhat({&chain}) in one pass over the components, each
/// component's draws ranked once for both (bulkEssAndSplitRhat): what a chain's report needs.
/// Both empty or NaN as theirs would be.
struct ChainDiagnostics {
    std::vector<double> bulkEss;
    double maxSplitRhat = 0.0;
};
ChainDiagnostics finalSegmentDiagnostics(const ChainResult &chain);

/// Each θ component's mean and sd over a chain's final segment: what a posterior is compared
/// by against a reference's (the compare table's distance from the full-data test).
struct ComponentMoments {
    std::vector<double> mean, sd;
    std::int64_t rows = 0; ///< rows they are over; 0 (and both empty) below kMinDiagnosticDraws
};
ComponentMoments finalSegmentMoments(const ChainResult &chain);

/// samplerBulkEss of each θ component over several chains together, each chain's last `rows`
/// completed rows (at most its final segment's; the caller checks).
std::vector<double> pooledBulkEssPerComponent(const std::vector<const ChainResult *> &chains, std::int64_t rows);
/// pooledBulkEssPerComponent and the worst split R-hat over the same rows, in one pass, each
/// component's draws ranked once for both: what maxSplitRhat gives for chains whose final
/// segments share their temperature and have at least `rows` rows (the caller checks).
ChainDiagnostics pooledDiagnostics(const std::vector<const ChainResult *> &chains, std::int64_t rows);

/// Max over θ components of the rank-normalised split R-hat (splitRhat: the larger of the bulk
/// and the folded value) across `chains`, each chain's final segment cut to the last rows of the
/// shortest one. One chain is enough: its two halves are compared. NaN for no chains, fewer
/// than kMinDiagnosticDraws rows, or chains whose final segments target different temperatures.
double maxSplitRhat(const std::vector<const ChainResult *> &chains);

} // namespace core
