#pragma once
/// Per-chain totals: acceptance rate, minibatch-size statistics and data consumed. They describe
/// the rows that target the posterior: a burn-in's rows are counted apart, in burnIn*.
/// Acceptance and mean batch are defined in test_tally.h, for every view.
#include <cstdint>

#include "core/chain/chain_runner.h"
#include "core/diagnostics/test_tally.h"

namespace core {

struct ChainSummary {
    std::int64_t iterations = 0;     ///< completed iterations after the burn-in
    TestTally tests;                 ///< their acceptances and test reads (pooled over chains by +=)
    /// The two figures every view shows, read from `tests` (test_tally.h), never stored twice.
    double acceptanceRate() const { return tests.acceptanceRate(); }
    double meanBatch() const { return tests.meanBatch(); } ///< mean points used per test
    /// Σ points used by the tests (minibatch data).
    std::int64_t dataPointsUsed() const { return tests.testPoints; }
    double sdBatch = 0.0;            ///< standard deviation of points used per test
    std::int64_t maxBatch = 0;
    std::int64_t fullDataFallbacks = 0;  ///< MHminibatch tests that reached N
    std::int64_t fullScanPoints = 0;     ///< Σ points read by extra full-data passes
    /// Iterations whose test read all N points (minibatch data only; 0 when N is unknown).
    std::int64_t allDataIterations = 0;
    /// The burn-in (ChainResult::burnInRows): its completed iterations and every data point
    /// they read, minibatches and full-data passes together. They cost time and data, so the
    /// speed figures per effective sample count them (ChainReport::essPerSecond).
    std::int64_t burnInIterations = 0;
    std::int64_t burnInPointsRead = 0;
    /// Rows the proposal read for its gradients (LangevinProposal), burn-in included. The run
    /// fills it in (proposalPointsPerIteration × completed iterations): summarize() does not
    /// know the proposal. The speed figures per effective sample count them.
    std::int64_t proposalPointsRead = 0;
    double wallSeconds = 0.0;          ///< the whole chain's, burn-in included, pauses excluded
    double iterationsPerSecond = 0.0;  ///< every completed iteration, burn-in included, per wall second
};

/// Summarises the completed iterations of a chain. `dataSize` (N) enables allDataIterations.
ChainSummary summarize(const ChainResult &result, std::int64_t dataSize = 0);

} // namespace core
