#include "ui/panel/control_panel.h"

#include "core/experiment/settings/presets.h"

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

#include "ui/panel/checked_spin_box.h"
#include "ui/panel/compare_box.h"
#include "ui/panel/correction_box.h"
#include "ui/panel/dataset_box.h"
#include "ui/panel/minibatch_box.h"
#include "ui/run/run_buttons.h"
#include "ui/files/session.h"
#include "ui/panel/spin_box_values.h"
#include "ui/panel/setting_help.h"
#include "ui/panel/wheel_guard.h"

namespace ui {
namespace {

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
    // After every box is built: the wheel scrolls the form over boxes without the focus.
    WheelGuard::guardChildren(this);

    // In this order: Qt calls a signal's slots in the order they were connected.
    connectEditSignals();
    connectLiveChanges();
    connectRestarts();

    setConfig(core::RunConfig{});
    setRunning(false);
}

namespace {

// The label of the form row that holds `widget` (a box, or the slider row around it), without
// its mnemonic's ampersand; the box's accessible name where no form labels it.
QString fieldName(const QWidget *widget)
{
    for (const QWidget *w = widget; w && w->parentWidget(); w = w->parentWidget()) {
        // A form may sit inside another layout of the parent (a group box's column).
        for (const QFormLayout *form : w->parentWidget()->findChildren<QFormLayout *>()) {
            const auto *label = qobject_cast<const QLabel *>(form->labelForField(const_cast<QWidget *>(w)));
            if (!label)
                continue;
            QString text = label->text();
            text.remove(QLatin1Char('&'));
            if (!text.isEmpty())
                return text;
        }
    }
    return widget->accessibleName();
}

} // namespace

QString ControlPanel::inputProblem() const
{
    return firstRefusal(*this, [](const QAbstractSpinBox *box) { return fieldName(box); });
}

void ControlPanel::connectEditSignals()
{
    const auto refusalShown = [this] { emit inputRefused(inputProblem()); };
    for (auto *refusals : findChildren<RefusalSignal *>()) // one for each checked box
        connect(refusals, &RefusalSignal::refusalChanged, this, refusalShown);
    connect(m_nData, &QSpinBox::valueChanged, this, &ControlPanel::updateSharpness);
    connect(m_temperature, &QDoubleSpinBox::valueChanged, this, &ControlPanel::updateSharpness);
    connect(m_compare, &CompareBox::selectionChanged, this, &ControlPanel::updateModeWidgets);
    // The box's forecast step belongs to the run it came from. A step typed over it stays as
    // typed; T goes to the running chains, which keep their step; any other edit asks for
    // another run, whose form shows its own step again.
    connect(m_step, &QDoubleSpinBox::valueChanged, this, [this] {
        if (!m_loading)
            dropForecastStep(false);
    });
    connect(m_correction, &CorrectionBox::edited, this, [this](const QString &setting) {
        if (m_loading)
            return;
        dropForecastStep(true);
        emit correctionChanged(correctionParams());
        emit settingsChanged();
        requestRestart(setting);
    });
    auto changed = [this] {
        if (!m_loading)
            emit settingsChanged();
    };
    auto edited = [this] {
        if (m_loading)
            return;
        dropForecastStep(true);
        emit settingsChanged();
    };
    for (QSpinBox *box : {m_nData, m_samples, m_burnIn, m_seed, m_chains})
        connect(box, &QSpinBox::valueChanged, this, edited);
    for (QDoubleSpinBox *box : {m_temperature, m_step})
        connect(box, &QDoubleSpinBox::valueChanged, this, changed);
    connect(m_method, &QComboBox::currentIndexChanged, this, edited);
    connect(m_method, &QComboBox::currentIndexChanged, this, &ControlPanel::updateModeWidgets);
    connect(m_preset, &QComboBox::currentIndexChanged, this, &ControlPanel::onPresetPicked);
    connect(m_controlVariates, &QComboBox::currentIndexChanged, this, edited);
    connect(m_proposal, &QComboBox::currentIndexChanged, this, edited);
    connect(m_proposal, &QComboBox::currentIndexChanged, this, &ControlPanel::updateModeWidgets);
    // An adaptive proposal learns from the burn-in: picking one without a burn-in gives it one,
    // a fifth of the samples, rather than a refusal at the next run.
    connect(m_proposal, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_loading && m_burnIn->value() == 0
            && core::learnsDuringBurnIn(core::parseProposal(m_proposal->currentData().toString().toStdString())))
            m_burnIn->setValue(std::max(1, m_samples->value() / 5));
    });
    connect(m_gradBatch, &QSpinBox::valueChanged, this, edited);
    connect(m_leapfrogSteps, &QSpinBox::valueChanged, this, edited);
    connect(m_parallel, &QCheckBox::toggled, this, edited);
    connect(m_compare, &CompareBox::selectionChanged, this, edited);
    connect(m_minibatch, &MinibatchBox::settingsChanged, this, edited);
    // The box's own checks (a file read again) change settings too, but only the user's edits
    // ask for another run.
    connect(m_dataset, &DatasetBox::settingsChanged, this, changed);
    connect(m_dataset, &DatasetBox::userEdited, this, [this] {
        if (!m_loading)
            dropForecastStep(true);
    });
    connect(m_dataset, &DatasetBox::settingsChanged, this, &ControlPanel::updateSharpness);
    connect(m_dataset, &DatasetBox::settingsChanged, this, &ControlPanel::updateModeWidgets);
    connect(m_dataset, &DatasetBox::datasetPicked, this, &ControlPanel::onDatasetPicked);
}

void ControlPanel::connectLiveChanges()
{
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
}

void ControlPanel::connectRestarts()
{
    // Every other setting defines the sampler itself: name it so the window can restart.
    auto restart = [this](const QString &setting) { return [this, setting] { requestRestart(setting); }; };
    connect(m_method, &QComboBox::currentIndexChanged, this, restart(tr("the method")));
    connect(m_controlVariates, &QComboBox::currentIndexChanged, this, restart(tr("the control variates")));
    connect(m_nData, &QSpinBox::valueChanged, this, restart(tr("N")));
    connect(m_proposal, &QComboBox::currentIndexChanged, this, restart(tr("the proposal")));
    connect(m_gradBatch, &QSpinBox::valueChanged, this, restart(tr("the gradient batch")));
    connect(m_leapfrogSteps, &QSpinBox::valueChanged, this, restart(tr("the leapfrog steps")));
    connect(m_samples, &QSpinBox::valueChanged, this, restart(tr("the number of samples")));
    connect(m_burnIn, &QSpinBox::valueChanged, this, restart(tr("the burn-in")));
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

core::RunConfig ControlPanel::config() const
{
    core::RunConfig config = m_base;
    config.preset = core::parsePreset(m_preset->currentData().toString().toStdString());
    config.method = core::parseMethod(m_method->currentData().toString().toStdString());
    config.controlVariates = core::parseControlVariates(m_controlVariates->currentData().toString().toStdString());
    // For real data the N box shows the training rows; the generated N is kept aside.
    config.nData = m_showingTrainingRows ? m_generatedN : keptValue(m_nData, m_base.nData);
    config.temperature = keptValue(m_temperature, m_base.temperature);
    // The box may show the step the last run's forecast took: the form still asks for the preset's.
    config.step = showsForecastStep() ? m_base.step : keptValue(m_step, m_base.step);
    // A step typed in the box runs as typed; only the preset's is left to SGLD's forecast.
    if (config.step != m_base.step)
        config.sgStepBias = 0.0;
    config.proposal = core::parseProposal(m_proposal->currentData().toString().toStdString());
    config.gradBatch = keptValue(m_gradBatch, m_base.gradBatch);
    config.leapfrogSteps = keptValue(m_leapfrogSteps, m_base.leapfrogSteps);
    config.samples = keptValue(m_samples, m_base.samples);
    config.burnIn = keptValue(m_burnIn, m_base.burnIn);
    config.seed = m_seed->value() == shownSeed(m_seed, m_base.seed) ? m_base.seed
                                                                    : static_cast<std::uint64_t>(m_seed->value());
    config.correction = correctionParams();
    m_dataset->fillConfig(config);
    m_minibatch->fillConfig(config);
    return config;
}

void ControlPanel::showForecastStep(double step)
{
    const bool loading = m_loading;
    m_loading = true; // the box shows what runs, not an edit
    m_forecastStep = step;
    m_step->setValue(step);
    m_stepLabel->setText(tr("Pr&oposal step (forecast)"));
    m_loading = loading;
}

void ControlPanel::dropForecastStep(bool showFormStep)
{
    if (!showsForecastStep())
        return;
    m_forecastStep = 0.0;
    m_stepLabel->setText(tr("Pr&oposal step"));
    if (!showFormStep)
        return;
    const bool loading = m_loading;
    m_loading = true;
    m_step->setValue(m_base.step);
    m_loading = loading;
}

core::CorrectionParams ControlPanel::correctionParams() const
{
    return m_correction->params(m_base.correction);
}

void ControlPanel::setConfig(const core::RunConfig &config)
{
    m_loading = true;
    m_base = config;
    dropForecastStep(false); // the config's step is set below
    m_preset->setCurrentIndex(std::max(m_preset->findData(QString::fromStdString(core::presetName(config.preset))), 0));
    const int index = m_method->findData(QString::fromStdString(core::methodName(config.method)));
    m_method->setCurrentIndex(std::max(index, 0));
    m_controlVariates->setCurrentIndex(std::max(
        m_controlVariates->findData(QString::fromStdString(core::controlVariatesName(config.controlVariates))), 0));
    m_generatedN = config.nData;
    m_nData->setValue(shownValue(m_nData, config.nData));
    m_temperature->setValue(config.temperature);
    m_step->setValue(config.step);
    m_proposal->setCurrentIndex(std::max(m_proposal->findData(QString::fromStdString(core::proposalName(config.proposal))), 0));
    m_gradBatch->setValue(shownValue(m_gradBatch, config.gradBatch));
    m_leapfrogSteps->setValue(shownValue(m_leapfrogSteps, config.leapfrogSteps));
    m_samples->setValue(shownValue(m_samples, config.samples));
    m_burnIn->setValue(shownValue(m_burnIn, config.burnIn));
    m_seed->setValue(shownSeed(m_seed, config.seed));
    m_correction->applyParams(config.correction);
    m_dataset->applyConfig(config);
    m_minibatch->applyConfig(config);
    if (m_dataset->defaultsKind() != m_shownDataset)
        m_defaultsNote.clear();
    m_shownDataset = m_dataset->defaultsKind();
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
        request.methods = m_compare->entryMethods();
        request.controlVariates = m_compare->entryControlVariates();
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
    if (compare) {
        // Entries with and without taylor2 of the same method are the box's control-variate twins;
        // taylor2 without its twin is the box's "taylor2 only".
        bool withTaylor2 = false, twins = false;
        for (std::size_t k = 0; k < request.controlVariates.size(); ++k) {
            if (request.controlVariates[k] != core::ControlVariates::Taylor2)
                continue;
            withTaylor2 = true;
            for (std::size_t j = 0; j < request.controlVariates.size(); ++j)
                twins = twins
                        || (j != k && request.methods[j] == request.methods[k]
                            && request.controlVariates[j] != core::ControlVariates::Taylor2);
        }
        m_compare->setVariants(twins         ? CompareBox::Variants::WithAndWithout
                               : withTaylor2 ? CompareBox::Variants::Taylor2
                                             : CompareBox::Variants::AsTheForm);
        m_compare->setMethods(request.methods);
    }
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
    session.compareWithControlVariates = m_compare->variants() == CompareBox::Variants::WithAndWithout;
    session.compareOnlyWithControlVariates = m_compare->variants() == CompareBox::Variants::Taylor2;
    session.chains = m_chains->value();
    session.parallel = m_parallel->isChecked();
}

void ControlPanel::applySession(const Session &session)
{
    setConfig(session.config);
    m_loading = true;
    m_compare->setMethods(session.compareMethods);
    m_compare->setVariants(session.compareWithControlVariates       ? CompareBox::Variants::WithAndWithout
                           : session.compareOnlyWithControlVariates ? CompareBox::Variants::Taylor2
                                                                    : CompareBox::Variants::AsTheForm);
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

} // namespace ui
