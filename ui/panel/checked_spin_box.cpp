#include "ui/panel/checked_spin_box.h"

#include <algorithm>

#include <QKeyEvent>
#include <QLineEdit>
#include <QLocale>
#include <QPalette>

namespace ui {
namespace {

// Text a box of numbers may hold on the way to a number: digits, signs, the locale's decimal
// point and group separator, spaces. Anything else (letters) stays refused keystroke by
// keystroke, as in Qt's boxes.
bool looksNumeric(const QString &text)
{
    const QLocale locale;
    return std::all_of(text.begin(), text.end(), [&](QChar c) {
        return c.isDigit() || c == QLatin1Char('-') || c == QLatin1Char('+') || c.isSpace()
               || locale.decimalPoint().contains(c) || locale.groupSeparator().contains(c)
               || c == QLatin1Char('.') || c == QLatin1Char(',');
    });
}

template <typename Box>
QValidator::State keepOutOfRange(const Box &box, QValidator::State state, const QString &text)
{
    if (state != QValidator::Invalid)
        return state;
    QString bare = text;
    if (bare.startsWith(box.prefix()))
        bare.remove(0, box.prefix().size());
    if (!box.suffix().isEmpty() && bare.endsWith(box.suffix()))
        bare.chop(box.suffix().size());
    // Intermediate: the line edit keeps the keystroke, and Qt does not take the text as a value.
    return looksNumeric(bare) ? QValidator::Intermediate : QValidator::Invalid;
}

// The bounds as the box would show them, with group separators and without trailing zeros.
QString boundText(const QSpinBox &box, int value)
{
    return box.locale().toString(value);
}

QString boundText(const QDoubleSpinBox &box, double value)
{
    QString text = box.locale().toString(value, 'f', box.decimals());
    if (box.decimals() > 0) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(box.locale().decimalPoint()))
            text.chop(box.locale().decimalPoint().size());
    }
    return text;
}

template <typename Box>
QString refusalText(const Box &box, const QString &shown)
{
    // The special value's text ("off", "auto") is the minimum, though validate() does not say so.
    if (!box.specialValueText().isEmpty() && shown == box.specialValueText())
        return {};
    QString text = shown;
    int pos = 0;
    if (box.validate(text, pos) == QValidator::Acceptable)
        return {};
    const QString typed = shown.trimmed();
    if (typed.isEmpty() || typed == box.prefix().trimmed())
        return QObject::tr("the box is empty");
    return QObject::tr("“%1” is outside %2 … %3").arg(typed, boundText(box, box.minimum()), boundText(box, box.maximum()));
}

void mark(QAbstractSpinBox &box, bool refused)
{
    if (box.property("refused").toBool() == refused)
        return;
    box.setProperty("refused", refused);
    if (refused) {
        QPalette palette = box.palette();
        palette.setColor(QPalette::Base, QColor(253, 231, 230));
        box.setPalette(palette);
    } else {
        box.setPalette(QPalette());
    }
}

// Enter on refused text, Esc, and focus-out: the shared part of both boxes' event handlers.
// Returns true where the event was handled here (the base class must not see it).
template <typename Box, typename Emit>
bool handleKey(Box &box, QKeyEvent *event, const QString &refusal, Emit emitRefusal)
{
    const int key = event->key();
    if ((key == Qt::Key_Return || key == Qt::Key_Enter) && !refusal.isEmpty()) {
        mark(box, true);
        emitRefusal(refusal);
        event->accept(); // not confirmed: the box keeps its value and the text as typed
        return true;
    }
    if (key == Qt::Key_Escape && !refusal.isEmpty()) {
        box.setValue(box.value()); // the value in use, back in the text; nothing is emitted
        mark(box, false);
        emitRefusal(QString());
        event->accept();
        return true;
    }
    return false;
}

template <typename Box>
void restoreAfterFocusOut(Box &box, QLineEdit *edit, const QString &typed, const QString &refusal)
{
    if (refusal.isEmpty())
        return;
    // The base class put the value back into the text: show what the user typed again.
    const QSignalBlocker block(&box);
    edit->setText(typed);
    mark(box, true);
}

} // namespace

QString refusalOf(const QAbstractSpinBox *box)
{
    // dynamic_cast: the boxes are a template's instances, with QSpinBox's meta-object, so
    // qobject_cast would take any QSpinBox for one.
    if (const auto *integer = dynamic_cast<const CheckedSpinBox *>(box))
        return integer->refusal();
    if (const auto *real = dynamic_cast<const CheckedDoubleSpinBox *>(box))
        return real->refusal();
    return {};
}

QString firstRefusal(const QWidget &form, const std::function<QString(const QAbstractSpinBox *)> &nameOf)
{
    for (const QAbstractSpinBox *box : form.findChildren<QAbstractSpinBox *>()) {
        if (!box->isEnabled())
            continue; // its text is not in use
        if (const QString refusal = refusalOf(box); !refusal.isEmpty())
            return QObject::tr("%1: %2. Type a value in range, or press Esc for the one in use.").arg(nameOf(box), refusal);
    }
    return {};
}

namespace {

// A refusal ends as soon as the text is a value again, however it got there (typed, an arrow,
// a value set from code).
template <typename Box>
void endRefusalWhenValid(Box *box, QLineEdit *edit)
{
    QObject::connect(edit, &QLineEdit::textChanged, box, [box] {
        if (box->property("refused").toBool() && box->refusal().isEmpty()) {
            mark(*box, false);
            emit box->refusals()->refusalChanged(QString());
        }
    });
}

template <typename Box>
bool outOfRange(const Box &box, const QString &text)
{
    QString bare = text.trimmed();
    if (bare.startsWith(box.prefix()))
        bare.remove(0, box.prefix().size());
    if (!box.suffix().isEmpty() && bare.endsWith(box.suffix()))
        bare.chop(box.suffix().size());
    bare.remove(box.locale().groupSeparator());
    bool ok = false;
    const double value = box.locale().toDouble(bare.trimmed(), &ok);
    return ok && (value < box.minimum() || value > box.maximum());
}

} // namespace

bool isNumberOutOfRange(const QAbstractSpinBox *box, const QString &text)
{
    if (const auto *integer = dynamic_cast<const CheckedSpinBox *>(box))
        return outOfRange(*integer, text);
    if (const auto *real = dynamic_cast<const CheckedDoubleSpinBox *>(box))
        return outOfRange(*real, text);
    return false;
}

// Typed text becomes the value when it is confirmed (Enter, or the focus leaving), not at each
// keystroke: typing 100000010 into a box of at most 10⁷ would otherwise pass through the value
// 1,000,000 on the way, a value nobody chose, and keep it once the rest is refused.
template <typename Base>
CheckedBox<Base>::CheckedBox(QWidget *parent) : Base(parent), m_refusals(new RefusalSignal(this))
{
    this->setKeyboardTracking(false);
    endRefusalWhenValid(this, this->lineEdit());
}

template <typename Base>
QValidator::State CheckedBox<Base>::validate(QString &text, int &pos) const
{
    return keepOutOfRange(*this, Base::validate(text, pos), text);
}

template <typename Base>
QString CheckedBox<Base>::refusal() const
{
    return refusalText(*this, this->lineEdit()->text());
}

template <typename Base>
void CheckedBox<Base>::keyPressEvent(QKeyEvent *event)
{
    if (handleKey(*this, event, refusal(), [this](const QString &text) { emit m_refusals->refusalChanged(text); }))
        return;
    Base::keyPressEvent(event);
}

template <typename Base>
void CheckedBox<Base>::focusOutEvent(QFocusEvent *event)
{
    const QString typed = this->lineEdit()->text();
    const QString why = refusal();
    Base::focusOutEvent(event);
    restoreAfterFocusOut(*this, this->lineEdit(), typed, why);
    if (!why.isEmpty())
        emit m_refusals->refusalChanged(why);
}

template class CheckedBox<QSpinBox>;
template class CheckedBox<QDoubleSpinBox>;

} // namespace ui
