#pragma once
// The run controls under the settings form: Run, Stop, Pause/Resume, Step and Reset, with
// their keyboard shortcuts, enabled according to whether a run is going and paused.
#include <array>

#include <QWidget>

QT_BEGIN_NAMESPACE
class QPushButton;
QT_END_NAMESPACE

namespace ui {

class RunButtons : public QWidget {
    Q_OBJECT
public:
    /// The buttons, in the order they are laid out (two a row, Reset alone at the bottom).
    enum Button { Run, Stop, Pause, Step, Reset, ButtonCount };

    explicit RunButtons(QWidget *parent = nullptr);

    void setRunning(bool running);
    /// Shows the pause state (the worker owns it); does not emit pauseToggled.
    void setPaused(bool paused);

    QPushButton *button(Button which) const { return m_buttons[which]; }

signals:
    void runRequested();
    void stopRequested();
    void pauseToggled(bool paused);
    void stepRequested();
    void resetRequested();

private:
    void showPauseLabel(bool paused);

    std::array<QPushButton *, ButtonCount> m_buttons{};
    bool m_running = false;
};

} // namespace ui
