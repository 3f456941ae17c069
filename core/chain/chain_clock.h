#pragma once
/// A chain's clock: the sampling time since its start with pauses left out, and the slots a
/// pace (PauseGate::setPace) lets iterations start in. The layer of the chain loop that waits.
#include <chrono>
#include <stop_token>

#include "core/chain/pause_gate.h"

namespace core {

class ChainClock {
public:
    using Clock = std::chrono::steady_clock;

    /// `gate` may be null (no pause, no pace); with a pace the first iteration waits until
    /// `pacedFrom`.
    ChainClock(PauseGate *gate, Clock::time_point pacedFrom);

    /// Before an iteration: sleeps until the pace's next slot, then through a pause (the time
    /// paused is returned and moves the start on, so that sampling time leaves it out). A
    /// slow iteration that falls behind the pace earns no burst of catch-up iterations.
    double waitTurn(std::stop_token stop);
    /// Seconds sampled since the start, pauses aside.
    double seconds() const { return std::chrono::duration<double>(Clock::now() - m_start).count(); }
    Clock::time_point started() const { return m_start; }
    /// When the next iteration may start under the pace (carried to a run's next lap).
    Clock::time_point nextSlot() const { return m_nextSlot; }
    /// Single-stepping: paused, each iteration let through by a step credit.
    bool stepping() const { return m_gate && m_gate->paused(); }
    bool pacing() const { return m_gate && m_gate->pace() > 0.0; }

private:
    PauseGate *m_gate;
    Clock::time_point m_start = Clock::now();
    Clock::time_point m_nextSlot;
};

} // namespace core
