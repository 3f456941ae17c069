#pragma once
/// Changing the temperature or the proposal step of running chains from another thread (the
/// desktop app's controls during a run).
///
/// Why a change may be applied between two iterations: each iteration is a Metropolis–Hastings
/// transition that leaves its own target invariant (Seita et al., "Minibatch Acceptance Test", Sec.
/// 3). Switching T or the proposal scale only switches which valid kernel the next transitions use.
/// The samples before the switch target the old tempered posterior, those after it the new one,
/// started from the chain's current state (so they need a new burn-in before they are
/// stationary). The chain therefore records a new *segment* at the switch, and everything
/// that summarises a distribution (ESS, R-hat, posterior metrics) uses the final segment only.
///
/// Anything else (data, method, σ, seed…) changes the sampler itself and needs a new run.
#include <atomic>
#include <cmath>
#include <cstdint>
#include <mutex>

namespace core {

class LiveTuning {
public:
    /// The latest requested values; NaN where nothing was requested.
    struct Request {
        double temperature = std::nan("");
        double step = std::nan("");
        std::uint64_t version = 0; ///< 0 until the first request, then increasing
    };

    /// Throws std::invalid_argument unless T is finite and > 0.
    void setTemperature(double temperature);
    /// Throws std::invalid_argument unless the step is finite and > 0.
    void setStep(double step);
    /// Forgets earlier requests (before a new run); the version keeps increasing.
    void clear();

    /// One relaxed atomic load: cheap enough to call every iteration.
    std::uint64_t version() const { return m_version.load(std::memory_order_acquire); }
    Request latest() const;

private:
    void set(double Request::*field, const char *name, double value);

    mutable std::mutex m_mutex;
    Request m_request;
    std::atomic<std::uint64_t> m_version{0};
};

} // namespace core
