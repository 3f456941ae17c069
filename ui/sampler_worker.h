#pragma once
// The worker object that runs Qt-free core chains on a QThread (design.md Sec. 5). It is
// moved to its thread by the owner; start() runs a whole request inside that thread's event
// loop and reports through queued signals whose arguments are copies, so the GUI never
// touches the sampler's state and the sampler never waits for the GUI.
//
// A request is one or more methods (compare mode) times one or more chains each, all on the
// same generated data; chain k of every method uses seed + k, so methods are compared on
// identical random streams where they consume them alike. Each (method, chain) pair is a
// "channel": snapshots name their channel so the window can route them to the right chart.
#include <array>
#include <cmath>
#include <memory>
#include <mutex>
#include <stop_token>
#include <thread>
#include <vector>

#include <QMetaType>
#include <QObject>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QVector>

#include "core/chain/live_tuning.h"
#include "core/chain/pause_gate.h"
#include "core/chain/chain_runner.h"
#include "core/diagnostics/chain_summary.h"
#include "core/diagnostics/gmm_posterior.h"
#include "core/experiment/datasets.h"
#include "core/experiment/run_config.h"
#include "ui/posterior_heat_map.h"

namespace ui {

/// What to run. Build single-method requests with RunRequest::single().
struct RunRequest {
    core::RunConfig config;            ///< shared settings; config.method is the first method
    QVector<core::TestMethod> methods; ///< one to four methods, run on the same data
    int chains = 1;                    ///< chains per method (1–4), seeds seed, seed + 1, …
    bool parallel = false;             ///< run chains concurrently, up to the number of cores

    static RunRequest single(const core::RunConfig &config);
    int channelCount() const { return static_cast<int>(methods.size()) * chains; }
    int methodIndexOf(int channel) const { return chains > 0 ? channel / chains : 0; }
    int chainIndexOf(int channel) const { return chains > 0 ? channel % chains : 0; }
    /// The settings of one channel: its method and its seed.
    core::RunConfig channelConfig(int channel) const;
};

/// Throws std::invalid_argument naming the problem (no methods, more than four, a repeated
/// method, chains outside [1, 4]) and runs core::validate on every channel's settings.
void validate(const RunRequest &request);

/// Test-set figures of a logistic-regression chain at one iteration (Seita et al. Sec. 6.2,
/// Figure 3), evaluated on the chain's thread.
struct ClassifierPoint {
    qint64 iteration = 0;           ///< the iteration whose θ was evaluated (0-based)
    qint64 dataUsed = 0;            ///< points read by the tests up to and including it (minibatches + full scans)
    double accuracy = 0.0;          ///< fraction of test rows classified correctly
    double meanLogLikelihood = 0.0; ///< mean test log-likelihood, nats per row
};

/// What happened on one channel since its previous snapshot, plus its running totals.
struct RunSnapshot {
    int channel = 0;
    /// New (θ₁, θ₂) samples: iterations t in [first, completed) with t % sampleStride == 0.
    /// Long runs are thinned so the charts stay responsive; the statistics below and
    /// newBatchSizes always cover every iteration. A one-dimensional model sends (θ₁, 0).
    QVector<QPointF> newSamples;
    /// Logistic regression only: the iterations in [first, completed) at the evaluation stride.
    QVector<ClassifierPoint> newClassifierPoints;
    qint64 dataSize = 0;             ///< N, the rows the tests draw from (training rows for logreg)
    int dimension = 2;               ///< of θ
    QVector<int> newBatchSizes;      ///< points used by each new iteration's test
    /// Segments that began since the previous snapshot (the first snapshot carries the first
    /// segment, starting at 0); a later one means T or the step was changed during the run.
    QVector<core::ChainSegment> newSegments;
    QPointF current;                 ///< θ after the latest iteration
    qint64 first = 0;                ///< iteration of newBatchSizes[0]
    qint64 completed = 0;            ///< iterations done so far on this channel
    qint64 total = 0;                ///< iterations requested on this channel
    int sampleStride = 1;
    double acceptanceRate = 0.0;     ///< over all completed iterations
    double meanBatch = 0.0;          ///< mean points used per test so far
    qint64 dataPointsUsed = 0;       ///< Σ points used by the tests so far
    qint64 fullDataFallbacks = 0;    ///< minibatch tests that had to use all N points
    double elapsedSeconds = 0.0;     ///< since the chain started
    double iterationsPerSecond = 0.0;
};

/// One finished (or stopped) chain with its diagnostics, computed on the worker thread.
struct ChainReport {
    int channel = 0;
    core::TestMethod method = core::TestMethod::Minibatch;
    int chainIndex = 0;
    std::uint64_t seed = 0;
    core::ChainSummary summary;
    bool hasPosteriorMetrics = false;
    core::PosteriorMetrics posterior;
    /// Per plotted θ component (RunOutcome::componentNames: all of θ for the mixture, the two
    /// most discriminative weights for logistic regression); empty with fewer than 4 draws.
    QVector<double> bulkEss;
    double essPerSecond = std::nan(""); ///< min bulk ESS / wall seconds
    /// ESS, R-hat and the posterior metrics cover the final segment only (see LiveTuning).
    /// Rank-normalised split R-hat over this method's chains (a single chain's halves), max over
    /// θ components; see core::splitRhat.
    double splitRhat = std::nan("");
    /// The whole chain, immutable once reported, for sample export.
    std::shared_ptr<const core::ChainResult> result;
    /// Logistic regression: test accuracy and mean log-likelihood at the last sample, the
    /// accuracy at the mean θ of the second half, and the time the live evaluations took.
    double testAccuracy = std::nan("");
    double testLogLikelihood = std::nan("");
    double meanThetaAccuracy = std::nan("");
    qint64 classifierEvaluations = 0;
    double classifierSeconds = 0.0;
};

/// The end of a request: complete or stopped on request (failures go through runFailed).
struct RunOutcome {
    RunRequest request;
    QVector<ChainReport> chains;     ///< in channel order; channels never started are absent
    bool stopped = false;
    bool usedCorrection = false;
    double correctionLinf = 0.0;     ///< L∞ CDF error of the correction table, when used
    bool correctionFromCache = false;
    /// What AustereMH's preparation did, for the status line (empty when no method needed it):
    /// where the design grid came from and, for AustereMH(c) under a bound, the chosen (m, ε).
    QString austereNote;
    /// Names of the plotted θ components, which the ESS columns describe ("θ₁", "θ₂", or e.g.
    /// "weight of pixel (14, 12)").
    QStringList componentNames;
    /// The exact posterior of the run's data at config.temperature, for lp__ in exports (null
    /// unless complete); rows of other segments use logDensity at their own temperature.
    std::shared_ptr<const core::GaussianMixturePosterior> posterior;
    /// The model the chains ran on, for lp__ of data sets without a binned posterior (null for
    /// the mixture, whose lp__ comes from `posterior`).
    std::shared_ptr<const core::Model> model;
    /// N of the data the chains ran on (training rows for logistic regression; the config's
    /// nData applies to generated data only), θ's dimension, and the data's description.
    qint64 dataSize = 0;
    int dimension = 0;
    QString datasetDescription;
    bool augmented = false;

    const core::RunConfig &config() const { return request.config; }
    /// Σ iterations over all reported chains.
    qint64 totalIterations() const;
    /// The longest chain's wall time: the run's sampling time when chains ran in parallel.
    double longestWallSeconds() const;
    qint64 totalFullDataFallbacks() const;
    /// Σ data points read over all chains, minibatches and full-data passes together.
    qint64 totalPointsRead() const;
};

class SamplerWorker : public QObject {
    Q_OBJECT
public:
    /// Plotted samples per chain at most; longer runs are thinned evenly (see RunSnapshot).
    static constexpr qint64 kMaxPlottedSamples = 50'000;
    /// Side of the square heat-map image in pixels.
    static constexpr int kHeatMapSize = 200;
    /// Classifier evaluations per chain at most: the evaluation stride is traceStride or,
    /// for longer runs, samples / kMaxClassifierPoints.
    static constexpr qint64 kMaxClassifierPoints = 2000;

    explicit SamplerWorker(QObject *parent = nullptr);

    /// Thread-safe. Stops the run in progress, or the next one if none has started yet (so a
    /// stop that races with a queued start is not lost). Each run re-arms the stop afterwards.
    void requestStop();
    /// Thread-safe: pause the running chains, let them run on, or let one more iteration
    /// through while paused. A stop also ends a pause.
    void pause() { m_pause.pause(); }
    void resume() { m_pause.resume(); }
    void step() { m_pause.step(1); }
    bool isPaused() const { return m_pause.paused(); }
    /// Thread-safe: change the temperature or proposal step of the running chains from their
    /// next iteration on; each change starts a new chain segment (core::LiveTuning). A new
    /// temperature also re-renders the posterior heat map, off the calling thread. Throws
    /// std::invalid_argument for values that are not finite and > 0.
    void setLiveTemperature(double temperature);
    void setLiveStep(double step);
    /// Thread-safe. Forgets earlier stop and live-tuning requests. The owner calls it just
    /// before queuing a start(), so that a stop meant for a run that has just finished (its
    /// finished() still on the way) cannot cancel the new one.
    void discardStopRequests();

public slots:
    /// Runs every channel of `request` to completion, stop or failure. Blocks the calling
    /// (worker) thread. Emits finished() or runFailed() exactly once.
    void startRequest(const ui::RunRequest &request);
    /// One method, one chain.
    void start(const core::RunConfig &config);

signals:
    void statusMessage(const QString &message);
    /// Progress of the preparation steps before the chains (fraction in [0, 1]; < 0 = busy).
    void preparationProgress(double fraction);
    void posteriorImageReady(const ui::PosteriorImage &image);
    /// Which two θ components the snapshots' samples are (before the first snapshot), named
    /// for axis titles: "θ₁", "θ₂" for the mixture; for logistic regression the two most
    /// discriminative weights, e.g. "weight of pixel (14, 12)".
    void plottedComponentsChosen(const QStringList &names);
    void snapshot(const ui::RunSnapshot &snapshot);
    void finished(const ui::RunOutcome &outcome);
    void runFailed(const QString &message);

private:
    RunOutcome run(const RunRequest &request, std::stop_token stop);
    /// The θ components the charts show, announced through plottedComponentsChosen().
    std::array<int, 2> choosePlottedComponents(const core::DatasetInstance &dataset, RunOutcome &outcome);
    /// The design grid (and AustereMH(c)'s chosen design, written into outcome.request) when a
    /// method needs it; null otherwise.
    std::shared_ptr<const core::AustereDesigner> prepareAustere(RunOutcome &outcome, const core::DatasetInstance &dataset,
                                                                std::stop_token stop);
    void compareWithPosterior(RunOutcome &outcome, const Eigen::VectorXd &data);
    /// Re-renders the heat map at `temperature` on its own thread (if a run has data for it).
    void renderHeatMapInBackground(double temperature);
    /// Which data the heat map shows while a run is going (null otherwise).
    void setHeatMapData(std::shared_ptr<const Eigen::VectorXd> data);

    std::mutex m_stopMutex;
    core::PauseGate m_pause;
    core::LiveTuning m_tuning;
    std::stop_source m_stop;
    std::mutex m_heatMapMutex;
    std::shared_ptr<const Eigen::VectorXd> m_heatMapData;
    std::jthread m_heatMapRender; // re-renders after a live temperature change
};

/// Registers the cross-thread value types with Qt's meta-type system; call before connecting.
void registerRunMetaTypes();

} // namespace ui

Q_DECLARE_METATYPE(core::RunConfig)
Q_DECLARE_METATYPE(core::ChainSegment)
Q_DECLARE_METATYPE(ui::RunRequest)
Q_DECLARE_METATYPE(ui::RunSnapshot)
Q_DECLARE_METATYPE(ui::RunOutcome)
