#include "ui/control_panel.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QGridLayout>
#include <QSignalBlocker>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include "ui/compare_box.h"
#include "ui/correction_box.h"
#include "ui/dataset_box.h"
#include "ui/minibatch_box.h"
#include "ui/run_buttons.h"
#include "ui/session.h"
#include "ui/spin_box_values.h"
#include "ui/setting_help.h"

namespace ui {
namespace {

// Larger N is possible in the core but would hold gigabytes; the GUI is for exploring.
constexpr int kMaxGuiData = 50'000'000;
constexpr int kMaxGuiSamples = 10'000'000;
// Arrow clicks on T or the step closer together than this make one live change.
constexpr int kLiveEditDelayMs = 350;

} // namespace

ControlPanel::ControlPanel(QWidget *parent) : QWidget(parent)
{
    m_buttons = new RunButtons(this); // the window moves it into its own layout
    m_compare = new CompareBox;
    m_dataset = new DatasetBox;
    m_minibatch = new MinibatchBox;
    m_correction = new CorrectionBox;
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_dataset);
    layout->addWidget(buildRunGroup());
    layout->addWidget(m_minibatch);
    layout->addWidget(m_correction);
    layout->addWidget(m_compare);
    layout->addStretch(1);

    connect(m_buttons, &RunButtons::runRequested, this, &ControlPanel::runRequested);
    connect(m_buttons, &RunButtons::stopRequested, this, &ControlPanel::stopRequested);
    connect(m_buttons, &RunButtons::pauseToggled, this, &ControlPanel::pauseToggled);
    connect(m_buttons, &RunButtons::stepRequested, this, &ControlPanel::stepRequested);
    connect(m_buttons, &RunButtons::resetRequested, this, &ControlPanel::resetRequested);
    connectEditSignals();

    setConfig(core::RunConfig{});
    setRunning(false);
}

void ControlPanel::connectEditSignals()
{
    connect(m_nData, &QSpinBox::valueChanged, this, &ControlPanel::updateSharpness);
    connect(m_temperature, &QDoubleSpinBox::valueChanged, this, &ControlPanel::updateSharpness);
    connect(m_compare, &CompareBox::selectionChanged, this, &ControlPanel::updateModeWidgets);
    connect(m_correction, &CorrectionBox::edited, this, [this](const QString &setting) {
        if (m_loading)
            return;
        emit correctionChanged(correctionParams());
        emit settingsChanged();
        requestRestart(setting);
    });
    auto edited = [this] {
        if (!m_loading)
            emit settingsChanged();
    };
    for (QSpinBox *box : {m_nData, m_samples, m_seed, m_chains})
        connect(box, &QSpinBox::valueChanged, this, edited);
    for (QDoubleSpinBox *box : {m_temperature, m_step})
        connect(box, &QDoubleSpinBox::valueChanged, this, edited);
    connect(m_method, &QComboBox::currentIndexChanged, this, edited);
    connect(m_parallel, &QCheckBox::toggled, this, edited);
    connect(m_compare, &CompareBox::selectionChanged, this, edited);
    connect(m_minibatch, &MinibatchBox::settingsChanged, this, edited);
    connect(m_dataset, &DatasetBox::settingsChanged, this, edited);
    connect(m_dataset, &DatasetBox::settingsChanged, this, &ControlPanel::updateSharpness);
    connect(m_dataset, &DatasetBox::datasetPicked, this, &ControlPanel::onDatasetPicked);

    // During a run, temperature and step go to the running chains. Arrow clicks come in
    // bursts, so a short pause in them decides the value (typed values arrive on Enter or
    // when leaving the box: keyboard tracking is off); every value sent is a chain segment.
    auto *liveDelay = new QTimer(this);
    liveDelay->setSingleShot(true);
    liveDelay->setInterval(kLiveEditDelayMs);
    connect(liveDelay, &QTimer::timeout, this, [this] {
        if (!m_running)
            return;
        const core::RunConfig shown = config();
        if (shown.temperature != m_liveTemperature) {
            m_liveTemperature = shown.temperature;
            emit liveTemperatureChanged(shown.temperature);
        }
        if (shown.step != m_liveStep) {
            m_liveStep = shown.step;
            emit liveStepChanged(shown.step);
        }
    });
    for (QDoubleSpinBox *box : {m_temperature, m_step}) {
        box->setKeyboardTracking(false);
        connect(box, &QDoubleSpinBox::valueChanged, liveDelay, [this, liveDelay] {
            if (m_running && !m_loading)
                liveDelay->start();
        });
    }
    // Every other setting defines the sampler itself: name it so the window can restart.
    auto restart = [this](const QString &setting) { return [this, setting] { requestRestart(setting); }; };
    connect(m_method, &QComboBox::currentIndexChanged, this, restart(tr("the method")));
    connect(m_nData, &QSpinBox::valueChanged, this, restart(tr("N")));
    connect(m_samples, &QSpinBox::valueChanged, this, restart(tr("the number of samples")));
    connect(m_seed, &QSpinBox::valueChanged, this, restart(tr("the seed")));
    connect(m_chains, &QSpinBox::valueChanged, this, restart(tr("the number of chains")));
    connect(m_parallel, &QCheckBox::toggled, this, restart(tr("parallel chains")));
    connect(m_compare, &CompareBox::selectionChanged, this, restart(tr("the compared methods")));
    connect(m_dataset, &DatasetBox::userEdited, this, restart(tr("the dataset")));
    connect(m_minibatch, &MinibatchBox::settingsChanged, this, restart(tr("the minibatch settings")));
}

void ControlPanel::requestRestart(const QString &setting)
{
    if (m_running && !m_loading)
        emit restartSettingChanged(setting);
}

QWidget *ControlPanel::buildRunGroup()
{
    m_method = new QComboBox;
    const std::pair<core::TestMethod, QString> methods[] = {
        {core::TestMethod::Minibatch, tr("minibatch (corrected)")},
        {core::TestMethod::AustereConservative, tr("austere-c (AustereMH)")},
        {core::TestMethod::AustereNonConservative, tr("austere-nc (AustereMH, per-step design)")},
        {core::TestMethod::SubLhd, tr("sublhd (MHSubLhd)")},
        {core::TestMethod::Barker, tr("barker (full data)")},
        {core::TestMethod::Metropolis, tr("mh (full data)")},
        {core::TestMethod::NaiveBarker, tr("naive-barker (uncorrected)")},
    };
    for (const auto &[method, label] : methods)
        m_method->addItem(label, QString::fromStdString(core::methodName(method)));
    m_method->setToolTip(withSettingHelp(tr("Acceptance test: the corrected minibatch Barker test (Seita et al. Sec. 4, Algorithm 1); "
                            "the baselines AustereMH (conservative: m and ε fixed in advance; non-conservative: "
                            "designed at every iteration from a full-data pass) and MHSubLhd (Sec. 6.1); "
                            "the full-data Barker or Metropolis–Hastings test (Sec. 3); or the uncorrected minibatch "
                            "Barker test whose bias the correction removes (Sec. 3.3)."), "method"));

    m_nData = integerBox(1000, kMaxGuiData, 10'000);
    m_nData->setToolTip(withSettingHelp(tr("Number N of data points generated for the Gaussian mixture or the worst case; real "
                           "data have the size they have (Seita et al. Sec. 6.1 uses 1,000,000)."), "n_data_requested"));
    m_temperature = new QDoubleSpinBox;
    m_temperature->setDecimals(2);
    m_temperature->setRange(0.01, 1e9);
    m_temperature->setSingleStep(100.0);
    m_temperature->setGroupSeparatorShown(true);
    m_temperature->setToolTip(withSettingHelp(tr("Temperature T divides every log-likelihood, so N/T sets how sharp the posterior is "
                                 "(Seita et al. Sec. 6.1 uses 10,000). During a run a new T applies from the next "
                                 "iteration and starts a marked chain segment."), "temperature"));
    m_step = new QDoubleSpinBox;
    // Five decimals: the worst case's step 1/√N is 0.001 at N = 10⁶ and smaller beyond.
    m_step->setDecimals(5);
    m_step->setRange(0.00001, 10.0);
    m_step->setSingleStep(0.01);
    m_step->setToolTip(withSettingHelp(tr("Per-coordinate standard deviation of the Gaussian random-walk proposal "
                          "(Seita et al. Sec. 6.1 quotes 0.15, Sec. 2.1 uses 1/√N for the worst case). During a run "
                          "a new step applies from the next iteration and starts a marked chain segment."), "step"));
    m_samples = integerBox(1, kMaxGuiSamples, 1000);
    m_samples->setToolTip(withSettingHelp(tr("Number of Metropolis–Hastings iterations per chain, one posterior sample each "
                             "(Seita et al. Sec. 6.1 draws 3000)."), "samples"));
    m_seed = integerBox(0, std::numeric_limits<int>::max(), 1);
    m_seed->setToolTip(withSettingHelp(tr("Seed of the first chain's random stream; chain k uses seed + k. The data keep their own "
                          "fixed seed so that every method sees the same data set (Seita et al. Sec. 6.1)."), "seed"));
    m_chains = integerBox(1, 4, 1);
    m_chains->setToolTip(tr("Chains per method. The diagnostics table shows the split R-hat across them (with one "
                            "chain, across its two halves; Sec. 6 reports averages over repeated runs)."));
    m_parallel = new QCheckBox(tr("Run chains in parallel"));
    m_parallel->setToolTip(tr("Run the chains (and compared methods) at the same time, one per processor core, like "
                              "the repeated runs Seita et al. Sec. 6 average; per-chain speed figures then share "
                              "the cores."));

    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("&Method"), m_method);
    form->addRow(tr("&Data points N"), m_nData);
    form->addRow(tr("&Temperature T"), m_temperature);
    form->addRow(tr("&Proposal step"), m_step);
    form->addRow(tr("S&amples"), m_samples);
    form->addRow(tr("S&eed"), m_seed);
    form->addRow(tr("C&hains"), m_chains);
    form->addRow(QString(), m_parallel);

    m_sharpness = new QLabel;
    m_sharpness->setWordWrap(true);
    m_sharpness->setToolTip(tr("The tempered posterior is as sharp as that of N/T untempered points "
                               "(Seita et al. Sec. 6.1 uses N/T = 100)."));
    auto *group = new QGroupBox(tr("Run settings"));
    auto *groupLayout = new QVBoxLayout(group);
    groupLayout->addLayout(form);
    groupLayout->addWidget(m_sharpness);
    return group;
}

core::RunConfig ControlPanel::config() const
{
    core::RunConfig config = m_base;
    config.method = core::parseMethod(m_method->currentData().toString().toStdString());
    config.nData = keptValue(m_nData, m_base.nData);
    config.temperature = keptValue(m_temperature, m_base.temperature);
    config.step = keptValue(m_step, m_base.step);
    config.samples = keptValue(m_samples, m_base.samples);
    config.seed = m_seed->value() == shownSeed(m_seed, m_base.seed) ? m_base.seed
                                                                    : static_cast<std::uint64_t>(m_seed->value());
    config.correction = correctionParams();
    m_dataset->fillConfig(config);
    m_minibatch->fillConfig(config);
    return config;
}

core::CorrectionParams ControlPanel::correctionParams() const
{
    return m_correction->params(m_base.correction);
}

void ControlPanel::setConfig(const core::RunConfig &config)
{
    m_loading = true;
    m_base = config;
    const int index = m_method->findData(QString::fromStdString(core::methodName(config.method)));
    m_method->setCurrentIndex(std::max(index, 0));
    m_nData->setValue(shownValue(m_nData, config.nData));
    m_temperature->setValue(config.temperature);
    m_step->setValue(config.step);
    m_samples->setValue(shownValue(m_samples, config.samples));
    m_seed->setValue(shownSeed(m_seed, config.seed));
    m_correction->applyParams(config.correction);
    m_dataset->applyConfig(config);
    m_minibatch->applyConfig(config);
    if (config.dataset != m_shownDataset)
        m_defaultsNote.clear();
    m_shownDataset = config.dataset;
    m_loading = false;
    if (m_running) { // what a later live edit is measured against
        m_liveTemperature = config.temperature;
        m_liveStep = config.step;
    }
    updateSharpness();
    updateModeWidgets();
    emit correctionChanged(correctionParams());
    emit settingsChanged();
}

RunRequest ControlPanel::request() const
{
    RunRequest request = RunRequest::single(config());
    if (m_compare->isChecked()) {
        request.methods = m_compare->methods();
        if (!request.methods.empty())
            request.config.method = request.methods.front();
    }
    request.chains = m_chains->value();
    request.parallel = m_parallel->isChecked();
    return request;
}

void ControlPanel::setRequest(const RunRequest &request)
{
    setConfig(request.config);
    m_loading = true;
    const bool compare = request.methods.size() > 1;
    if (compare)
        m_compare->setMethods(request.methods);
    m_compare->setChecked(compare);
    m_chains->setValue(std::clamp(request.chains, m_chains->minimum(), m_chains->maximum()));
    m_parallel->setChecked(request.parallel);
    m_loading = false;
    updateModeWidgets();
    emit settingsChanged();
}

void ControlPanel::fillSession(Session &session) const
{
    session.config = config();
    session.compare = m_compare->isChecked();
    session.compareMethods = m_compare->methods();
    session.chains = m_chains->value();
    session.parallel = m_parallel->isChecked();
}

void ControlPanel::applySession(const Session &session)
{
    setConfig(session.config);
    m_loading = true;
    m_compare->setMethods(session.compareMethods);
    m_compare->setChecked(session.compare);
    m_chains->setValue(std::clamp(session.chains, m_chains->minimum(), m_chains->maximum()));
    m_parallel->setChecked(session.parallel);
    m_loading = false;
    updateModeWidgets();
    emit settingsChanged();
}

void ControlPanel::setRunning(bool running)
{
    m_running = running;
    if (running) { // live edits are measured against the values the run started with
        m_liveTemperature = config().temperature;
        m_liveStep = config().step;
    }
    m_buttons->setRunning(running);
    updateModeWidgets();
}

void ControlPanel::setPaused(bool paused)
{
    m_buttons->setPaused(paused);
}

void ControlPanel::onDatasetPicked()
{
    const std::string dataset = m_dataset->dataset();
    if (dataset == m_shownDataset)
        return; // another source or file of the same model keeps T and step
    // The defaults of the new dataset, as the CLI applies them when T and step are not given.
    core::RunConfig defaults = config();
    if (dataset == "gmm") {
        defaults.temperature = core::RunConfig{}.temperature;
        defaults.step = core::RunConfig{}.step;
    } else {
        core::applyDatasetDefaults(defaults, false, false);
    }
    m_shownDataset = dataset;
    m_base.temperature = defaults.temperature;
    m_base.step = defaults.step;
    m_temperature->setValue(defaults.temperature);
    m_step->setValue(defaults.step);
    if (dataset == "gmm")
        m_defaultsNote = tr("Gaussian-mixture defaults set: T = %L1, step %2 (Sec. 6.1).")
                             .arg(defaults.temperature)
                             .arg(defaults.step);
    else if (dataset == "worst-case")
        m_defaultsNote = tr("Worst-case defaults set: T = %L1, step 1/√N = %2 (Sec. 2.1).")
                             .arg(defaults.temperature)
                             .arg(defaults.step, 0, 'g', 3);
    else
        m_defaultsNote = tr("Logistic-regression defaults set: T = %L1, step %2 (appendix Table 5).")
                             .arg(defaults.temperature)
                             .arg(defaults.step);
    updateModeWidgets();
    updateSharpness();
}

QString ControlPanel::sharpnessText() const
{
    return m_sharpness->text();
}

void ControlPanel::updateSharpness()
{
    QString text;
    if (m_dataset->isGenerated()) {
        text = tr("Posterior sharpness N/T = %L1").arg(m_nData->value() / m_temperature->value(), 0, 'g', 4);
    } else if (const qint64 rows = m_dataset->trainingRows(); rows > 0) {
        text = tr("Posterior sharpness N/T = %L1 (N = %L2 training rows)")
                   .arg(static_cast<double>(rows) / m_temperature->value(), 0, 'g', 4)
                   .arg(rows);
    } else {
        text = tr("Posterior sharpness N/T: N is the number of training rows, known once the data are checked");
    }
    m_sharpness->setText(m_defaultsNote.isEmpty() ? text : m_defaultsNote + QLatin1Char(' ') + text);
}

void ControlPanel::updateModeWidgets()
{
    // In compare mode the ticked methods replace the single method.
    m_method->setEnabled(!m_compare->isChecked());
    // Real data have the size they have; N only sizes the generated data sets.
    m_nData->setEnabled(m_dataset->isGenerated());
}

} // namespace ui
