#pragma once
/// The acceptance tests' figures, defined once for every view. The CLI's summary, the summary
/// JSON, the status strip (during and after a run) and the Diagnostics table read acceptance and
/// mean batch from a TestTally over a stated scope (the minibatch histogram's mean is the same
/// sum over the same kept iterations, from its own counts of each batch size):
///
///   acceptance rate = accepted proposals / completed iterations
///   mean batch      = data points the acceptance tests read / completed iterations
///
/// "Data points the tests read" are the minibatch rows each test evaluated (all N for a
/// full-data test). Extra full-data passes (MHSubLhd's range bound, AustereMH(nc)'s design) and
/// the rows a gradient proposal reads are counted apart (ChainSummary::fullScanPoints,
/// proposalPointsRead), and only "data read" figures add them.
///
/// The scopes a view may show, each said beside the figure where it differs from the first:
///   - after the burn-in: one chain's iterations that target the posterior (ChainSummary, the
///     default of every final view);
///   - the burn-in's own iterations (while it runs);
///   - a method's chains pooled: their kept iterations tallied together, which is the
///     iteration-weighted mean of the chains' figures (PooledEss::tests);
///   - a segment: the iterations since a live change (or since the burn-in's end);
///   - a window: the latest iterations of a run until stopped.
#include <cstdint>

namespace core {

struct TestTally {
    std::int64_t iterations = 0;
    std::int64_t accepted = 0;
    std::int64_t testPoints = 0; ///< Σ rows the acceptance tests read

    void add(bool wasAccepted, std::int64_t batch)
    {
        ++iterations;
        accepted += wasAccepted ? 1 : 0;
        testPoints += batch;
    }
    /// Takes back an iteration added before: a window's oldest, as the window moves on.
    void remove(bool wasAccepted, std::int64_t batch)
    {
        --iterations;
        accepted -= wasAccepted ? 1 : 0;
        testPoints -= batch;
    }
    TestTally &operator+=(const TestTally &other)
    {
        iterations += other.iterations;
        accepted += other.accepted;
        testPoints += other.testPoints;
        return *this;
    }

    /// 0 over no iterations (a scope that has not begun).
    double acceptanceRate() const
    {
        return iterations > 0 ? static_cast<double>(accepted) / static_cast<double>(iterations) : 0.0;
    }
    /// Exact to the last bit: the integer sum divided once.
    double meanBatch() const
    {
        return iterations > 0 ? static_cast<double>(testPoints) / static_cast<double>(iterations) : 0.0;
    }
};

} // namespace core
