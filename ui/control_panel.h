#pragma once
// The run settings form: method, N, T, step, samples and seed, with Run and Stop.
#include <QWidget>

#include "core/experiment/run_config.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
QT_END_NAMESPACE

namespace ui {

class ControlPanel : public QWidget {
    Q_OBJECT
public:
    explicit ControlPanel(QWidget *parent = nullptr);

    /// The settings shown, on top of the core defaults for everything not shown (data seed,
    /// minibatch and correction settings).
    core::RunConfig config() const;
    /// Shows `config`'s method, N, T, step, samples and seed (clamped to the widgets' ranges).
    void setConfig(const core::RunConfig &config);
    /// Locks the form while a run is in progress and swaps which button is enabled.
    void setRunning(bool running);

    QPushButton *runButton() const { return m_run; }
    QPushButton *stopButton() const { return m_stop; }

signals:
    void runRequested();
    void stopRequested();

private:
    void updateSharpness();

    QComboBox *m_method = nullptr;
    QSpinBox *m_nData = nullptr;
    QDoubleSpinBox *m_temperature = nullptr;
    QDoubleSpinBox *m_step = nullptr;
    QSpinBox *m_samples = nullptr;
    QSpinBox *m_seed = nullptr;
    QLabel *m_sharpness = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_stop = nullptr;
    core::RunConfig m_base; // the hidden settings, kept as given to setConfig()
};

} // namespace ui
