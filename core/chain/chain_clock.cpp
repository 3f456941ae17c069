#include "core/chain/chain_clock.h"

#include <algorithm>

namespace core {

ChainClock::ChainClock(PauseGate *gate, Clock::time_point pacedFrom) : m_gate(gate), m_nextSlot(pacedFrom) {}

double ChainClock::waitTurn(std::stop_token stop)
{
    if (!m_gate)
        return 0.0;
    if (m_gate->pace() > 0.0) {
        auto now = Clock::now();
        if (m_nextSlot > now) {
            m_gate->sleepUntil(m_nextSlot, stop);
            now = Clock::now();
            m_nextSlot = std::min(m_nextSlot, now); // woken early by a new pace: it applies now
        }
        const double pace = m_gate->pace();
        if (pace > 0.0)
            m_nextSlot = std::max(m_nextSlot, now)
                         + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / pace));
    }
    const double paused = m_gate->wait(stop);
    if (paused > 0.0)
        m_start += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(paused));
    return paused;
}

} // namespace core
