#pragma once
// Turns a running chain into RunSnapshots: copies the rows [first, last)
// into value types, advances the running totals, and for logistic regression evaluates the
// test accuracy and log-likelihood of θ every `stride` iterations (Seita et al. Sec. 6.2,
// Figure 3). It runs on the chain's thread inside the progress callback, so the GUI thread
// never evaluates a classifier and never touches the chain.
#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/chain/chain_runner.h"
#include "core/data/classification_data.h"
#include "core/diagnostics/test_tally.h"
#include "core/experiment/settings/run_config.h"
#include "core/models/logistic_regression_model.h"
#include "ui/run/sampler_worker.h"

namespace ui {

class SnapshotBuilder {
public:
    using Clock = std::chrono::steady_clock;

    /// The two θ components drawn as (x, y) on the posterior and trace charts; for a
    /// one-dimensional θ the second is ignored (y = 0).
    using Components = std::array<int, 2>;

    /// What to evaluate for a classifier; both pointers null for other models.
    struct Classifier {
        const core::LogisticRegressionModel *model = nullptr;
        const core::ClassificationData *test = nullptr;
        std::int64_t stride = 10;
    };

    /// `total` iterations on data of `dataSize` rows, θ of `dimension`; snapshots are due
    /// every `interval`. A classifier without model is not evaluated. A run until stopped
    /// (`untilStopped`) has no total: `total` is its window, the iterations that acceptance,
    /// mean batch and speed describe, and its rows come in laps (ChainResult::firstIteration).
    SnapshotBuilder(int channel, qint64 total, qint64 dataSize, int dimension, std::chrono::milliseconds interval,
                    Classifier classifier, Components plotted = {0, 1}, bool untilStopped = false);

    /// The evaluation stride for a run: traceStride, or longer so that a chain gets at most
    /// SamplerWorker::kMaxClassifierPoints evaluations.
    static std::int64_t classifierStride(std::int64_t traceStride, std::int64_t total);

    /// Whether a snapshot is due and has something to show, with `result`'s rows [0, lastRow)
    /// done (row r is iteration result.firstIteration + r).
    bool due(const core::ChainResult & /*result*/, std::int64_t lastRow) const
    {
        return (m_window == 0 && lastRow == m_total) || Clock::now() - m_lastEmit >= m_interval;
    }
    bool pending(const core::ChainResult &result, std::int64_t lastRow) const
    {
        return result.firstIteration + lastRow > m_emitted;
    }
    /// The chain starts sampling now: its speed and elapsed time count from here, not from the
    /// builder's making, which comes before the data's heat map and the chain's preparation
    /// (counting those seconds would make a fast chain's first speed a fraction of its pace).
    void startClock();
    /// The proposal the chain draws with, for the spread each snapshot reports (RunSnapshot::proposal).
    void setProposal(core::ProposalKind kind) { m_proposal = kind; }
    /// A move without a Gaussian proposal (the Zig-Zag process): no proposal ellipse is sent;
    /// its path is (RunSnapshot::path).
    void setFollowsPath(bool followsPath) { m_followsPath = followsPath; }
    /// The chain's burn-in: a fixed-length run's acceptance and mean batch count the iterations
    /// after it, as the chain's summary does (RunSnapshot::acceptanceRate).
    void setBurnIn(std::int64_t burnIn) { m_burnIn = burnIn; }
    /// The iterations not yet sent up to row `lastRow` of `result`, as a snapshot.
    RunSnapshot take(const core::ChainResult &result, std::int64_t lastRow);

    qint64 classifierEvaluations() const { return m_evaluations; }
    double classifierSeconds() const { return m_evaluationSeconds; }

private:
    int m_channel;
    qint64 m_total;
    qint64 m_dataSize;
    int m_dimension;
    std::chrono::milliseconds m_interval;
    int m_stride;
    Classifier m_classifier;
    Components m_plotted;
    core::ProposalKind m_proposal = core::ProposalKind::RandomWalk;
    bool m_followsPath = false;
    void countInWindow(std::int64_t t, std::uint8_t accepted, std::int64_t batch);
    double recentSpeed(std::int64_t last, double fallback);
    /// The segments that began by `lastRow` of this lap and were not sent yet.
    void appendNewSegments(RunSnapshot &shot, const core::ChainResult &result, std::int64_t lastRow);
    /// The acceptance and batch figures the snapshot shows: the burn-in's, the kept draws', the
    /// window's, and the current segment's.
    void describeTallies(RunSnapshot &shot, std::int64_t last) const;
    /// The sampling time, the speed, and (until stopped) the plotted stride that speed allows.
    void timeShot(RunSnapshot &shot, std::int64_t last, double lapPausedSeconds);

    std::int64_t m_emitted = 0;   ///< iterations sent
    std::size_t m_segmentsSent = 0; ///< of the current lap's segments
    // A run until stopped: the lap being read, the figures over the last m_window iterations
    // (rings indexed by iteration mod m_window), the pause time of finished laps, and the
    // speed over the last half second or so.
    qint64 m_window = 0;
    int m_windowStride = 1; // the stride the window's size asks for (the speed may ask more)
    std::int64_t m_lapStart = 0;
    double m_lapPaused = 0.0, m_pausedBefore = 0.0;
    std::vector<std::uint8_t> m_recentAccepted;
    std::vector<std::int64_t> m_recentBatch;
    core::TestTally m_windowTests;
    core::ChainSegment m_lastSegment;
    bool m_sentSegment = false;
    Clock::time_point m_speedMark = Clock::now();
    std::int64_t m_speedMarkIteration = 0;
    double m_recentSpeed = 0.0;
    // The figures' scopes (core/diagnostics/test_tally.h): every iteration so far, the current
    // segment's (RunSnapshot::segmentAcceptance) and those after the burn-in (the summary's).
    core::TestTally m_allTests, m_segmentTests, m_keptTests;
    qint64 m_fallbacks = 0, m_allPointsRead = 0;
    qint64 m_segmentStart = 0;
    bool m_segmentRelearning = false;
    bool m_segmentByChange = false;
    std::int64_t m_burnIn = 0;
    qint64 m_evaluations = 0;
    double m_evaluationSeconds = 0.0;
    Clock::time_point m_start = Clock::now();
    Clock::time_point m_lastEmit = Clock::now();
};

} // namespace ui
