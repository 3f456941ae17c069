#include "ui/panel/spin_box_values.h"

#include <QComboBox>

#include <algorithm>
#include <cmath>

#include <QDoubleSpinBox>
#include <QSpinBox>

#include "ui/panel/checked_spin_box.h"

namespace ui {

int shownValue(const QSpinBox *box, std::int64_t value)
{
    return static_cast<int>(std::clamp<std::int64_t>(value, box->minimum(), box->maximum()));
}

std::int64_t keptValue(const QSpinBox *box, std::int64_t original)
{
    return box->value() == shownValue(box, original) ? original : box->value();
}

int shownSeed(const QSpinBox *box, std::uint64_t seed)
{
    return static_cast<int>(std::min<std::uint64_t>(seed, static_cast<std::uint64_t>(box->maximum())));
}

double keptValue(const QDoubleSpinBox *box, double original)
{
    const double scale = std::pow(10.0, box->decimals());
    const double shown = std::clamp(std::round(original * scale) / scale, box->minimum(), box->maximum());
    return std::abs(box->value() - shown) < 0.5 / scale ? original : box->value();
}

QSpinBox *integerBox(int minimum, int maximum, int step)
{
    auto *box = new CheckedSpinBox;
    box->setRange(minimum, maximum);
    box->setSingleStep(step);
    box->setGroupSeparatorShown(true);
    box->setAccelerated(true);
    return box;
}

QDoubleSpinBox *realBox(int decimals, double minimum, double maximum, double step)
{
    auto *box = new CheckedDoubleSpinBox;
    box->setDecimals(decimals);
    box->setRange(minimum, maximum);
    box->setSingleStep(step);
    return box;
}

QComboBox *narrowComboBox()
{
    auto *box = new QComboBox;
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(14);
    return box;
}

} // namespace ui
