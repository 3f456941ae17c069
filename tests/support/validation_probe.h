#pragma once
// What validation says of a configuration, for tests that walk tables of settings.
#include <stdexcept>
#include <string>

#include "core/experiment/settings/run_config.h"

namespace testsupport {

/// The message validate() refuses `config` with; empty when it accepts it.
inline std::string refusal(const core::RunConfig &config)
{
    try {
        core::validate(config);
    } catch (const std::invalid_argument &error) {
        return error.what();
    }
    return {};
}

inline bool validates(const core::RunConfig &config)
{
    return refusal(config).empty();
}

} // namespace testsupport
