#include "ui/run/run_buttons.h"

#include <QGridLayout>
#include <QKeySequence>
#include <QPushButton>
#include <QSignalBlocker>

namespace ui {

RunButtons::RunButtons(QWidget *parent) : QWidget(parent)
{
    m_run = new QPushButton(tr("Run"));
    m_run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_run->setToolTip(tr("Start a run with these settings (Ctrl+R)."));
    m_run->setDefault(true);
    m_stop = new QPushButton(tr("Stop"));
    m_stop->setShortcut(QKeySequence(Qt::Key_Escape));
    m_stop->setToolTip(tr("Stop the running chains; the samples so far stay on the charts (Esc)."));
    m_pause = new QPushButton(tr("Pause"));
    m_pause->setCheckable(true);
    m_pause->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    m_pause->setToolTip(tr("Hold the running chains between iterations, and let them go on (Ctrl+P)."));
    m_step = new QPushButton(tr("Step"));
    m_step->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    m_step->setToolTip(tr("While paused, run exactly one more iteration and show it (Ctrl+T)."));
    m_reset = new QPushButton(tr("Reset"));
    m_reset->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    m_reset->setToolTip(tr("Stop any run and clear every chart, the diagnostics and the statistics; the settings "
                           "stay (Ctrl+Shift+R)."));
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(m_run, 0, 0);
    grid->addWidget(m_stop, 0, 1);
    grid->addWidget(m_pause, 1, 0);
    grid->addWidget(m_step, 1, 1);
    grid->addWidget(m_reset, 2, 0, 1, 2);

    connect(m_run, &QPushButton::clicked, this, &RunButtons::runRequested);
    connect(m_stop, &QPushButton::clicked, this, &RunButtons::stopRequested);
    connect(m_pause, &QPushButton::toggled, this, [this](bool paused) {
        m_step->setEnabled(m_running && paused);
        showPauseLabel(paused);
        emit pauseToggled(paused);
    });
    connect(m_step, &QPushButton::clicked, this, &RunButtons::stepRequested);
    connect(m_reset, &QPushButton::clicked, this, &RunButtons::resetRequested);
    setRunning(false);
}

void RunButtons::setRunning(bool running)
{
    m_running = running;
    m_run->setEnabled(!running);
    m_stop->setEnabled(running);
    if (!running)
        setPaused(false);
    m_pause->setEnabled(running);
    m_step->setEnabled(running && m_pause->isChecked());
}

void RunButtons::setPaused(bool paused)
{
    const QSignalBlocker block(m_pause); // reflects state; does not ask for a change
    m_pause->setChecked(paused);
    showPauseLabel(paused);
    m_step->setEnabled(m_running && paused);
}

void RunButtons::showPauseLabel(bool paused)
{
    // QAbstractButton::setText() replaces the shortcut with the text's mnemonic (none here),
    // which silently dropped Ctrl+P after the first pause: set it again after every relabel.
    m_pause->setText(paused ? tr("Resume") : tr("Pause"));
    m_pause->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
}

} // namespace ui
