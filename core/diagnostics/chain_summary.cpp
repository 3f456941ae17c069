#include "core/diagnostics/chain_summary.h"

#include <algorithm>
#include <cmath>

namespace core {

ChainSummary summarize(const ChainResult &result, std::int64_t dataSize)
{
    ChainSummary summary;
    const std::int64_t first = result.burnInRows();
    const std::int64_t n = result.completed - first;
    summary.iterations = n;
    summary.burnInIterations = first;
    for (std::int64_t t = 0; t < first; ++t) {
        const auto row = static_cast<std::size_t>(t);
        summary.burnInPointsRead += result.batchSize[row] + result.fullScanPoints[row];
    }
    summary.wallSeconds = result.wallSeconds;
    // The wall time covers every iteration run: a burn-in, and what ran before the window of a
    // run until stopped.
    summary.iterationsPerSecond =
        result.wallSeconds > 0.0 ? static_cast<double>(result.firstIteration + result.completed) / result.wallSeconds
                                 : 0.0;
    if (n == 0)
        return summary;
    // Welford for the spread: a sum of squared batch sizes of full-data runs would overflow.
    double mean = 0.0, sumSquares = 0.0;
    for (std::int64_t k = 0; k < n; ++k) {
        const std::int64_t t = first + k;
        const auto row = static_cast<std::size_t>(t);
        summary.tests.add(result.accepted[row] != 0, result.batchSize[row]);
        summary.fullDataFallbacks += result.fullDataFallback[row];
        summary.fullScanPoints += result.fullScanPoints[row];
        summary.maxBatch = std::max<std::int64_t>(summary.maxBatch, result.batchSize[row]);
        summary.allDataIterations += dataSize > 0 && result.batchSize[row] >= dataSize;
        const double x = result.batchSize[row];
        const double shift = x - mean;
        mean += shift / static_cast<double>(k + 1);
        sumSquares += shift * (x - mean);
    }
    summary.sdBatch = n > 1 ? std::sqrt(sumSquares / static_cast<double>(n - 1)) : 0.0;
    return summary;
}

} // namespace core
