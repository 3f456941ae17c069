#include "ui/panel/slider_spin_box.h"

#include <algorithm>
#include <cmath>

#include <QAbstractSpinBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QSlider>
#include <QSpinBox>
#include <QStyleOptionSlider>
#include <QTimer>

#include "ui/panel/checked_spin_box.h"

namespace ui {
namespace {

// Track resolution; an arrow key moves 1 % of the track, Page Up/Down 10 %.
constexpr int kPositions = 1000;
// A range message stays this long unless a valid value replaces it sooner.
constexpr int kMessageMs = 8000;

// Log-scale slider values rounded to three significant digits: 12,300 rather than 12,317.
double roundSignificant(double value, int digits)
{
    if (!(value > 0.0))
        return value;
    const double scale = std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(value))));
    return std::round(value * scale) / scale;
}

// As the box shows numbers, with group separators (1,000,000,000), without trailing zeros.
QString numberText(double value, int decimals)
{
    QLocale locale;
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    QString text = locale.toString(value, 'f', decimals);
    if (decimals > 0) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(locale.decimalPoint()))
            text.chop(locale.decimalPoint().size());
    }
    return text;
}

} // namespace

/// A slider that can shade a sub-range of its track (where a setting is accurate), and whose
/// handle can be dragged at a rate of its own rather than under the pointer.
class MarkedSlider : public QSlider {
public:
    using QSlider::QSlider;
    void setMarked(int from, int to)
    {
        m_from = from;
        m_to = to;
        update();
    }
    /// > 0: dragging the handle moves it this many positions per pixel of pointer travel,
    /// from where it was pressed (a vernier). 0: the handle follows the pointer.
    void setDragRate(double positionsPerPixel) { m_dragRate = positionsPerPixel; }

protected:
    void mousePressEvent(QMouseEvent *event) override
    {
        if (m_dragRate > 0.0 && event->button() == Qt::LeftButton && onHandle(event->position().toPoint())) {
            m_pressX = event->position().x();
            m_pressValue = value();
            setSliderDown(true);
            event->accept();
            return;
        }
        QSlider::mousePressEvent(event);
    }
    void mouseMoveEvent(QMouseEvent *event) override
    {
        if (m_dragRate > 0.0 && isSliderDown() && m_pressValue >= 0) {
            const double travel = event->position().x() - m_pressX;
            setValue(std::clamp(m_pressValue + static_cast<int>(std::lround(travel * m_dragRate)), minimum(), maximum()));
            event->accept();
            return;
        }
        QSlider::mouseMoveEvent(event);
    }
    void mouseReleaseEvent(QMouseEvent *event) override
    {
        if (m_dragRate > 0.0 && m_pressValue >= 0) {
            m_pressValue = -1;
            setSliderDown(false); // emits sliderReleased
            event->accept();
            return;
        }
        QSlider::mouseReleaseEvent(event);
    }

    void paintEvent(QPaintEvent *event) override
    {
        if (m_from < m_to) {
            QStyleOptionSlider option;
            initStyleOption(&option);
            const QRect groove = style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderGroove, this);
            const QRect handle = style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, this);
            const int span = groove.width() - handle.width();
            const int x0 = groove.x() + handle.width() / 2
                           + QStyle::sliderPositionFromValue(minimum(), maximum(), m_from, span);
            const int x1 = groove.x() + handle.width() / 2
                           + QStyle::sliderPositionFromValue(minimum(), maximum(), m_to, span);
            QPainter painter(this);
            QColor band(46, 160, 67);
            band.setAlpha(110);
            painter.fillRect(QRect(x0, groove.center().y() - 5, x1 - x0, 10), band);
        }
        QSlider::paintEvent(event);
    }

private:
    bool onHandle(const QPoint &point) const
    {
        QStyleOptionSlider option;
        initStyleOption(&option);
        return style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, this).contains(point);
    }

    int m_from = 0, m_to = 0;
    double m_dragRate = 0.0;
    double m_pressX = 0.0;
    int m_pressValue = -1; // the position when the handle was pressed; -1: no vernier drag
};

SliderSpinBox::SliderSpinBox(QAbstractSpinBox *box, const QString &name, Scale scale, double sliderMinimum,
                             double sliderMaximum, QWidget *parent)
    : QWidget(parent), m_box(box), m_name(name), m_scale(scale), m_low(sliderMinimum), m_high(sliderMaximum)
{
    m_integer = qobject_cast<QSpinBox *>(box) != nullptr;
    m_slider = new MarkedSlider(Qt::Horizontal);
    m_slider->setMinimumWidth(70);
    // A linear scale gets no more positions than the box has values (chains: one per chain;
    // σ with two decimals: one per 0.01), so that every position is a different value.
    int positions = kPositions;
    if (scale == Scale::Linear) {
        const auto *real = qobject_cast<QDoubleSpinBox *>(box);
        const double resolution = real ? std::pow(10.0, -real->decimals()) : 1.0;
        positions = static_cast<int>(std::clamp(std::lround((m_high - m_low) / resolution), 1L, long{kPositions}));
    }
    m_slider->setRange(0, positions);
    m_slider->setSingleStep(std::max(1, positions / 100));
    m_slider->setPageStep(std::max(1, positions / 10));
    m_slider->setFocusPolicy(Qt::StrongFocus);
    m_slider->setAccessibleName(name);
    m_message = new QLabel;
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: #b3261e;"));
    m_message->hide();
    m_messageTimer = new QTimer(this);
    m_messageTimer->setSingleShot(true);
    m_messageTimer->setInterval(kMessageMs);
    connect(m_messageTimer, &QTimer::timeout, m_message, &QLabel::hide);

    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setHorizontalSpacing(6);
    layout->setVerticalSpacing(2);
    layout->addWidget(m_box, 0, 0);
    layout->addWidget(m_slider, 0, 1);
    layout->addWidget(m_message, 1, 0, 1, 2);
    layout->setColumnStretch(0, 3);
    layout->setColumnStretch(1, 2);
    setFocusProxy(m_box); // a label's mnemonic focuses the box

    if (auto *integerBox = qobject_cast<QSpinBox *>(box))
        connect(integerBox, &QSpinBox::valueChanged, this, [this](int v) { onBoxValueChanged(v); });
    else if (auto *realBox = qobject_cast<QDoubleSpinBox *>(box))
        connect(realBox, &QDoubleSpinBox::valueChanged, this, &SliderSpinBox::onBoxValueChanged);
    connect(m_slider, &QSlider::valueChanged, this, &SliderSpinBox::onSliderMoved);
    connect(m_slider, &QSlider::sliderReleased, this, [this] { emit released(value()); });
    m_box->installEventFilter(this);
    const auto refusalEnded = [this](const QString &refusal) {
        if (refusal.isEmpty())
            m_message->hide();
    };
    if (auto *refusals = box->findChild<RefusalSignal *>(QString(), Qt::FindDirectChildrenOnly)) // a checked box
        connect(refusals, &RefusalSignal::refusalChanged, this, refusalEnded);
    m_shownValue = value();
    syncSlider();
    // The slider speaks for the box: same tooltip (range and meaning from the settings table).
    m_slider->setToolTip(m_box->toolTip());
}

QSlider *SliderSpinBox::slider() const
{
    return m_slider;
}

void SliderSpinBox::setLinearStep(double step)
{
    const int positions = std::max(1, static_cast<int>(std::lround((m_high - m_low) / step)));
    m_slider->setRange(0, positions);
    m_slider->setSingleStep(1);
    m_slider->setPageStep(std::max(1, positions / 10));
    syncSlider();
}

int SliderSpinBox::positions() const
{
    return m_slider->maximum();
}

double SliderSpinBox::minimum() const
{
    if (auto *b = qobject_cast<QSpinBox *>(m_box))
        return b->minimum();
    return static_cast<QDoubleSpinBox *>(m_box)->minimum();
}

double SliderSpinBox::maximum() const
{
    if (auto *b = qobject_cast<QSpinBox *>(m_box))
        return b->maximum();
    return static_cast<QDoubleSpinBox *>(m_box)->maximum();
}

double SliderSpinBox::value() const
{
    if (auto *b = qobject_cast<QSpinBox *>(m_box))
        return b->value();
    return static_cast<QDoubleSpinBox *>(m_box)->value();
}

void SliderSpinBox::setValue(double value)
{
    if (auto *b = qobject_cast<QSpinBox *>(m_box))
        b->setValue(static_cast<int>(std::llround(std::clamp(value, minimum(), maximum()))));
    else
        static_cast<QDoubleSpinBox *>(m_box)->setValue(value);
}

void SliderSpinBox::setStops(std::vector<double> stops)
{
    m_stops = std::move(stops);
    const int positions = std::max(1, static_cast<int>(m_stops.size()) - 1);
    m_slider->setRange(0, positions);
    m_slider->setSingleStep(1);
    m_slider->setPageStep(std::max(1, positions / 10));
    syncSlider();
}

int SliderSpinBox::positionForValue(double value) const
{
    const double v = std::clamp(value, m_low, m_high);
    if (!m_stops.empty()) {
        const auto distance = [&](double stop) {
            return m_scale == Scale::Logarithmic ? std::abs(std::log(stop / v)) : std::abs(stop - v);
        };
        const auto nearest = std::min_element(m_stops.begin(), m_stops.end(),
                                              [&](double a, double b) { return distance(a) < distance(b); });
        return static_cast<int>(nearest - m_stops.begin());
    }
    const double fraction = m_scale == Scale::Logarithmic ? std::log(v / m_low) / std::log(m_high / m_low)
                                                          : (v - m_low) / (m_high - m_low);
    return static_cast<int>(std::lround(fraction * positions()));
}

double SliderSpinBox::valueForPosition(int position) const
{
    if (!m_stops.empty())
        return m_stops[static_cast<std::size_t>(std::clamp(position, 0, static_cast<int>(m_stops.size()) - 1))];
    const double fraction = static_cast<double>(position) / positions();
    double v = m_scale == Scale::Logarithmic ? m_low * std::exp(fraction * std::log(m_high / m_low))
                                             : m_low + fraction * (m_high - m_low);
    if (m_scale == Scale::Logarithmic)
        v = roundSignificant(v, 3);
    if (m_integer)
        v = std::round(v);
    else if (const auto *real = qobject_cast<QDoubleSpinBox *>(m_box))
        v = std::round(v * std::pow(10.0, real->decimals())) / std::pow(10.0, real->decimals());
    return std::clamp(v, std::max(m_low, minimum()), std::min(m_high, maximum()));
}

void SliderSpinBox::setDragDecadesPerPixel(double decadesPerPixel)
{
    if (m_scale != Scale::Logarithmic || !(decadesPerPixel > 0.0)) {
        m_slider->setDragRate(0.0);
        return;
    }
    const double decades = std::log10(m_high / m_low);
    m_slider->setDragRate(decadesPerPixel * positions() / decades);
}

void SliderSpinBox::setMarkedRange(double from, double to)
{
    m_slider->setMarked(positionForValue(from), positionForValue(to));
}

QString SliderSpinBox::rangeMessage() const
{
    return m_message->isHidden() ? QString() : m_message->text();
}

void SliderSpinBox::onBoxValueChanged(double value)
{
    // Enter re-emits an unchanged value (after reverting an out-of-range entry): the message
    // stays until a different value is set.
    if (value != m_shownValue)
        m_message->hide();
    m_shownValue = value;
    if (!m_fromSlider)
        syncSlider();
    emit valueChanged(value);
}

void SliderSpinBox::onSliderMoved(int position)
{
    if (signalsBlocked())
        return;
    const double v = valueForPosition(position);
    m_fromSlider = true;
    setValue(v); // emits valueChanged once, through the box, if the value differs
    m_fromSlider = false;
    if (m_slider->isSliderDown())
        emit dragged(value());
}

void SliderSpinBox::syncSlider()
{
    const QSignalBlocker block(m_slider); // reflects the box; asks for no change
    m_slider->setValue(positionForValue(value()));
}

void SliderSpinBox::showRangeMessage(const QString &typed)
{
    const auto *real = qobject_cast<QDoubleSpinBox *>(m_box);
    const int decimals = real ? real->decimals() : 0;
    m_message->setText(tr("%1 takes values from %2 to %3; “%4” is outside that range.")
                           .arg(m_name, numberText(minimum(), decimals), numberText(maximum(), decimals), typed.trimmed()));
    m_message->show();
    // A box that keeps the refused text (CheckedSpinBox) keeps the message as long; a plain
    // box has already put its value back, so the message fades.
    if (refusalOf(m_box).isEmpty())
        m_messageTimer->start();
    else
        m_messageTimer->stop();
}

bool SliderSpinBox::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != m_box)
        return QWidget::eventFilter(watched, event);
    // The box rejects a keystroke that makes its text out of range, and reverts an unfinished
    // entry when the focus leaves: neither may happen silently.
    auto *edit = m_box->findChild<QLineEdit *>();
    if (!edit)
        return false;
    if (event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            QString text = edit->text();
            int pos = 0;
            if (m_box->validate(text, pos) == QValidator::Intermediate)
                showRangeMessage(edit->text());
            return false;
        }
        const QString typed = key->text();
        if (typed.isEmpty() || !typed.at(0).isPrint() || (key->modifiers() & (Qt::ControlModifier | Qt::AltModifier)))
            return false;
        QString next = edit->text();
        if (edit->hasSelectedText())
            next.replace(edit->selectionStart(), edit->selectedText().size(), typed);
        else
            next.insert(edit->cursorPosition(), typed);
        int pos = edit->cursorPosition() + static_cast<int>(typed.size());
        QString checked = next;
        const bool looksNumeric = std::all_of(typed.begin(), typed.end(), [](QChar c) {
            return c.isDigit() || c == QLatin1Char('-') || c == QLatin1Char('+') || c == QLatin1Char('.')
                   || c == QLatin1Char(',') || c == QLatin1Char('e') || c == QLatin1Char('E');
        });
        if (looksNumeric && (m_box->validate(checked, pos) == QValidator::Invalid || isNumberOutOfRange(m_box, next)))
            showRangeMessage(next);
    } else if (event->type() == QEvent::FocusOut) {
        QString text = edit->text();
        int pos = 0;
        if (m_box->validate(text, pos) == QValidator::Intermediate)
            showRangeMessage(edit->text());
    }
    return false;
}

} // namespace ui
