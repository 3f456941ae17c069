#pragma once
/// The Metropolis–Hastings loop: propose, test, record. Runs on whatever thread calls it,
/// stops early on request, and reports progress through a callback on that same thread.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/acceptance/acceptance_test.h"
#include "core/chain/live_tuning.h"
#include "core/chain/pause_gate.h"
#include "core/proposals/adaptive_proposal.h"
#include "core/proposals/random_walk_proposal.h"

namespace core {

/// Where one chain starts and what steers it from outside while it runs: the part of its
/// settings that comes from its caller (a run's laps, a resumed file, the app's controls), not
/// from the run's configuration. ChainSettings and the run service's ChainInputs both are one,
/// so that it is passed on whole.
struct ChainControls {
    /// Start here; empty means model.initialTheta().
    Vector initialTheta;
    /// Optional: lets another thread pause, resume and single-step the chain. While it is
    /// paused, every completed iteration is reported at once.
    PauseGate *pauseGate = nullptr;
    /// Optional: temperature and step changes from another thread, applied before the next
    /// iteration, each starting a new ChainSegment. Requests made before the chain starts
    /// apply from its first iteration (they replace the first segment's settings).
    const LiveTuning *tuning = nullptr;
    /// The iteration number of the first row: > 0 for the later laps of a run until stopped
    /// (continuous_chain.h), whose results number their rows from 0 all the same.
    std::int64_t firstIteration = 0;
    /// > 0: the chain also ends (not stopped) once it has sampled this many seconds, pauses
    /// aside; `samples` is then the most it runs. The laps of a run until stopped are timed.
    double maxSeconds = 0.0;
    /// With a pace (PauseGate::setPace): the first iteration waits until then. A run until
    /// stopped passes each lap's ChainResult::nextPacedIteration on, so the pace holds across
    /// laps.
    std::chrono::steady_clock::time_point pacedFrom{};
    /// The lap of a run until stopped that first uses a new acceptance test: its first target
    /// segment is marked ChainSegment::kernelChanged.
    bool newKernel = false;
    /// Optional: asked every 64 iterations; true ends the chain there (not stopped), as a timed
    /// lap ends. A run of fixed length whose acceptance test is changed from another thread
    /// ends its lap this way and goes on in the next with the new test (continuous_chain.h).
    std::function<bool()> yieldRequested;
    /// A chain resumed at a checkpoint: its target starts at draw `resumeDraws` (a multiple of
    /// checkpointEvery) from θ = `resumeTheta`, the draw before it. The burn-in is run again
    /// (it is deterministic, and freezes the same proposal) and its last θ replaced by this one.
    std::int64_t resumeDraws = 0;
    Vector resumeTheta;
    /// The T the main proposal's scale was learned for, when not the chain's target T (0: that
    /// T): a later lap going on with a proposal re-learned in an earlier one
    /// (ChainResult::relearnedProposal).
    double proposalTemperature = 0.0;
};

struct ChainSettings : ChainControls {
    std::int64_t samples = 3000;   ///< iterations, one sample each (≥ 1)
    std::uint64_t seed = 1;
    double temperature = 1.0;      ///< T > 0
    /// The progress callback fires at most this often (and at the end).
    std::chrono::milliseconds progressInterval{40};
    /// Burn-in: the first `burnIn` iterations run at `burnInTemperature` (> 0) with
    /// `burnInProposal` (if set), then the chain continues at `temperature` with the main
    /// proposal. burnIn = 0: no burn-in. With burnInTemperature = temperature it is a plain
    /// warm-up at the target; above it, annealing (Seita et al., "Minibatch Acceptance Test" (later
    /// version), Sec. 6.2, Fig. 3 right). Either way its rows form a segment of their own, marked
    /// `burnIn`.
    std::int64_t burnIn = 0;
    double burnInTemperature = 0.0;
    const Proposal *burnInProposal = nullptr;
    /// Optional: an adaptive proposal that learns from the burn-in. It must be the proposal the
    /// burn-in runs with (the main one, burnInProposal unset): observe() follows every burn-in
    /// iteration and freeze() ends its adaptation where the burn-in ends, so the samples after
    /// it come from a fixed kernel. Ignored without a burn-in.
    AdaptiveProposal *adaptation = nullptr;
    /// A proposal frozen in an earlier lap of this chain (ChainInputs::keptProposal): copied
    /// into ChainResult::adaptation before the first iteration, so that every progress report
    /// of a later lap already carries what the burn-in learned, not only the lap's end.
    std::optional<LearnedProposal> frozenProposal;
    /// > 0: checkpoints every `checkpointEvery` iterations of the target (the first where the
    /// burn-in ends). At each the chain restarts its random stream from checkpointSeed(seed, k)
    /// and the minibatch samplers of its test and proposal from their initial order, so the
    /// chain from a checkpoint on depends on θ there alone (with the proposal the burn-in froze):
    /// a run cut short can be continued from its file exactly (`run --resume`). 0: one random
    /// stream for the whole chain, as always. Refused for a test that is not restartable().
    std::int64_t checkpointEvery = 0;
    /// A live change of T after the burn-in, under an adaptive proposal (AdaptiveProposal, the
    /// main one or a frozen one kept from an earlier lap): the proposal's scale is multiplied by
    /// √(T′/T) at once and learned again over this many iterations, a segment marked
    /// `relearning`, before it freezes and a target segment starts. 0: relearnLength(burnIn).
    std::int64_t relearnIterations = 0;
};

/// The iterations a re-adaptation after a live change of T runs for by default: a quarter of
/// the chain's burn-in, within [200, 2,000] (the scale alone is learned, from a rescaled guess,
/// which needs far fewer iterations than the burn-in's covariance did).
std::int64_t relearnLength(std::int64_t burnIn);

/// The seed of checkpoint k of a chain seeded `seed` (ChainSettings::checkpointEvery): distinct
/// streams for distinct (seed, k).
std::uint64_t checkpointSeed(std::uint64_t seed, std::int64_t checkpoint);

/// Throws std::invalid_argument naming the setting and its range.
void validate(const ChainSettings &settings);

/// A stretch of a chain run with one temperature and proposal step (see LiveTuning). An
/// annealing burn-in is a segment of its own, the first, marked `burnIn`; the segments after
/// it target the posterior.
struct ChainSegment {
    std::int64_t start = 0;   ///< first iteration of the segment
    double temperature = 0.0;
    double step = 0.0;        ///< the proposal's scale
    /// Wall-clock seconds from the chain's start to the segment's first iteration (0 for the
    /// first segment); a change made during a burn-in is timed when the burn-in ends.
    double startSeconds = 0.0;
    bool burnIn = false;      ///< rows sampled at the annealing schedule's T₀, not the target
    /// Rows where an adaptive proposal learned its scale again after a live change of T
    /// (ChainSettings::relearnIterations): they target the new T but come from a kernel still
    /// adapting, so a target segment follows where the scale freezes, and the figures, which
    /// describe the final segment, start there.
    bool relearning = false;
    /// The acceptance test changed here (a run until stopped, core/experiment/service/live_kernel.h).
    bool kernelChanged = false;
};

/// What a chain reports besides its rows: its counts, clocks, segments and learned proposal.
/// A result kept without rows (a request that keeps no samples) copies this part whole.
struct ChainTotals {
    std::int64_t completed = 0;
    /// The iteration number of row 0. 0 for a whole chain; for a lap or the moving window of a
    /// run until stopped, the iterations before it (row t is iteration firstIteration + t).
    std::int64_t firstIteration = 0;
    bool stopped = false;
    double wallSeconds = 0.0;                  ///< excludes pausedSeconds
    double pausedSeconds = 0.0;                ///< held by the pause gate so far
    double fullScanSeconds = 0.0;              ///< part of wallSeconds spent in full-data passes
    /// Σ Decision::boundViolations over every iteration (SMH, TunaMH): must stay 0.
    std::int64_t boundViolations = 0;
    /// Part of wallSeconds spent building the proposal before the first iteration (the Laplace
    /// fit of --proposal laplace-langevin): a user waits for it as for the burn-in.
    double setupSeconds = 0.0;
    /// With a pace: when the next iteration (the next lap's first) may start.
    std::chrono::steady_clock::time_point nextPacedIteration{};
    /// At least one; more when the temperature or step was changed during the run.
    std::vector<ChainSegment> segments;
    /// With ChainSettings::adaptation, the proposal as frozen at the end of the burn-in (empty
    /// when the chain stopped before). A lap that goes on with a proposal frozen in an earlier
    /// lap (ChainInputs::keptProposal) carries it too.
    std::optional<LearnedProposal> adaptation;
    /// After a re-adaptation (ChainSegment::relearning): the proposal as it froze, and the
    /// temperature it was learned for, so that the next lap of a run goes on with it.
    std::shared_ptr<const Proposal> relearnedProposal;
    double relearnedTemperature = 0.0;
    /// During the burn-in of an adaptive proposal: what it has learned so far, as of the last
    /// progress report, so that a live picture (the GUI's proposal ellipse) can follow the
    /// learning. Empty once the proposal is frozen, and without adaptation.
    std::optional<LearnedProposal> learning;
    /// A move that follows a continuous path (Proposal::takeRecentPath, the Zig-Zag process):
    /// the path since the previous progress report, its corners in order, so that a live picture
    /// can draw the piecewise-linear path between the draws. Empty for other moves.
    std::vector<Vector> recentPath;
};

/// Samples and per-iteration statistics of one chain. Row t of `samples` is θ after
/// iteration t; only the first `completed` rows are meaningful when a run was stopped.
struct ChainResult : ChainTotals {
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> samples;
    std::vector<std::int64_t> batchSize;       ///< points the test used at iteration t
    std::vector<std::int64_t> fullScanPoints;  ///< full-data pass points at iteration t
    std::vector<std::uint8_t> accepted;        ///< 0/1
    std::vector<std::uint8_t> fullDataFallback;///< 0/1
    /// FlyMC: the points bright after iteration t's z-update (Decision::brightPoints); empty for
    /// the tests without brightness variables.
    std::vector<std::int64_t> brightPoints;

    /// First iteration of the final segment: where statistics of the target start (after any
    /// burn-in, even when no live change followed it).
    std::int64_t finalSegmentStart() const { return segments.empty() ? 0 : segments.back().start; }
    /// The temperature row t was sampled at (its segment's): burn-in rows at T₀.
    double temperatureAt(std::int64_t t) const;
    /// Whether the temperature or step changed during the run: several target segments, or a
    /// first one (a chain started after a change) that differs from the configured values.
    bool retuned(double configuredTemperature, double configuredStep) const;
    bool hasBurnIn() const { return !segments.empty() && segments.front().burnIn; }
    /// Completed rows of the burn-in segment (0 without one): rows [0, burnInRows()) never
    /// describe the target.
    std::int64_t burnInRows() const
    {
        return hasBurnIn() && segments.size() > 1 ? std::min(segments[1].start, completed) : 0;
    }
    /// Segments that target the posterior (the burn-in aside).
    std::size_t targetSegmentCount() const;
};

/// Called on the running thread with the result so far and the rows [first, last) that are
/// new since the previous call. It must copy what it needs; it must not keep references.
using ChainProgressCallback = std::function<void(const ChainResult &, std::int64_t first, std::int64_t last)>;

/// Runs one chain. Throws std::invalid_argument for invalid settings; exceptions from the
/// model or test propagate.
ChainResult runChain(const Model &model, const Proposal &proposal, AcceptanceTest &test,
                     const ChainSettings &settings, std::stop_token stop = {},
                     const ChainProgressCallback &onProgress = {});

} // namespace core
