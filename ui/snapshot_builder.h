#pragma once
// Turns a running chain into RunSnapshots (design.md Sec. 5): copies the rows [first, last)
// into value types, advances the running totals, and for logistic regression evaluates the
// test accuracy and log-likelihood of θ every `stride` iterations (Seita et al. Sec. 6.2,
// Figure 3). It runs on the chain's thread inside the progress callback, so the GUI thread
// never evaluates a classifier and never touches the chain.
#include <array>
#include <chrono>
#include <cstdint>

#include "core/chain/chain_runner.h"
#include "core/data/classification_data.h"
#include "core/models/logistic_regression_model.h"
#include "ui/sampler_worker.h"

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
    /// every `interval`. A classifier without model is not evaluated.
    SnapshotBuilder(int channel, qint64 total, qint64 dataSize, int dimension, std::chrono::milliseconds interval,
                    Classifier classifier, Components plotted = {0, 1});

    /// The evaluation stride for a run: traceStride, or longer so that a chain gets at most
    /// SamplerWorker::kMaxClassifierPoints evaluations.
    static std::int64_t classifierStride(std::int64_t traceStride, std::int64_t total);

    bool due(std::int64_t last) const { return last == m_total || Clock::now() - m_lastEmit >= m_interval; }
    bool pending(std::int64_t last) const { return last > m_emitted; }
    /// The rows [emitted, last) of `result` as a snapshot.
    RunSnapshot take(const core::ChainResult &result, std::int64_t last);

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
    std::int64_t m_emitted = 0;
    std::size_t m_segmentsSent = 0;
    qint64 m_accepted = 0, m_dataPointsUsed = 0, m_fallbacks = 0, m_allPointsRead = 0;
    qint64 m_evaluations = 0;
    double m_evaluationSeconds = 0.0;
    Clock::time_point m_start = Clock::now();
    Clock::time_point m_lastEmit = Clock::now();
};

} // namespace ui
