#pragma once
/// Per-chain totals: acceptance rate, minibatch-size statistics and data consumed.
#include <cstdint>

#include "core/chain/chain_runner.h"

namespace core {

struct ChainSummary {
    std::int64_t iterations = 0;
    double acceptanceRate = 0.0;
    double meanBatch = 0.0;          ///< mean points used per test
    double sdBatch = 0.0;            ///< standard deviation of points used per test
    std::int64_t maxBatch = 0;
    std::int64_t fullDataFallbacks = 0;  ///< MHminibatch tests that reached N
    std::int64_t dataPointsUsed = 0;     ///< Σ points used by the tests (minibatch data)
    std::int64_t fullScanPoints = 0;     ///< Σ points read by extra full-data passes
    /// Iterations whose test read all N points (minibatch data only; 0 when N is unknown).
    std::int64_t allDataIterations = 0;
    double wallSeconds = 0.0;
    double iterationsPerSecond = 0.0;
};

/// Summarises the completed iterations of a chain. `dataSize` (N) enables allDataIterations.
ChainSummary summarize(const ChainResult &result, std::int64_t dataSize = 0);

} // namespace core
