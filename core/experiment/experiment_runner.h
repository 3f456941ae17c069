#pragma once
/// One chain of a configured run on a prepared dataset: the primitive the run service
/// (run_service.h) runs once per channel.
#include <chrono>
#include <memory>
#include <optional>
#include <stop_token>

#include "core/chain/chain_runner.h"
#include "core/diagnostics/chain_summary.h"
#include "core/experiment/datasets.h"

namespace core {

/// What one chain needs besides its settings and data: the correction table (minibatch method
/// only), AustereMH(nc)'s designer, and the optional controls of ChainSettings.
struct ChainInputs {
    std::shared_ptr<const CorrectionDistribution> correction;
    std::shared_ptr<const AustereDesigner> designer;
    std::stop_token stop;
    ChainProgressCallback onProgress;
    PauseGate *pauseGate = nullptr;
    const LiveTuning *tuning = nullptr;
    /// Where the chain starts (empty: the model's initial θ) and the iteration number of its
    /// first row: the laps of a run until stopped go on from the previous lap.
    Vector initialTheta;
    std::int64_t firstIteration = 0;
    double maxSeconds = 0.0; ///< see ChainSettings::maxSeconds
    std::chrono::steady_clock::time_point pacedFrom{}; ///< see ChainSettings::pacedFrom
    bool newKernel = false;                             ///< see ChainSettings::newKernel
    std::function<bool()> yieldRequested;               ///< see ChainSettings::yieldRequested
    /// Set: the acceptance test to use, built for this config (makeAcceptanceTest), instead of
    /// a new one. The laps of a run until stopped share one: building a test allocates and
    /// clears buffers of N entries, which at N = 10⁶ would cost a lap a good part of its time.
    AcceptanceTest *test = nullptr;
};

/// Runs `config.method` on `dataset` with seed `config.seed`, the burn-in (annealed from
/// config.annealFrom, or at config.temperature when that is 0) and the step of `config`. Throws std::invalid_argument for invalid settings.
ChainResult runConfiguredChain(const RunConfig &config, const DatasetInstance &dataset, const ChainInputs &inputs);

struct ExperimentOutcome {
    ChainResult chain;
    ChainSummary summary;
    std::optional<PosteriorMetrics> posterior; ///< gmm with a reference posterior only
};

/// runConfiguredChain, summarised, and for a dataset made with its reference posterior the
/// final segment measured against the exact posterior at the final segment's temperature
/// (PosteriorReferences), as the run service measures it.
ExperimentOutcome runExperiment(const RunConfig &config, const DatasetInstance &dataset,
                                std::shared_ptr<const CorrectionDistribution> correction, std::stop_token stop = {},
                                const ChainProgressCallback &onProgress = {});

} // namespace core
