#pragma once
// The checks the settings validators and constructors make on one value, in one wording ("step must be finite
// and > 0; got 0.000000"), so that every bad value is refused with a message naming the
// setting as the user types it and the value given.
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

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

/// Returns `pointer`, or throws std::invalid_argument(`message`) when it is null: for the
/// members a constructor must be given.
template <typename Pointer>
Pointer requireGiven(Pointer pointer, const char *message)
{
    if (!pointer)
        throw std::invalid_argument(message);
    return pointer;
}

/// Throws std::invalid_argument unless every entry of `values` is finite and ≥ 0 ("masses must
/// be finite and >= 0"); returns their sum, accumulated in long double for the callers' checks
/// on the total.
inline long double requireNonNegativeSum(std::string_view name, const std::vector<double> &values)
{
    long double total = 0.0L;
    for (const double value : values) {
        if (!std::isfinite(value) || value < 0.0)
            throw std::invalid_argument(std::string(name) + " must be finite and >= 0");
        total += value;
    }
    return total;
}

} // namespace core
