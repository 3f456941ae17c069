#include "core/experiment/ess_figures.h"

#include <algorithm>
#include <cstddef>
#include <limits>

#include "core/diagnostics/chain_convergence.h"
#include "core/diagnostics/effective_sample_size.h"

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
    return summary.dataPointsUsed + summary.fullScanPoints + summary.burnInPointsRead + summary.proposalPointsRead;
}

} // namespace

void addEssFigures(const ChainResult &chain, ChainReport &report, const std::vector<int> &components)
{
    if (report.bulkEss.empty())
        return;
    report.essBulkMedian = median(report.bulkEss);
    const double minEss = *std::min_element(report.bulkEss.begin(), report.bulkEss.end());
    report.essBulkMin = minEss;
    if (chain.wallSeconds > 0.0)
        report.essPerSecond = minEss / chain.wallSeconds;
    if (minEss > 0.0)
        report.dataPointsPerEss = static_cast<double>(allPointsRead(report.summary)) / minEss;
    const std::int64_t first = chain.finalSegmentStart();
    for (int k : components) {
        std::vector<double> draws;
        draws.reserve(static_cast<std::size_t>(chain.completed - first));
        for (std::int64_t t = first; t < chain.completed; ++t)
            draws.push_back(chain.samples(t, k));
        report.plottedDraws.push_back(std::move(draws));
    }
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
        pooled.chains = static_cast<int>(reports.size());
        double longest = 0.0, total = 0.0;
        std::int64_t points = 0;
        std::size_t rows = std::numeric_limits<std::size_t>::max();
        bool sameTarget = true;
        for (const ChainReport *report : reports) {
            longest = std::max(longest, report->summary.wallSeconds);
            total += report->summary.wallSeconds;
            points += allPointsRead(report->summary);
            rows = std::min(rows, report->plottedDraws.empty() ? 0 : report->plottedDraws.front().size());
            const auto &segments = report->result->segments, &firstSegments = reports.front()->result->segments;
            sameTarget = sameTarget && !segments.empty() && !firstSegments.empty()
                         && segments.back().temperature == firstSegments.back().temperature;
        }
        // Chains that ran at once are waited for together: the wait is the longest chain's, or
        // a share of the sum when more chains than threads took turns. One after the other,
        // the waits add up.
        const double atOnce = std::min<double>(request.concurrency(), static_cast<double>(reports.size()));
        pooled.wallSeconds = atOnce > 1.0 ? std::max(longest, total / atOnce) : total;
        if (reports.size() > 1 && sameTarget && rows >= static_cast<std::size_t>(kMinDiagnosticDraws)) {
            for (std::size_t k = 0; k < reports.front()->plottedDraws.size(); ++k) {
                ChainDraws draws;
                for (const ChainReport *report : reports) {
                    const std::vector<double> &all = report->plottedDraws[k];
                    draws.emplace_back(all.end() - static_cast<std::ptrdiff_t>(rows), all.end());
                }
                pooled.bulkEss.push_back(samplerBulkEss(draws));
            }
            pooled.essBulkMin = *std::min_element(pooled.bulkEss.begin(), pooled.bulkEss.end());
            pooled.essBulkMedian = median(pooled.bulkEss);
            if (pooled.wallSeconds > 0.0)
                pooled.essPerSecond = pooled.essBulkMin / pooled.wallSeconds;
            if (pooled.essBulkMin > 0.0)
                pooled.dataPointsPerEss = static_cast<double>(points) / pooled.essBulkMin;
        }
        outcome.pooled.push_back(std::move(pooled));
    }
    for (ChainReport &report : outcome.chains)
        std::vector<std::vector<double>>().swap(report.plottedDraws);
}

} // namespace core
