#pragma once
/// Changing the acceptance test of a running chain (continuous_chain.h: a run until stopped,
/// or a run of fixed length in the desktop app) from another thread: the method, the correction's σ, λ and solver, the minibatch test's m, growth and δ,
/// and the baselines' settings.
///
/// Why the chain may go on rather than restart: every one of these kernels leaves the same
/// tempered posterior invariant (exactly, or up to the test's documented approximation; Seita
/// et al., "Minibatch Acceptance Test", Sec. 4–5), so switching between them between two iterations
/// only changes which valid transition the next iterations use, as a temperature or step change
/// does (live_tuning.h). The chain records a new segment where the change applies. Only the data
/// (dataset, N, data seed, files) define the target and need a new run.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>

#include "core/experiment/settings/run_config.h"

namespace core {

/// Copies the kernel settings (see above) of `from` into `to`; the data, chain and schedule
/// settings of `to` stay.
void copyKernelSettings(const RunConfig &from, RunConfig &to);

/// True when `a` and `b` have the same kernel settings.
bool sameKernel(const RunConfig &a, const RunConfig &b);

class LiveKernel {
public:
    /// The kernel settings of `config` apply from the chains' next lap. Throws
    /// std::invalid_argument (naming the setting and its range) for invalid settings.
    void set(const RunConfig &config);
    /// Forgets earlier requests (before a new run); the version keeps increasing.
    void clear();

    /// One atomic load: cheap enough to call at every lap.
    std::uint64_t version() const { return m_version.load(std::memory_order_acquire); }
    /// The latest requested settings, if any since the last clear().
    std::optional<RunConfig> latest() const;

private:
    mutable std::mutex m_mutex;
    std::optional<RunConfig> m_latest;
    std::atomic<std::uint64_t> m_version{0};
};

} // namespace core
