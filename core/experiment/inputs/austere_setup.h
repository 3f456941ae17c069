#pragma once
/// Preparing AustereMH for a run (Korattikara et al., "Austerity in MCMC Land", supplement Sec. D;
/// Seita et al., "Minibatch Acceptance Test", Sec. 6.1 and its appendix C.2.1): the design grid for
/// the run's N (cached on disk), and for the conservative variant with an error bound, the pilot
/// that fixes (m, ε) in advance. Shared by the CLI and the desktop app.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>

#include "core/acceptance/austere_designer.h"
#include "core/experiment/inputs/datasets.h"
#include "core/experiment/settings/run_config.h"

namespace core {

struct AustereSetup {
    std::shared_ptr<const AustereDesigner> designer; ///< null when the method needs none
    bool designFromCache = false;
    /// AustereMH(c) under a bound: the chosen design (also written into config.austere).
    std::optional<AustereCandidate> conservativeChoice;
    std::size_t pilotProposals = 0;
};

struct AustereSetupProgress {
    std::function<void(double)> design; ///< tabulating the grid (skipped when cached)
    std::function<void(double)> pilot;  ///< the conservative design's pilot chain
};

/// Does nothing unless needsAustereDesign(config). Otherwise loads or tabulates the grid for
/// the dataset's N, and for AustereMH(c) runs config.austerePilot pilot proposals from the
/// model's initial θ and sets config.austere to the cheapest design whose mean |ΔP| is within
/// config.austereErrorBound (the most accurate one if none is). Throws core::Cancelled on a
/// stop request.
/// A `designer` already built for this dataset (another method of the same run) is reused.
AustereSetup prepareAustere(RunConfig &config, const DatasetInstance &dataset, const AustereSetupProgress &progress = {},
                            std::stop_token stop = {}, std::shared_ptr<const AustereDesigner> designer = nullptr);

} // namespace core
