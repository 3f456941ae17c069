#include <chrono>
#include <csignal>
#include <thread>

#include "app/cli/commands.h"

namespace cli {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;
std::stop_source g_stopSource;

extern "C" void onSignal(int)
{
    g_interrupted = 1;
}

// A signal handler may only set a flag (request_stop is not async-signal-safe), and the
// progress callbacks that also poll it come every 64 iterations: 20 s and more for full-data
// MH on 10^6 points in an instrumented build, past what a cluster leaves between SIGTERM and
// SIGKILL. This thread turns the flag into a stop request within 20 ms, whatever the chain does.
void watchForSignals(const std::stop_token &own)
{
    while (!own.stop_requested() && !g_stopSource.stop_requested()) {
        if (g_interrupted) {
            g_stopSource.request_stop();
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

} // namespace

std::stop_token interruptToken()
{
    // Joined at exit: its loop ends on its own stop request.
    static std::jthread watcher = [] {
        std::signal(SIGINT, onSignal);
        std::signal(SIGTERM, onSignal);
        return std::jthread(watchForSignals);
    }();
    return g_stopSource.get_token();
}

void pollInterrupt()
{
    if (g_interrupted)
        g_stopSource.request_stop();
}

} // namespace cli
