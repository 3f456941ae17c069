#pragma once
// Spin boxes that never turn what the user typed into another value. Qt's own boxes drop a
// keystroke that makes the text out of range (typing "-5" into a box of positive values gives
// "5") and put the old value back when an out-of-range entry is confirmed or left. These keep
// the text as typed instead, marked, with the box's value unchanged: the value is the last one
// the user confirmed, and the panel refuses to run while any box shows text that is not its
// value (ControlPanel::inputProblem). Esc puts the value back into the text. Typed text counts
// once confirmed (Enter, or the focus leaving): keyboard tracking is off.
#include <functional>

#include <QDoubleSpinBox>
#include <QSpinBox>

namespace ui {

/// Says when a checked box's text is refused or a refusal ends: the box's child, since the box
/// is a class template and a template cannot declare Qt signals.
class RefusalSignal : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

signals:
    /// The text was refused (Enter, or the focus left), or a refusal ended (empty).
    void refusalChanged(const QString &refusal);
};

/// Base: QSpinBox or QDoubleSpinBox (the two instances below).
template <typename Base>
class CheckedBox : public Base {
public:
    explicit CheckedBox(QWidget *parent = nullptr);
    QValidator::State validate(QString &text, int &pos) const override;
    /// Why the text shown is not the box's value ("“-5” is outside 1 … 4"); empty when it is.
    QString refusal() const;
    RefusalSignal *refusals() const { return m_refusals; }

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;

private:
    RefusalSignal *m_refusals;
};

extern template class CheckedBox<QSpinBox>;
extern template class CheckedBox<QDoubleSpinBox>;
using CheckedSpinBox = CheckedBox<QSpinBox>;
using CheckedDoubleSpinBox = CheckedBox<QDoubleSpinBox>;

/// The refusal of `box` when it is one of the above; empty otherwise.
QString refusalOf(const QAbstractSpinBox *box);
/// The first enabled box under `form` that shows refused text, said as "Samples: “-5” is outside
/// 1 … 10,000,000. Type a value in range, or press Esc for the one in use." with the name
/// `nameOf` gives the box; empty when every box shows its value. A form runs nothing while this
/// says something: it would run with values the user does not see.
QString firstRefusal(const QWidget &form, const std::function<QString(const QAbstractSpinBox *)> &nameOf);
/// Whether `text` (a box's text as typed) is a whole number outside the box's range, for a box
/// above: what a range message can name while the user is still typing ("-5", not "-").
bool isNumberOutOfRange(const QAbstractSpinBox *box, const QString &text);

} // namespace ui
