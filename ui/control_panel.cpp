#include "ui/control_panel.h"

#include <algorithm>
#include <limits>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ui {
namespace {

// Larger N is possible in the core but would hold gigabytes; the GUI is for exploring.
constexpr int kMaxGuiData = 50'000'000;
constexpr int kMaxGuiSamples = 10'000'000;

QSpinBox *integerBox(int minimum, int maximum, int step)
{
    auto *box = new QSpinBox;
    box->setRange(minimum, maximum);
    box->setSingleStep(step);
    box->setGroupSeparatorShown(true);
    box->setAccelerated(true);
    return box;
}

} // namespace

ControlPanel::ControlPanel(QWidget *parent) : QWidget(parent)
{
    m_method = new QComboBox;
    m_method->addItem(tr("minibatch (corrected)"), QStringLiteral("minibatch"));
    m_method->addItem(tr("barker (full data)"), QStringLiteral("barker"));
    m_method->addItem(tr("mh (full data)"), QStringLiteral("mh"));
    m_method->addItem(tr("naive-barker (uncorrected)"), QStringLiteral("naive-barker"));
    m_method->setToolTip(tr("Acceptance test: the corrected minibatch Barker test (Seita et al. Sec. 4, Algorithm 1), "
                            "the full-data Barker or Metropolis–Hastings test (Sec. 3), or the uncorrected minibatch "
                            "Barker test whose bias the correction removes (Sec. 3.3)."));

    m_nData = integerBox(1000, kMaxGuiData, 10'000);
    m_nData->setToolTip(tr("Number N of data points drawn from the Welling–Teh Gaussian mixture "
                           "(Seita et al. Sec. 6.1 uses 1,000,000)."));

    m_temperature = new QDoubleSpinBox;
    m_temperature->setDecimals(2);
    m_temperature->setRange(0.01, 1e9);
    m_temperature->setSingleStep(100.0);
    m_temperature->setGroupSeparatorShown(true);
    m_temperature->setToolTip(tr("Temperature T divides every log-likelihood, so N/T sets how sharp the posterior is "
                                 "(Seita et al. Sec. 6.1 uses 10,000)."));

    m_step = new QDoubleSpinBox;
    m_step->setDecimals(3);
    m_step->setRange(0.001, 10.0);
    m_step->setSingleStep(0.01);
    m_step->setToolTip(tr("Per-coordinate standard deviation of the Gaussian random-walk proposal "
                          "(Seita et al. Sec. 6.1 quotes 0.15)."));

    m_samples = integerBox(1, kMaxGuiSamples, 1000);
    m_samples->setToolTip(tr("Number of Metropolis–Hastings iterations, one posterior sample each "
                             "(Seita et al. Sec. 6.1 draws 3000)."));

    m_seed = integerBox(0, std::numeric_limits<int>::max(), 1);
    m_seed->setToolTip(tr("Seed of the chain's random stream; the data keep their own fixed seed so that every "
                          "method sees the same data set (Seita et al. Sec. 6.1)."));

    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("&Method"), m_method);
    form->addRow(tr("&Data points N"), m_nData);
    form->addRow(tr("&Temperature T"), m_temperature);
    form->addRow(tr("&Proposal step"), m_step);
    form->addRow(tr("S&amples"), m_samples);
    form->addRow(tr("S&eed"), m_seed);

    m_sharpness = new QLabel;
    m_sharpness->setWordWrap(true);
    m_sharpness->setToolTip(tr("The tempered posterior is as sharp as that of N/T untempered points "
                               "(Seita et al. Sec. 6.1 uses N/T = 100)."));

    m_run = new QPushButton(tr("Run"));
    m_run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_run->setToolTip(tr("Start a chain with these settings (Ctrl+R)."));
    m_run->setDefault(true);
    m_stop = new QPushButton(tr("Stop"));
    m_stop->setShortcut(QKeySequence(Qt::Key_Escape));
    m_stop->setToolTip(tr("Stop the running chain; the samples so far stay on the chart (Esc)."));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_stop);

    auto *group = new QGroupBox(tr("Run settings"));
    auto *groupLayout = new QVBoxLayout(group);
    groupLayout->addLayout(form);
    groupLayout->addWidget(m_sharpness);
    groupLayout->addLayout(buttons);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(group);
    layout->addStretch(1);

    connect(m_run, &QPushButton::clicked, this, &ControlPanel::runRequested);
    connect(m_stop, &QPushButton::clicked, this, &ControlPanel::stopRequested);
    connect(m_nData, &QSpinBox::valueChanged, this, &ControlPanel::updateSharpness);
    connect(m_temperature, &QDoubleSpinBox::valueChanged, this, &ControlPanel::updateSharpness);

    setConfig(core::RunConfig{});
    setRunning(false);
}

core::RunConfig ControlPanel::config() const
{
    core::RunConfig config = m_base;
    config.method = core::parseMethod(m_method->currentData().toString().toStdString());
    config.nData = m_nData->value();
    config.temperature = m_temperature->value();
    config.step = m_step->value();
    config.samples = m_samples->value();
    config.seed = static_cast<std::uint64_t>(m_seed->value());
    return config;
}

void ControlPanel::setConfig(const core::RunConfig &config)
{
    m_base = config;
    const int index = m_method->findData(QString::fromStdString(core::methodName(config.method)));
    m_method->setCurrentIndex(std::max(index, 0));
    m_nData->setValue(static_cast<int>(std::clamp<std::int64_t>(config.nData, m_nData->minimum(), m_nData->maximum())));
    m_temperature->setValue(config.temperature);
    m_step->setValue(config.step);
    m_samples->setValue(
        static_cast<int>(std::clamp<std::int64_t>(config.samples, m_samples->minimum(), m_samples->maximum())));
    m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(config.seed, static_cast<std::uint64_t>(m_seed->maximum()))));
    updateSharpness();
}

void ControlPanel::setRunning(bool running)
{
    for (QWidget *widget : std::initializer_list<QWidget *>{m_method, m_nData, m_temperature, m_step, m_samples, m_seed})
        widget->setEnabled(!running);
    m_run->setEnabled(!running);
    m_stop->setEnabled(running);
}

void ControlPanel::updateSharpness()
{
    const double ratio = m_nData->value() / m_temperature->value();
    m_sharpness->setText(tr("Posterior sharpness N/T = %L1").arg(ratio, 0, 'g', 4));
}

} // namespace ui
