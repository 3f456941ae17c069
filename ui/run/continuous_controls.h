#pragma once
// The controls of continuous mode, in the Run toolbar and menu: "Run until stopped" (the chains
// sample on, the charts showing a moving window of the latest samples, while T, the step, σ or
// the method are changed under them) and a speed limit for watching a chain move, e.g. in
// class. The window owns what they do; this only presents them.
#include <QWidget>

QT_BEGIN_NAMESPACE
class QAction;
class QLabel;
class QSlider;
QT_END_NAMESPACE

namespace ui {

class ContinuousControls : public QWidget {
    Q_OBJECT
public:
    /// The speed slider's stops: 10 per decade from 1 it/s up to kTopPosition, which is no limit.
    static constexpr int kTopPosition = 60;

    explicit ContinuousControls(QWidget *parent = nullptr);

    /// Checkable: the next run (and auto-runs) sample until stopped.
    QAction *untilStoppedAction() const { return m_untilStopped; }
    QSlider *speedSlider() const { return m_speed; }
    /// Iterations per second per chain; 0 for no limit.
    double pace() const;
    /// Moves the slider to the stop nearest `iterationsPerSecond` (0: no limit).
    void setPace(double iterationsPerSecond);
    static double paceAt(int position);

signals:
    void untilStoppedToggled(bool on);
    void paceChanged(double iterationsPerSecond);

private:
    void showPace();

    QAction *m_untilStopped = nullptr;
    QSlider *m_speed = nullptr;
    QLabel *m_speedLabel = nullptr;
};

} // namespace ui
