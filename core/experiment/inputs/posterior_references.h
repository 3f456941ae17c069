#pragma once
/// The binned exact posteriors of the mixture's data, one per temperature, built when first
/// asked for (about a second each) and shared by the chains of a request, or by the requests
/// of a sweep on the same data (RunInputCache, run_input_cache.h). A chain is measured
/// over its final segment against the posterior at that segment's temperature: after a live
/// temperature change or an annealing burn-in, that is the target the chain was sampling.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>

#include "core/chain/chain_runner.h"
#include "core/diagnostics/gmm_posterior.h"

namespace core {

class PosteriorReferences {
public:
    /// `data` must outlive this object. `known` (optional) is a posterior already built for
    /// this data, reused at its temperature.
    explicit PosteriorReferences(const Eigen::VectorXd &data,
                                 std::shared_ptr<const GaussianMixturePosterior> known = nullptr);

    /// Thread-safe; builds the posterior at `temperature` on the calling thread the first time.
    /// Callers asking for the same temperature meanwhile wait for that build; other
    /// temperatures build at the same time on their own threads. A build that `stop` ends
    /// throws Cancelled and keeps nothing: the next caller builds it.
    std::shared_ptr<const GaussianMixturePosterior> at(double temperature, std::stop_token stop = {});

    /// The final segment's completed rows against the posterior at its temperature; empty when
    /// the final segment has no completed rows.
    std::optional<PosteriorMetrics> measureFinalSegment(const ChainResult &chain);

private:
    struct Slot {
        std::mutex build; // held while this temperature's posterior is made
        std::shared_ptr<const GaussianMixturePosterior> posterior;
    };

    const Eigen::VectorXd &m_data;
    std::mutex m_mutex; // guards the map, not the builds
    std::map<double, std::shared_ptr<Slot>> m_byTemperature;
};

} // namespace core
