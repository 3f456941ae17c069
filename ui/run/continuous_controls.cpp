#include "ui/run/continuous_controls.h"

#include <cmath>

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>

#include "ui/panel/setting_help.h"

namespace ui {

ContinuousControls::ContinuousControls(QWidget *parent) : QWidget(parent)
{
    m_untilStopped = new QAction(tr("Run &until stopped"), this);
    m_untilStopped->setObjectName(QStringLiteral("untilStoppedAction"));
    m_untilStopped->setCheckable(true);
    m_untilStopped->setToolTip(wrappedToolTip(
        tr("Continuous mode: Run samples until Stop, and the charts show a moving window of the latest samples "
           "(the Samples box sets its size). Changes of T and the step apply at the next iteration; σ, λ, the "
           "solver, m, growth, δ and the method at the next lap (a tenth of a second): the chain goes on from "
           "where it is as a new segment, marked on the traces. Data, N, the seed or the window restart it.")));
    connect(m_untilStopped, &QAction::toggled, this, &ContinuousControls::untilStoppedToggled);

    m_speed = new QSlider(Qt::Horizontal);
    m_speed->setObjectName(QStringLiteral("speedSlider"));
    m_speed->setRange(0, kTopPosition);
    m_speed->setValue(kTopPosition);
    m_speed->setPageStep(10);
    m_speed->setMinimumWidth(120);
    m_speed->setMaximumWidth(260);
    m_speed->setToolTip(wrappedToolTip(tr("Speed limit, iterations per second per chain, from 1 to about 800,000; "
                                          "far right: no limit. Slow a chain down to watch each proposal in class.")));
    m_speedLabel = new QLabel;
    m_speedLabel->setMinimumWidth(m_speedLabel->fontMetrics().horizontalAdvance(tr("speed: 888,888 it/s")));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 0, 6, 0);
    // No mnemonic: the window's Alt keys are all taken; the slider is reached with Tab.
    auto *caption = new QLabel(tr("Speed"));
    layout->addWidget(caption);
    layout->addWidget(m_speed);
    layout->addWidget(m_speedLabel);
    connect(m_speed, &QSlider::valueChanged, this, [this] {
        showPace();
        emit paceChanged(pace());
    });
    showPace();
}

double ContinuousControls::paceAt(int position)
{
    return position >= kTopPosition ? 0.0 : std::round(std::pow(10.0, position / 10.0));
}

double ContinuousControls::pace() const
{
    return paceAt(m_speed->value());
}

void ContinuousControls::setPace(double iterationsPerSecond)
{
    m_speed->setValue(iterationsPerSecond > 0.0
                          ? std::clamp(static_cast<int>(std::lround(10.0 * std::log10(iterationsPerSecond))), 0,
                                       kTopPosition - 1)
                          : kTopPosition);
}

void ContinuousControls::showPace()
{
    const double pace = this->pace();
    m_speedLabel->setText(pace > 0.0 ? tr("%L1 it/s").arg(pace, 0, 'f', 0) : tr("no limit"));
}

} // namespace ui
