#pragma once
// The checks the settings validators make on one number, in one wording ("step must be finite
// and > 0; got 0.000000"), so that every bad value is refused with a message naming the
// setting as the user types it and the value given.
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace core {

/// Throws std::invalid_argument unless `value` is finite and > 0.
inline void requireFinitePositive(std::string_view name, double value)
{
    if (!(value > 0.0) || !std::isfinite(value))
        throw std::invalid_argument(std::string(name) + " must be finite and > 0; got " + std::to_string(value));
}

/// Throws std::invalid_argument unless `value` ≥ `minimum`.
inline void requireAtLeast(std::string_view name, std::int64_t value, std::int64_t minimum)
{
    if (value < minimum)
        throw std::invalid_argument(std::string(name) + " must be >= " + std::to_string(minimum) + "; got "
                                    + std::to_string(value));
}

} // namespace core
