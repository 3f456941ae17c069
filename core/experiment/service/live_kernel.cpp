#include "core/experiment/service/live_kernel.h"

#include <tuple>

namespace core {
namespace {

// The kernel settings of `config` (see the header), listed once so that copying and comparing
// them cannot drift apart: references into `config`, const or not as `config` is.
template <typename Config>
auto kernelSettings(Config &config)
{
    return std::tie(config.method, config.minibatch, config.austere, config.austereErrorBound, config.austerePilot,
                    config.sublhd, config.correction);
}

} // namespace

void copyKernelSettings(const RunConfig &from, RunConfig &to)
{
    kernelSettings(to) = kernelSettings(from);
}

bool sameKernel(const RunConfig &a, const RunConfig &b)
{
    return kernelSettings(a) == kernelSettings(b);
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
