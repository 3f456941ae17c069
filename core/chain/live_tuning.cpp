#include "core/chain/live_tuning.h"

#include <stdexcept>
#include <string>

#include "core/validation/range_checks.h"

namespace core {
void LiveTuning::setTemperature(double temperature)
{
    set(&Request::temperature, "temperature", temperature);
}

void LiveTuning::setStep(double step)
{
    set(&Request::step, "step", step);
}

void LiveTuning::set(double Request::*field, const char *name, double value)
{
    requireFinitePositive(name, value);
    const std::lock_guard lock(m_mutex);
    m_request.*field = value;
    m_request.version = m_version.load(std::memory_order_relaxed) + 1;
    m_version.store(m_request.version, std::memory_order_release);
}

void LiveTuning::clear()
{
    const std::lock_guard lock(m_mutex);
    const std::uint64_t version = m_request.version;
    m_request = Request{};
    // Chains compare versions only with what they saw last; keeping the counter monotonic
    // means a chain that saw a request before the clear cannot mistake the cleared state
    // for "nothing new".
    m_request.version = version;
}

LiveTuning::Request LiveTuning::latest() const
{
    const std::lock_guard lock(m_mutex);
    return m_request;
}

} // namespace core
