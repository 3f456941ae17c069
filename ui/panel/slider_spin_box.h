#pragma once
// A setting's spin box with a slider beside it, for exploring: the box stays the value's owner
// (typed values, arrows, sessions and the existing signals all go through it) and the slider
// follows it both ways without feedback. The slider maps its track linearly or logarithmically
// onto a span of the box's range, can mark a sub-range (σ's accurate correction), and the box
// says in place when a typed value is out of range instead of correcting it silently.
#include <vector>

#include <QWidget>

QT_BEGIN_NAMESPACE
class QAbstractSpinBox;
class QLabel;
class QSlider;
class QTimer;
QT_END_NAMESPACE

namespace ui {

class MarkedSlider;

class SliderSpinBox : public QWidget {
    Q_OBJECT
public:
    enum class Scale { Linear, Logarithmic };

    /// Puts `box` (a QSpinBox or QDoubleSpinBox) beside a slider spanning [sliderMinimum,
    /// sliderMaximum], which must lie in the box's range (and be > 0 on a log scale). `name`
    /// is the setting as the panel labels it ("T", "σ"), used in range messages.
    SliderSpinBox(QAbstractSpinBox *box, const QString &name, Scale scale, double sliderMinimum, double sliderMaximum,
                  QWidget *parent = nullptr);

    QAbstractSpinBox *spinBox() const { return m_box; }
    QSlider *slider() const;
    double value() const;
    void setValue(double value);

    /// A linear slider that stops every `step` (from the slider's minimum) instead of at every
    /// value the box can show; the box keeps its finer resolution for typed values.
    void setLinearStep(double step);
    /// A slider that stops only at these values (ascending, within the slider's range): one
    /// position each, a value between stops moving the slider to the nearest (on this
    /// scale). For settings whose every stop is worth preparing ahead, like λ's tables.
    void setStops(std::vector<double> stops);
    /// A log-scale slider whose handle, dragged, moves this many decades per pixel of pointer
    /// travel instead of following the pointer along a track that spans many decades (T: a
    /// 40-pixel drag must not take 40,000 to 5). Clicks on the track and the keys are unchanged.
    void setDragDecadesPerPixel(double decadesPerPixel);
    /// Marks [from, to] on the slider's track (a coloured band) and labels it in the tooltip.
    void setMarkedRange(double from, double to);
    /// The slider position (0 … positions()) that shows `value`, clamped to the track.
    int positionForValue(double value) const;
    /// The value a slider position gives, rounded as the slider rounds it.
    double valueForPosition(int position) const;
    int positions() const;
    /// The in-place message after an out-of-range entry; empty while none is shown.
    QString rangeMessage() const;

signals:
    /// The value changed, once per change: typed (on Enter or leaving the box where keyboard
    /// tracking is off), an arrow, the wheel or a slider move. Not for setValue() from code
    /// whose value equals the current one.
    void valueChanged(double value);
    /// The slider moved while held down (valueChanged() fires too).
    void dragged(double value);
    /// The slider was let go at this value.
    void released(double value);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onBoxValueChanged(double value);
    void onSliderMoved(int position);
    void syncSlider();
    void showRangeMessage(const QString &typed);
    double minimum() const;
    double maximum() const;

    QAbstractSpinBox *m_box = nullptr;
    MarkedSlider *m_slider = nullptr;
    QLabel *m_message = nullptr;
    QTimer *m_messageTimer = nullptr;
    QString m_name;
    Scale m_scale = Scale::Linear;
    double m_low = 0.0, m_high = 1.0;
    bool m_integer = false;
    std::vector<double> m_stops; // setStops(); empty: evenly spaced positions
    double m_shownValue = 0.0; // the box's value as last reported
    bool m_fromSlider = false; // the box is being set from the slider: do not move the slider back
};

} // namespace ui
