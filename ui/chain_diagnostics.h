#pragma once
// Convergence diagnostics of finished chains, in the shape the diagnostics table shows: bulk
// ESS per θ component and the worst split R-hat over components. Thin wrappers over
// core/diagnostics that handle short and unequal (stopped) chains instead of throwing.
#include <vector>

#include <QVector>

#include "core/chain/chain_runner.h"

namespace ui {

/// Fewest draws per chain the rank-normalised diagnostics accept.
inline constexpr std::int64_t kMinDiagnosticDraws = 4;

/// Bulk ESS of each θ component over the chain's completed rows; empty when there are fewer
/// than kMinDiagnosticDraws rows.
QVector<double> bulkEssPerComponent(const core::ChainResult &chain);

/// Max over θ components of the rank-normalised split R-hat across `chains`, each truncated to
/// the shortest one. NaN for fewer than two chains or fewer than kMinDiagnosticDraws rows.
double maxSplitRhat(const std::vector<const core::ChainResult *> &chains);

} // namespace ui
