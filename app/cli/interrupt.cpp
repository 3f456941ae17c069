#include <csignal>

#include "app/cli/commands.h"

namespace cli {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;
std::stop_source g_stopSource;

extern "C" void onSignal(int)
{
    g_interrupted = 1;
}

} // namespace

std::stop_token interruptToken()
{
    static const bool installed = [] {
        std::signal(SIGINT, onSignal);
        std::signal(SIGTERM, onSignal);
        return true;
    }();
    (void)installed;
    return g_stopSource.get_token();
}

void pollInterrupt()
{
    if (g_interrupted)
        g_stopSource.request_stop();
}

} // namespace cli
