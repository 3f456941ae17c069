#pragma once
/// The speed figures per effective sample of a run (effective samples per
/// second of the whole run, burn-in included, and data points read per effective sample), per
/// chain and pooled over a method's chains. The run service (run_service.h) adds them; every
/// report shows them as they are.
#include <vector>

#include "core/experiment/service/run_outcome.h"

namespace core {

/// Fills report.essBulkMin, essBulkMedian, essCoordinates, essPerSecond and dataPointsPerEss
/// from `ess`, the bulk ESS of every θ coordinate over the final segment (bulkEssPerComponent
/// or finalSegmentDiagnostics of `chain`), and from report.summary: the time is
/// chain.wallSeconds and the data every point the chain read, burn-in included. Nothing is
/// filled when `ess` is empty (fewer than kMinDiagnosticDraws final-segment rows).
void addEssFigures(const ChainResult &chain, const std::vector<double> &ess, ChainReport &report);

/// With several chains per method, one PooledEss per method in outcome.pooled (see PooledEss):
/// bulkEffectiveSampleSize over every chain's kept rows (report.rowsForPooling), each cut to
/// the last rows of the shortest, for every θ coordinate, unless the chains' final segments
/// target different temperatures or have fewer than kMinDiagnosticDraws rows (then bulkEss
/// stays empty and the figures NaN). Then releases every report's rowsForPooling.
void addPooledFigures(RunOutcome &outcome);

} // namespace core
