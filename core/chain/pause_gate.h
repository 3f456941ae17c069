#pragma once
/// Pausing and single-stepping a running chain from another thread. The chain calls wait()
/// before every iteration: one relaxed atomic load while running; while paused it sleeps on a
/// condition variable until resumed, given step credits, or stopped.
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <stop_token>

namespace core {

class PauseGate {
public:
    void pause();
    /// Lets the chain run freely again (and drops unused step credits).
    void resume();
    /// While paused, lets `iterations` more iterations through, then holds again.
    void step(int iterations = 1);
    bool paused() const { return m_paused.load(std::memory_order_relaxed); }

    /// Blocks while paused and no step credit is left; returns at once on a stop request.
    /// Returns the seconds it blocked (0 without reading the clock when not paused), so that
    /// speeds and wall times can leave the paused time out.
    double wait(std::stop_token stop);

private:
    std::atomic<bool> m_paused{false};
    std::mutex m_mutex;
    std::condition_variable_any m_changed;
    int m_credits = 0;
};

} // namespace core
