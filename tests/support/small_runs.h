#pragma once
// Settings for GUI tests that run real chains: the paper's N/T = 100 on a data set small
// enough to finish in about a second.
#include "core/experiment/settings/run_config.h"

namespace testruns {

// Waits are upper bounds on how long a run may take, never measurements. Sanitizer builds run
// several times slower (more again when other builds share the cores), so they wait longer.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr int kWaitScale = 10;
#else
inline constexpr int kWaitScale = 1;
#endif

inline constexpr int kRunTimeoutMs = 60'000 * kWaitScale;

inline core::RunConfig smallConfig(core::TestMethod method, std::int64_t samples)
{
    core::RunConfig config;
    config.method = method;
    config.nData = 20'000;
    config.temperature = 200.0;
    config.samples = samples;
    config.seed = 7;
    return config;
}

} // namespace testruns
