#pragma once
// The worker object that runs one Qt-free core chain on a QThread (design.md Sec. 5). It is
// moved to its thread by the owner; start() runs the whole run inside that thread's event
// loop and reports through queued signals whose arguments are copies, so the GUI never
// touches the sampler's state and the sampler never waits for the GUI.
#include <mutex>
#include <stop_token>

#include <QMetaType>
#include <QObject>
#include <QPointF>
#include <QString>
#include <QVector>

#include "core/diagnostics/chain_summary.h"
#include "core/diagnostics/gmm_posterior.h"
#include "core/experiment/run_config.h"
#include "ui/posterior_heat_map.h"

namespace ui {

/// What happened since the previous snapshot of a running chain, plus running totals.
struct RunSnapshot {
    /// New (θ₁, θ₂) samples. Long runs are thinned to every `sampleStride`-th iteration so
    /// the chart stays responsive; the statistics below always cover every iteration.
    QVector<QPointF> newSamples;
    QVector<int> newBatchSizes;      ///< points used by each new iteration's test
    QPointF current;                 ///< θ after the latest iteration
    qint64 completed = 0;            ///< iterations done so far
    qint64 total = 0;                ///< iterations requested
    int sampleStride = 1;
    double acceptanceRate = 0.0;     ///< over all completed iterations
    double meanBatch = 0.0;          ///< mean points used per test so far
    qint64 dataPointsUsed = 0;       ///< Σ points used by the tests so far
    qint64 fullDataFallbacks = 0;    ///< minibatch tests that had to use all N points
    double elapsedSeconds = 0.0;     ///< since the chain started
    double iterationsPerSecond = 0.0;
};

/// The end of a run: complete or stopped on request (failures go through runFailed instead).
struct RunOutcome {
    core::RunConfig config;
    core::ChainSummary summary;
    bool stopped = false;
    /// Only a complete chain is compared with the exact posterior; the comparison needs a
    /// second, accurate posterior grid that takes seconds to build.
    bool hasPosteriorMetrics = false;
    core::PosteriorMetrics posterior;
    bool usedCorrection = false;
    double correctionLinf = 0.0;     ///< L∞ CDF error of the correction table, when used
    bool correctionFromCache = false;
};

class SamplerWorker : public QObject {
    Q_OBJECT
public:
    /// Plotted samples per run at most; longer runs are thinned evenly (see RunSnapshot).
    static constexpr qint64 kMaxPlottedSamples = 50'000;
    /// Side of the square heat-map image in pixels.
    static constexpr int kHeatMapSize = 200;

    explicit SamplerWorker(QObject *parent = nullptr);

    /// Thread-safe. Stops the run in progress, or the next one if none has started yet (so a
    /// stop that races with a queued start is not lost). Each run re-arms the stop afterwards.
    void requestStop();
    /// Thread-safe. Forgets earlier stop requests. The owner calls it just before queuing a
    /// start(), so that a stop meant for a run that has just finished (its finished() still
    /// on the way) cannot cancel the new one.
    void discardStopRequests();

public slots:
    /// Runs one chain to completion, stop or failure. Blocks the calling (worker) thread.
    /// Emits finished() or runFailed() exactly once.
    void start(const core::RunConfig &config);

signals:
    void statusMessage(const QString &message);
    /// Progress of the preparation steps before the chain (fraction in [0, 1]; < 0 = busy).
    void preparationProgress(double fraction);
    void posteriorImageReady(const ui::PosteriorImage &image);
    void snapshot(const ui::RunSnapshot &snapshot);
    void finished(const ui::RunOutcome &outcome);
    void runFailed(const QString &message);

private:
    RunOutcome run(const core::RunConfig &config, std::stop_token stop);

    std::mutex m_stopMutex;
    std::stop_source m_stop;
};

/// Registers the cross-thread value types with Qt's meta-type system; call before connecting.
void registerRunMetaTypes();

} // namespace ui

Q_DECLARE_METATYPE(core::RunConfig)
Q_DECLARE_METATYPE(ui::RunSnapshot)
Q_DECLARE_METATYPE(ui::RunOutcome)
