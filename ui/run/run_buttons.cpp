#include "ui/run/run_buttons.h"

#include <QGridLayout>
#include <QKeySequence>
#include <QPushButton>
#include <QSignalBlocker>

namespace ui {

namespace {

struct ButtonText {
    const char *label;
    QKeyCombination shortcut;
    const char *toolTip;
};

// Indexed by RunButtons::Button.
constexpr std::array<ButtonText, RunButtons::ButtonCount> kButtonTexts{{
    {QT_TRANSLATE_NOOP("ui::RunButtons", "Run"), Qt::CTRL | Qt::Key_R,
     QT_TRANSLATE_NOOP("ui::RunButtons", "Start a run with these settings (Ctrl+R).")},
    {QT_TRANSLATE_NOOP("ui::RunButtons", "Stop"), QKeyCombination(Qt::Key_Escape),
     QT_TRANSLATE_NOOP("ui::RunButtons", "Stop the running chains; the samples so far stay on the charts (Esc).")},
    {QT_TRANSLATE_NOOP("ui::RunButtons", "Pause"), Qt::CTRL | Qt::Key_P,
     QT_TRANSLATE_NOOP("ui::RunButtons", "Hold the running chains between iterations, and let them go on (Ctrl+P).")},
    {QT_TRANSLATE_NOOP("ui::RunButtons", "Step"), Qt::CTRL | Qt::Key_T,
     QT_TRANSLATE_NOOP("ui::RunButtons", "While paused, run exactly one more iteration and show it (Ctrl+T).")},
    {QT_TRANSLATE_NOOP("ui::RunButtons", "Reset"), Qt::CTRL | Qt::SHIFT | Qt::Key_R,
     QT_TRANSLATE_NOOP("ui::RunButtons", "Stop any run and clear every chart, the diagnostics and the statistics; "
                                         "the settings stay (Ctrl+Shift+R).")},
}};

} // namespace

RunButtons::RunButtons(QWidget *parent) : QWidget(parent)
{
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    for (int i = 0; i < ButtonCount; ++i) {
        const ButtonText &text = kButtonTexts[i];
        auto *button = new QPushButton(tr(text.label));
        button->setShortcut(QKeySequence(text.shortcut));
        button->setToolTip(tr(text.toolTip));
        // Two a row; Reset, the odd one out, spans the bottom row.
        grid->addWidget(button, i / 2, i % 2, 1, i == Reset ? 2 : 1);
        m_buttons[i] = button;
    }
    button(Run)->setDefault(true);
    button(Pause)->setCheckable(true);

    connect(button(Run), &QPushButton::clicked, this, &RunButtons::runRequested);
    connect(button(Stop), &QPushButton::clicked, this, &RunButtons::stopRequested);
    connect(button(Pause), &QPushButton::toggled, this, [this](bool paused) {
        button(Step)->setEnabled(m_running && paused);
        showPauseLabel(paused);
        emit pauseToggled(paused);
    });
    connect(button(Step), &QPushButton::clicked, this, &RunButtons::stepRequested);
    connect(button(Reset), &QPushButton::clicked, this, &RunButtons::resetRequested);
    setRunning(false);
}

void RunButtons::setRunning(bool running)
{
    m_running = running;
    button(Run)->setEnabled(!running);
    button(Stop)->setEnabled(running);
    if (!running)
        setPaused(false);
    button(Pause)->setEnabled(running);
    button(Step)->setEnabled(running && button(Pause)->isChecked());
}

void RunButtons::setPaused(bool paused)
{
    const QSignalBlocker block(button(Pause)); // reflects state; does not ask for a change
    button(Pause)->setChecked(paused);
    showPauseLabel(paused);
    button(Step)->setEnabled(m_running && paused);
}

void RunButtons::showPauseLabel(bool paused)
{
    // QAbstractButton::setText() replaces the shortcut with the text's mnemonic (none here),
    // which silently dropped Ctrl+P after the first pause: set it again after every relabel.
    button(Pause)->setText(paused ? tr("Resume") : tr("Pause"));
    button(Pause)->setShortcut(QKeySequence(kButtonTexts[Pause].shortcut));
}

} // namespace ui
