#include "core/chain/pause_gate.h"

#include <chrono>
#include <cmath>

namespace core {

void PauseGate::pause()
{
    {
        const std::lock_guard lock(m_mutex);
        m_paused = true;
        m_credits = 0;
    }
    m_changed.notify_all(); // a chain sleeping out its pace holds at once
}

void PauseGate::resume()
{
    {
        const std::lock_guard lock(m_mutex);
        m_paused = false;
        m_credits = 0;
    }
    m_changed.notify_all();
}

void PauseGate::step(int iterations)
{
    {
        const std::lock_guard lock(m_mutex);
        if (m_paused && iterations > 0)
            m_credits += iterations;
    }
    m_changed.notify_all();
}

void PauseGate::setPace(double iterationsPerSecond)
{
    {
        const std::lock_guard lock(m_mutex);
        m_pace.store(iterationsPerSecond > 0.0 && std::isfinite(iterationsPerSecond) ? iterationsPerSecond : 0.0,
                     std::memory_order_relaxed);
        ++m_paceChanges;
    }
    m_changed.notify_all();
}

void PauseGate::sleepUntil(std::chrono::steady_clock::time_point deadline, std::stop_token stop)
{
    std::unique_lock lock(m_mutex);
    const std::uint64_t changes = m_paceChanges;
    const bool paused = m_paused;
    m_changed.wait_until(lock, stop, deadline, [&] { return m_paceChanges != changes || m_paused != paused; });
}

double PauseGate::wait(std::stop_token stop)
{
    if (!m_paused.load(std::memory_order_relaxed))
        return 0.0;
    const auto start = std::chrono::steady_clock::now();
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, stop, [this] { return !m_paused || m_credits > 0; });
    if (m_paused && m_credits > 0)
        --m_credits;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace core
