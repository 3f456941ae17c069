#pragma once
// Spin boxes that never turn what the user typed into another value. Qt's own boxes drop a
// keystroke that makes the text out of range (typing "-5" into a box of positive values gives
// "5") and put the old value back when an out-of-range entry is confirmed or left. These keep
// the text as typed instead, marked, with the box's value unchanged: the value is the last one
// the user confirmed, and the panel refuses to run while any box shows text that is not its
// value (ControlPanel::inputProblem). Esc puts the value back into the text. Typed text counts
// once confirmed (Enter, or the focus leaving): keyboard tracking is off.
#include <QDoubleSpinBox>
#include <QSpinBox>

namespace ui {

class CheckedSpinBox : public QSpinBox {
    Q_OBJECT
public:
    explicit CheckedSpinBox(QWidget *parent = nullptr);
    QValidator::State validate(QString &text, int &pos) const override;
    /// Why the text shown is not the box's value ("“-5” is outside 1 … 4"); empty when it is.
    QString refusal() const;

signals:
    /// The text was refused (Enter, or the focus left), or a refusal ended (empty).
    void refusalChanged(const QString &refusal);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;
};

class CheckedDoubleSpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    explicit CheckedDoubleSpinBox(QWidget *parent = nullptr);
    QValidator::State validate(QString &text, int &pos) const override;
    QString refusal() const;

signals:
    void refusalChanged(const QString &refusal);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;
};

/// The refusal of `box` when it is one of the above; empty otherwise.
QString refusalOf(const QAbstractSpinBox *box);
/// Whether `text` (a box's text as typed) is a whole number outside the box's range, for a box
/// above: what a range message can name while the user is still typing ("-5", not "-").
bool isNumberOutOfRange(const QAbstractSpinBox *box, const QString &text);

} // namespace ui
