#pragma once
// The run controls under the settings form: Run, Stop, Pause/Resume, Step and Reset, with
// their keyboard shortcuts, enabled according to whether a run is going and paused.
#include <QWidget>

QT_BEGIN_NAMESPACE
class QPushButton;
QT_END_NAMESPACE

namespace ui {

class RunButtons : public QWidget {
    Q_OBJECT
public:
    explicit RunButtons(QWidget *parent = nullptr);

    void setRunning(bool running);
    /// Shows the pause state (the worker owns it); does not emit pauseToggled.
    void setPaused(bool paused);

    QPushButton *runButton() const { return m_run; }
    QPushButton *stopButton() const { return m_stop; }
    QPushButton *pauseButton() const { return m_pause; }
    QPushButton *stepButton() const { return m_step; }
    QPushButton *resetButton() const { return m_reset; }

signals:
    void runRequested();
    void stopRequested();
    void pauseToggled(bool paused);
    void stepRequested();
    void resetRequested();

private:
    void showPauseLabel(bool paused);

    QPushButton *m_run = nullptr;
    QPushButton *m_stop = nullptr;
    QPushButton *m_pause = nullptr;
    QPushButton *m_step = nullptr;
    QPushButton *m_reset = nullptr;
    bool m_running = false;
};

} // namespace ui
