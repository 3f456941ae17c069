#pragma once
// The values that cross from the sampler's threads to the GUI thread, all
// copies: a request going out, snapshots while it runs, the outcome at the end. Requests and
// outcomes are the run service's own types (core/experiment); snapshots are the GUI's, shaped
// for the charts.
#include <optional>

#include <QMetaType>
#include <QPointF>
#include <QVector>

#include "core/chain/chain_runner.h"
#include "core/experiment/service/run_outcome.h"
#include "core/experiment/settings/run_request.h"

namespace ui {

using RunRequest = core::RunRequest;
using RunOutcome = core::RunOutcome;
using ChainReport = core::ChainReport;

/// Test-set figures of a logistic-regression chain at one iteration (Seita et al. Sec. 6.2,
/// Figure 3), evaluated on the chain's thread.
struct ClassifierPoint {
    qint64 iteration = 0;           ///< the iteration whose θ was evaluated (0-based)
    qint64 dataUsed = 0;            ///< points read by the tests up to and including it (minibatches + full scans)
    double accuracy = 0.0;          ///< fraction of test rows classified correctly
    double meanLogLikelihood = 0.0; ///< mean test log-likelihood, nats per row
};

/// The spread of a proposal's Gaussian noise in the plotted (θ₁, θ₂) plane: the covariance of
/// the two plotted components of θ' − E[θ' | θ]. Random walk: step²·I; adaptive random walk:
/// scale²·Σ̂; Langevin: h²·M, around a mean moved along the gradient (`drifts`).
struct ProposalSpread {
    /// How the candidate's distribution sits relative to the drawn ellipse around θ.
    enum class Centre {
        AtTheState,     ///< centred on θ (random walks)
        AlongGradient,  ///< on θ plus a gradient step (Langevin)
        TowardMode,     ///< on θ pulled toward the Laplace mode (Crank–Nicolson)
        LeapfrogStep,   ///< one leapfrog step's momentum kick; a trajectory takes several (HMC)
    };
    double xx = 0.0, xy = 0.0, yy = 0.0;
    bool learning = false; ///< an adaptive proposal during its burn-in: still changing
    Centre centre = Centre::AtTheState;
    bool drifts() const { return centre != Centre::AtTheState; }
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
    QVector<qint64> newBatchSizes;   ///< points used by each new iteration's test
    /// Segments that began since the previous snapshot (the first snapshot carries the first
    /// segment, starting at 0); a later one means T or the step was changed during the run.
    QVector<core::ChainSegment> newSegments;
    QPointF current;                 ///< θ after the latest iteration
    /// The proposal from `current` (empty for a one-dimensional θ or a Laplace proposal).
    std::optional<ProposalSpread> proposal;
    /// The Zig-Zag process: its path since the previous snapshot (core::ChainResult::recentPath),
    /// the corners projected on the plotted plane, straight lines between them. Empty for other
    /// moves.
    QVector<QPointF> path;
    qint64 first = 0;                ///< iteration of newBatchSizes[0]
    qint64 completed = 0;            ///< iterations done so far on this channel
    qint64 total = 0;                ///< iterations requested on this channel (0: until stopped)
    /// A run until stopped: the moving window of iterations that acceptanceRate, meanBatch and
    /// the charts show (0 for a run of fixed length).
    qint64 window = 0;
    int sampleStride = 1;
    /// Over the completed iterations after the burn-in (the chain summary's scope), the burn-in's
    /// while it runs, or a run until stopped's window.
    double acceptanceRate = 0.0;
    double meanBatch = 0.0;          ///< mean points used per test, over the same iterations
    bool inBurnIn = false;           ///< the figures above are the burn-in's: it has not ended
    bool afterBurnIn = false;        ///< they count the iterations after a burn-in
    qint64 dataPointsUsed = 0;       ///< Σ points used by the tests so far
    qint64 fullDataFallbacks = 0;    ///< minibatch tests that had to use all N points
    /// FlyMC: the points bright after each new iteration, as newBatchSizes (empty for the other
    /// tests).
    QVector<qint64> newBrightPoints;
    double elapsedSeconds = 0.0;     ///< since the chain started
    double iterationsPerSecond = 0.0;
    /// The current segment: where it began (0 unless a live change began it), its iterations so
    /// far and their acceptance and mean batch, so that a change's effect shows at once rather
    /// than diluted in the whole run's figures. Fixed-length runs only.
    qint64 segmentStart = 0;
    qint64 segmentIterations = 0;
    double segmentAcceptance = 0.0;
    double segmentMeanBatch = 0.0;
    bool segmentRelearning = false;  ///< the proposal is learning its scale again (ChainSegment::relearning)
};

/// The window's own limits on a request (at most four methods, each a colour, and four chains
/// per method, each a series), then core::validate. Throws std::invalid_argument with a message
/// that names the window's controls.
void validateInWindow(const RunRequest &request);

/// The most methods one window run compares: as many as the run service takes, so that the
/// minibatch test, its control-variate twin, the three exact minibatch methods and the
/// full-data tests fit side by side (their charts share the compare page's grid).
inline constexpr int kWindowMaxMethods = core::RunRequest::kMaxMethods;

/// Registers the cross-thread value types with Qt's meta-type system; call before connecting.
void registerRunMetaTypes();

} // namespace ui

Q_DECLARE_METATYPE(core::RunConfig)
Q_DECLARE_METATYPE(core::ChainSegment)
Q_DECLARE_METATYPE(core::RunRequest)
Q_DECLARE_METATYPE(ui::RunSnapshot)
Q_DECLARE_METATYPE(core::RunOutcome)
