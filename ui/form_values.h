#pragma once
// How the settings forms show values that may lie outside a box's range or beyond its
// decimals (a 64-bit seed from a session, a huge N from the command line, a step with more
// digits): the box shows the value clamped and rounded, and the original is kept until the
// user edits the box.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include <QDoubleSpinBox>
#include <QSpinBox>

namespace ui {

/// The value a box shows for `value` (clamped to its range).
inline int shownValue(const QSpinBox *box, std::int64_t value)
{
    return static_cast<int>(std::clamp<std::int64_t>(value, box->minimum(), box->maximum()));
}

/// The box's value, or `original` while the box still shows it clamped.
inline std::int64_t keptValue(const QSpinBox *box, std::int64_t original)
{
    return box->value() == shownValue(box, original) ? original : box->value();
}

/// The same for a real-valued box, which also rounds to its decimals.
inline double keptValue(const QDoubleSpinBox *box, double original)
{
    const double scale = std::pow(10.0, box->decimals());
    const double shown = std::clamp(std::round(original * scale) / scale, box->minimum(), box->maximum());
    return std::abs(box->value() - shown) < 0.5 / scale ? original : box->value();
}

} // namespace ui
