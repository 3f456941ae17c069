#pragma once
/// How numbers are written where they must read back as the same bits: samples files' values
/// and headers, summaries' settings, the correction and design caches.
#include <string>

namespace core {

/// Formats a double so that reading it back gives the same bits (shortest round-trip form);
/// NaN and infinities as "nan", "inf", "-inf".
std::string formatRoundTrip(double value);

} // namespace core
