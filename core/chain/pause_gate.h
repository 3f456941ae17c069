#pragma once
/// Pausing, single-stepping and pacing a running chain from another thread. The chain calls
/// wait() before every iteration: one relaxed atomic load while running; while paused it sleeps
/// on a condition variable until resumed, given step credits, or stopped.
///
/// Pacing is a teaching aid (the desktop app's speed slider in continuous mode): a chain that
/// sees pace() > 0 runs at most that many iterations per second, sleeping through
/// sleepUntil() between them. The time slept is sampling time at a slower speed, not a pause.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
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

    /// At most `iterationsPerSecond` iterations per second for every chain behind this gate;
    /// 0 (or anything not finite and > 0) runs at full speed. Wakes chains that are sleeping
    /// so that a faster pace applies at once.
    void setPace(double iterationsPerSecond);
    double pace() const { return m_pace.load(std::memory_order_relaxed); }
    /// Sleeps until `deadline`, a stop request, or a change of pace or pause state.
    void sleepUntil(std::chrono::steady_clock::time_point deadline, std::stop_token stop);

private:
    std::atomic<bool> m_paused{false};
    std::mutex m_mutex;
    std::condition_variable_any m_changed;
    int m_credits = 0;
    std::atomic<double> m_pace{0.0};
    std::uint64_t m_paceChanges = 0; ///< guarded by m_mutex: wakes sleepUntil()
};

} // namespace core
