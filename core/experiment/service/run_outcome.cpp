#include "core/experiment/service/run_outcome.h"

#include <algorithm>

namespace core {

std::int64_t RunOutcome::totalIterations() const
{
    std::int64_t total = 0;
    for (const ChainReport &report : chains)
        total += report.summary.iterations + report.summary.burnInIterations
                 + (report.result ? report.result->firstIteration : 0);
    return total;
}

double RunOutcome::longestWallSeconds() const
{
    double wall = 0.0;
    for (const ChainReport &report : chains)
        wall = std::max(wall, report.summary.wallSeconds);
    return wall;
}

std::int64_t RunOutcome::totalFullDataFallbacks() const
{
    std::int64_t fallbacks = 0;
    for (const ChainReport &report : chains)
        fallbacks += report.summary.fullDataFallbacks;
    return fallbacks;
}

TestTally RunOutcome::methodTests(std::size_t methodIndex) const
{
    TestTally tests;
    for (const ChainReport &report : chains)
        if (static_cast<std::size_t>(request.methodIndexOf(report.channel)) == methodIndex)
            tests += report.summary.tests;
    return tests;
}

std::int64_t RunOutcome::totalPointsRead() const
{
    std::int64_t used = 0;
    for (const ChainReport &report : chains)
        used += report.summary.dataPointsUsed() + report.summary.fullScanPoints + report.summary.burnInPointsRead
                + report.summary.proposalPointsRead;
    return used;
}

} // namespace core
