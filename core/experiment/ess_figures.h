#pragma once
/// The speed figures per effective sample of a run (design.md Sec. 9: effective samples per
/// second of the whole run, burn-in included, and data points read per effective sample), per
/// chain and pooled over a method's chains. The run service (run_service.h) adds them; every
/// report shows them as they are.
#include <vector>

#include "core/experiment/run_outcome.h"

namespace core {

/// Fills report.essBulkMin, essBulkMedian, essPerSecond and dataPointsPerEss from
/// report.bulkEss (the final segment's, see ChainReport) and report.summary: the time is
/// chain.wallSeconds and the data every point the chain read, burn-in included. Keeps the
/// final-segment rows of `components` in report.plottedDraws for addPooledFigures, since a
/// request that keeps no samples drops the chain's rows. Nothing is filled when bulkEss is
/// empty.
void addEssFigures(const ChainResult &chain, ChainReport &report, const std::vector<int> &components);

/// With several chains per method, one PooledEss per method in outcome.pooled (see PooledEss):
/// bulkEffectiveSampleSize over every chain's kept rows, each cut to the last rows of the
/// shortest, unless the chains' final segments target different temperatures or have fewer
/// than kMinDiagnosticDraws rows (then bulkEss stays empty and the figures NaN). Then releases
/// every report's plottedDraws.
void addPooledFigures(RunOutcome &outcome);

} // namespace core
