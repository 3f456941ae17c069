#pragma once
/// One chain of a configured run on a prepared dataset: the primitive the run service
/// (run_service.h) runs once per channel.
#include <array>
#include <chrono>
#include <memory>
#include <optional>
#include <stop_token>

#include "core/chain/chain_runner.h"
#include "core/diagnostics/chain_summary.h"
#include "core/experiment/inputs/datasets.h"
#include "core/experiment/inputs/laplace_fits.h"
#include "core/models/control_variates.h"

namespace core {

/// What one chain needs besides its settings and data: the correction table (minibatch method
/// only), AustereMH(nc)'s designer, its stop token and progress callback, and what starts and
/// steers it from outside (ChainControls: its start and first iteration, a resumed draw, the
/// pause gate, live tuning, a lap's time limit and pace), passed on to the chain whole.
struct ChainInputs : ChainControls {
    std::shared_ptr<const CorrectionDistribution> correction;
    std::shared_ptr<const AustereDesigner> designer;
    std::stop_token stop;
    ChainProgressCallback onProgress;
    /// Set: the acceptance test to use, built for this config (makeAcceptanceTest), instead of
    /// a new one. The laps of a run until stopped share one: building a test allocates and
    /// clears buffers of N entries, which at N = 10⁶ would cost a lap a good part of its time.
    AcceptanceTest *test = nullptr;
    /// Set: where the chain's proposal is kept between the laps of one chain. Empty, it
    /// receives the proposal built for this lap; filled, the lap goes on with it. What an
    /// adaptive proposal learned during the burn-in, and a Laplace fit, then last the whole
    /// chain: a lap after a kernel change must not start learning (or fitting) again.
    std::unique_ptr<Proposal> *keptProposal = nullptr;
    /// The dataset's model with Taylor-proxy control variates of order 1 and 2 (index 1, 2;
    /// control_variates.h), built once per request where a channel's settings ask for them. A
    /// chain whose config resolves to control variates has its acceptance test read that model,
    /// and starts at the proxies' anchor θ̂ (the posterior mode) unless initialTheta is set.
    std::array<std::shared_ptr<const ControlVariateModel>, 3> controlVariates;
    /// The Laplace fit at the request's temperature, made once for all its chains (and kept for
    /// the runs after it on the same data, PreparedData::laplaceFits): a laplace-* proposal is
    /// built around it instead of fitting its own. Null: each builds its own. A chain's set-up
    /// time counts the fit's own seconds either way, so that its figures per second do not
    /// depend on whether this run or an earlier one paid for the fit.
    std::shared_ptr<const TimedLaplaceFit> laplace;
    /// The posterior mode when the request found it: TunaMH and FlyMC chains without proxies
    /// start there too (every chain of a comparison starts at θ̂), and FlyMC tunes its bounds there.
    Vector posteriorMode;
};

/// validate(config), for a lap of a chain that goes on with `kept`, the proposal its earlier
/// laps used (ChainInputs::keptProposal; null: a chain's first lap). An adaptive proposal that
/// is frozen, or whose burn-in has ended, needs no burn-in of the lap's own, and the target
/// acceptance it was steered to no longer depends on the lap's test.
void validateLap(const RunConfig &config, const Proposal *kept);

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
