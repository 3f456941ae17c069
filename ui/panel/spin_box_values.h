#pragma once
// Settings shown in spin boxes whose range or precision is smaller than the setting's: the box
// shows the value clamped or rounded, and the original survives until the user edits the box.
#include <cstdint>

#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
QT_END_NAMESPACE

namespace ui {

/// The value a box shows for `value` (clamped to its range).
int shownValue(const QSpinBox *box, std::int64_t value);
/// A box's value, or `original` when the box still shows it clamped: settings beyond the box's
/// range (a 64-bit seed from a session, a huge N from the command line) survive until edited.
std::int64_t keptValue(const QSpinBox *box, std::int64_t original);
/// The seed box holds 31 bits; larger seeds show clamped.
int shownSeed(const QSpinBox *box, std::uint64_t seed);
/// The same for a real-valued box, which rounds to its decimals: a value with more digits
/// (from a session or the command line) is kept exactly until the user edits it.
double keptValue(const QDoubleSpinBox *box, double original);
/// An integer box with thousands separators and accelerated arrows (a CheckedSpinBox: typed
/// text out of range is kept and refused, never corrected).
QSpinBox *integerBox(int minimum, int maximum, int step);
/// A real box with `decimals` digits after the point, its range and its arrows' step (a
/// CheckedDoubleSpinBox).
QDoubleSpinBox *realBox(int decimals, double minimum, double maximum, double step);
/// A combo box as narrow as a short entry: the panel never drops below its form's minimum
/// width (MainWindow::fitToScreen), and the longest entry would set that minimum for every row.
QComboBox *narrowComboBox();

} // namespace ui
