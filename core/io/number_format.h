#pragma once
/// How numbers are written: where they must read back as the same bits (samples files' values
/// and headers, summaries' settings, the correction and design caches), and where a person
/// reads them in a sentence.
#include <string>

namespace core {

/// Formats a double so that reading it back gives the same bits (shortest round-trip form);
/// NaN and infinities as "nan", "inf", "-inf".
std::string formatRoundTrip(double value);

/// `digits` significant digits, as printf's %.*g writes them (for sentences: "0.00336", "6.11e+05").
std::string formatSignificant(double value, int digits);

} // namespace core
