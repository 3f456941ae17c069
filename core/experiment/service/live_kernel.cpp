#include "core/experiment/service/live_kernel.h"

namespace core {

void copyKernelSettings(const RunConfig &from, RunConfig &to)
{
    to.method = from.method;
    to.minibatch = from.minibatch;
    to.austere = from.austere;
    to.austereErrorBound = from.austereErrorBound;
    to.austerePilot = from.austerePilot;
    to.sublhd = from.sublhd;
    to.correction = from.correction;
}

bool sameKernel(const RunConfig &a, const RunConfig &b)
{
    return a.method == b.method && a.minibatch == b.minibatch && a.austere == b.austere
           && a.austereErrorBound == b.austereErrorBound && a.austerePilot == b.austerePilot && a.sublhd == b.sublhd
           && a.correction == b.correction;
}

void LiveKernel::set(const RunConfig &config)
{
    validate(config);
    const std::lock_guard lock(m_mutex);
    m_latest = config;
    m_version.fetch_add(1, std::memory_order_acq_rel);
}

void LiveKernel::clear()
{
    const std::lock_guard lock(m_mutex);
    m_latest.reset();
}

std::optional<RunConfig> LiveKernel::latest() const
{
    const std::lock_guard lock(m_mutex);
    return m_latest;
}

} // namespace core
