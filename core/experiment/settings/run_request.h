#pragma once
/// What the run service runs (see run_service.h): one or more methods on the same data, each
/// with one or more chains. A single run, a multi-chain run and a compare of methods over
/// trials are the same request with different sizes.
///
/// Chain k of every method uses seed + k, so methods are compared on identical random streams
/// where they consume them alike. Each (method, chain) pair is a "channel", numbered method by
/// method: channel = methodIndex · chains + chainIndex.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/experiment/settings/run_config.h"

namespace core {

struct RunRequest {
    /// Most chains per method: a compare's trials are chains, and 10⁴ trials is already a
    /// long table.
    static constexpr int kMaxChains = 10'000;
    /// Most methods in one request: each is a column of a table or a colour of a chart.
    static constexpr int kMaxMethods = 8;

    RunConfig config;                  ///< shared settings; config.method is the first method
    std::vector<TestMethod> methods;   ///< run on the same data, in this order
    /// Per entry of `methods`, its control variates (so that "minibatch" and
    /// "minibatch+taylor2" can run side by side); empty: every method takes
    /// config.controlVariates.
    std::vector<ControlVariates> controlVariates;
    /// Per entry of `methods`, a step chosen once the data are loaded (SGLD's and SGHMC's, by
    /// their forecast: RunConfig::sgStepBias); empty, or 0 for an entry: config.step.
    std::vector<double> methodSteps;
    int chains = 1;                    ///< per method, seeds seed, seed + 1, …
    /// Run channels concurrently on up to `threads` threads (0: one per core).
    bool parallel = false;
    int threads = 0;
    /// False: a chain's samples are dropped once its figures are computed (a compare over many
    /// trials of a high-dimensional model would otherwise hold every trial in memory). R-hat and
    /// sample files need them.
    bool keepSamples = true;
    /// Take the correction table from the on-disk cache and store a solved one there (the
    /// CLI's --no-cache turns it off). It changes where the table comes from, not the table.
    bool useCorrectionCache = true;
    /// Run until stopped (continuous_chain.h): every channel runs at once, on until the stop,
    /// and `config.samples` is the moving window of most recent samples that each chain keeps
    /// and its figures describe. The outcome of such a run is the normal end of a stop.
    bool untilStopped = false;
    /// A chain continued from its samples file at a checkpoint (`run --resume`): the draws it
    /// had, a multiple of config.checkpointEvery, and the last of them. One channel only.
    std::int64_t resumeDraws = 0;
    Vector resumeTheta;
    /// Most channels of a run until stopped: each needs a thread of its own.
    static constexpr int kMaxContinuousChannels = 16;

    /// One method, one chain.
    static RunRequest single(const RunConfig &config);
    int channelCount() const { return static_cast<int>(methods.size()) * chains; }
    int methodIndexOf(int channel) const { return chains > 0 ? channel / chains : 0; }
    int chainIndexOf(int channel) const { return chains > 0 ? channel % chains : 0; }
    /// The settings of one channel: its method, its control variates and its seed.
    RunConfig channelConfig(int channel) const;
    /// The settings of method entry `index` (its method, control variates and any chosen step;
    /// config's seed).
    RunConfig methodConfig(std::size_t index) const;
    /// How tables, charts and file names call method entry `index`: "minibatch", or
    /// "minibatch+taylor2" when it runs with control variates.
    std::string methodLabel(std::size_t index) const;
    /// How many channels run at once.
    int concurrency() const;
};

/// Throws std::invalid_argument naming the problem (no methods, too many, a repeated method,
/// chains or threads out of range) and runs core::validate on every method's settings.
void validate(const RunRequest &request);

} // namespace core
