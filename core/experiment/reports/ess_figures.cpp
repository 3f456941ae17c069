#include "core/experiment/reports/ess_figures.h"

#include <algorithm>
#include <cstddef>
#include <limits>

#include "core/diagnostics/chain_convergence.h"

namespace core {
namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t middle = values.size() / 2;
    return values.size() % 2 == 1 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
}

// Every data point a chain read: minibatches, full-data passes and the proposal's gradients,
// burn-in included.
std::int64_t allPointsRead(const ChainSummary &summary)
{
    return summary.dataPointsUsed() + summary.fullScanPoints + summary.burnInPointsRead + summary.proposalPointsRead;
}

} // namespace

void addEssFigures(const ChainResult &chain, const std::vector<double> &ess, ChainReport &report)
{
    if (ess.empty())
        return;
    report.essCoordinates = static_cast<int>(ess.size());
    report.essBulkMedian = median(ess);
    const double minEss = *std::min_element(ess.begin(), ess.end());
    report.essBulkMin = minEss;
    if (chain.wallSeconds > 0.0)
        report.essPerSecond = minEss / chain.wallSeconds;
    if (chain.wallSeconds - chain.setupSeconds > 0.0)
        report.essPerSamplingSecond = minEss / (chain.wallSeconds - chain.setupSeconds);
    if (minEss > 0.0)
        report.dataPointsPerEss = static_cast<double>(allPointsRead(report.summary)) / minEss;
}

void addPooledFigures(RunOutcome &outcome)
{
    const RunRequest &request = outcome.request;
    for (std::size_t method = 0; request.chains > 1 && method < request.methods.size(); ++method) {
        std::vector<const ChainReport *> reports;
        for (const ChainReport &report : outcome.chains)
            if (static_cast<std::size_t>(request.methodIndexOf(report.channel)) == method)
                reports.push_back(&report);
        PooledEss pooled;
        pooled.method = request.methods[method];
        pooled.label = request.methodLabel(method);
        pooled.chains = static_cast<int>(reports.size());
        pooled.tests = outcome.methodTests(method);
        double longest = 0.0, total = 0.0;
        std::int64_t points = 0;
        std::int64_t rows = std::numeric_limits<std::int64_t>::max();
        bool sameTarget = true;
        for (const ChainReport *report : reports) {
            longest = std::max(longest, report->summary.wallSeconds);
            total += report->summary.wallSeconds;
            points += allPointsRead(report->summary);
            const ChainResult *chain = report->rowsForPooling.get();
            rows = std::min(rows, chain ? chain->completed - chain->finalSegmentStart() : 0);
            const auto &segments = report->result->segments, &firstSegments = reports.front()->result->segments;
            sameTarget = sameTarget && !segments.empty() && !firstSegments.empty()
                         && segments.back().temperature == firstSegments.back().temperature;
        }
        // Chains that ran at once are waited for together: the wait is the longest chain's, or
        // a share of the sum when more chains than threads took turns. One after the other,
        // the waits add up.
        const double atOnce = std::min<double>(request.concurrency(), static_cast<double>(reports.size()));
        pooled.wallSeconds = atOnce > 1.0 ? std::max(longest, total / atOnce) : total;
        if (reports.size() > 1 && sameTarget && rows >= kMinDiagnosticDraws) {
            std::vector<const ChainResult *> chains;
            for (const ChainReport *report : reports)
                chains.push_back(report->rowsForPooling.get());
            const ChainDiagnostics diagnostics = pooledDiagnostics(chains, rows);
            const std::vector<double> &ess = diagnostics.bulkEss;
            pooled.splitRhat = diagnostics.maxSplitRhat;
            for (int k : outcome.components)
                pooled.bulkEss.push_back(ess[static_cast<std::size_t>(k)]);
            pooled.essCoordinates = static_cast<int>(ess.size());
            pooled.essBulkMin = *std::min_element(ess.begin(), ess.end());
            pooled.essBulkMedian = median(ess);
            if (pooled.wallSeconds > 0.0)
                pooled.essPerSecond = pooled.essBulkMin / pooled.wallSeconds;
            if (pooled.essBulkMin > 0.0)
                pooled.dataPointsPerEss = static_cast<double>(points) / pooled.essBulkMin;
        }
        outcome.pooled.push_back(std::move(pooled));
    }
    for (ChainReport &report : outcome.chains)
        report.rowsForPooling.reset();
}

} // namespace core
