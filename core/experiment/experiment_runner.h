#pragma once
/// One chain of a configured run on a prepared dataset, with its summary and, for the
/// mixture, the posterior metrics. Shared by the CLI's run and compare commands.
#include <memory>
#include <optional>
#include <stop_token>

#include "core/chain/chain_runner.h"
#include "core/diagnostics/chain_summary.h"
#include "core/experiment/datasets.h"

namespace core {

struct ExperimentOutcome {
    ChainResult chain;
    ChainSummary summary;
    std::optional<PosteriorMetrics> posterior; ///< gmm with a reference posterior only
};

/// Runs `config.method` on `dataset` with seed `config.seed`. `correction` is needed by the
/// minibatch method only, `designer` by AustereMH(nc); `pauseGate` and `tuning` are the
/// optional controls of ChainSettings. The posterior metrics cover the final segment, and
/// only while its temperature is still config.temperature (the reference's). Throws
/// std::invalid_argument for invalid settings.
ExperimentOutcome runExperiment(const RunConfig &config, const DatasetInstance &dataset,
                                std::shared_ptr<const CorrectionDistribution> correction, std::stop_token stop = {},
                                const ChainProgressCallback &onProgress = {},
                                std::shared_ptr<const AustereDesigner> designer = nullptr,
                                PauseGate *pauseGate = nullptr, const LiveTuning *tuning = nullptr);

} // namespace core
