// The control panel's "Run settings" group (method, N, T, step, samples, seed, chains) and the
// lines that depend on it: the posterior sharpness N/T and the defaults a dataset switch sets.
// Split from control_panel.cpp, which wires the boxes together and converts settings.
#include "ui/panel/control_panel.h"

#include <algorithm>
#include <limits>
#include <optional>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include "core/experiment/settings/presets.h"
#include "ui/panel/dataset_box.h"
#include "ui/panel/compare_box.h"
#include "ui/panel/method_texts.h"
#include "ui/panel/setting_help.h"
#include "ui/panel/slider_spin_box.h"
#include "ui/panel/spin_box_values.h"

namespace ui {
namespace {

// Larger N is possible in the core but would hold gigabytes; the GUI is for exploring.
constexpr int kMinGuiData = 1000, kMaxGuiData = 50'000'000;
constexpr int kMaxGuiSamples = 10'000'000;

// What a dataset switch or a preset set, shown beside N/T.
QString presetNote(const core::RunConfig &config)
{
    const core::DatasetEntry *entry = core::findDataset(config.dataset);
    const QString dataset = entry ? ControlPanel::tr(std::string(entry->label).c_str())
                                  : QString::fromStdString(config.dataset);
    QString note = config.preset == core::Preset::Paper
                       ? ControlPanel::tr("The paper's settings for the %1: T = %L2, step %3, %L4 samples.")
                       : ControlPanel::tr("Recommended settings for the %1: T = %L2, step %3, %L4 samples.");
    note = note.arg(dataset).arg(config.temperature).arg(config.step, 0, 'g', 3).arg(config.samples);
    if (entry && !entry->presetSizeReason.empty())
        note += ControlPanel::tr(" N = %L1: %2.").arg(config.nData).arg(QString::fromUtf8(entry->presetSizeReason.data(), static_cast<qsizetype>(entry->presetSizeReason.size())));
    if (config.proposal != core::ProposalKind::RandomWalk)
        note += ControlPanel::tr(" Proposal %1 with a burn-in of %L2.")
                    .arg(QString::fromStdString(core::proposalName(config.proposal)))
                    .arg(config.burnIn);
    if (core::controlVariateOrder(config) > 0)
        note += ControlPanel::tr(" Control variates %1.")
                    .arg(QString::fromStdString(core::controlVariatesName(config.controlVariates)));
    if (const int chains = core::presetChains(config, {config.method}); chains > 1)
        note += ControlPanel::tr(" %1 chains at once, for split R-hat on every weight.").arg(chains);
    return note;
}

} // namespace

// The preset, the method and its control variates: what the run is.
void ControlPanel::buildMethodControls()
{
    m_preset = new QComboBox;
    m_preset->setObjectName(QStringLiteral("preset"));
    m_preset->addItem(tr("recommended (mixes)"), QString::fromStdString(core::presetName(core::Preset::Recommended)));
    m_preset->addItem(tr("the paper's (Seita et al.)"), QString::fromStdString(core::presetName(core::Preset::Paper)));
    m_preset->setToolTip(withSettingHelp(
        tr("Which settings a dataset opens with. Recommended: a proposal that mixes on it (an adaptive random walk "
           "along the mixture's ridge, Hamiltonian moves preconditioned by the Laplace approximation on images, "
           "Crank–Nicolson moves around it on tall data), a burn-in for it to learn from and enough samples for "
           "thousands of effective draws; on images a N(0, I) prior, since the flat one is improper where the "
           "classes separate; on tall data Taylor control variates; for the worst case N = 100,000, where the test reads "
           "the same third of N as at the paper's 10⁶ in a tenth of the time. The paper's: Seita et al. Sec. 6's settings "
           "(3,000 random-walk samples at step 0.15 on the mixture, T = 100 and step 0.05 on images), which every "
           "reproduction of its figures uses. Picking one sets those settings; the others stay."),
        "preset"));
    m_method = narrowComboBox();
    for (const core::TestMethod method : allMethods()) {
        m_method->addItem(methodLabel(method), QString::fromStdString(core::methodName(method)));
        // Each choice says what it is and cites its paper, as in the compare box.
        m_method->setItemData(m_method->count() - 1, wrappedToolTip(methodDescription(method)), Qt::ToolTipRole);
    }
    m_method->setToolTip(withSettingHelp(tr("Acceptance test: the corrected minibatch Barker test (Seita et al. Sec. 4, Algorithm 1); "
                            "the baselines AustereMH (conservative: m and ε fixed in advance; non-conservative: "
                            "designed at every iteration from a full-data pass) and MHSubLhd (Sec. 6.1); "
                            "the full-data Barker or Metropolis–Hastings test (Sec. 3); the uncorrected minibatch "
                            "Barker test whose bias the correction removes (Sec. 3.3); or the exact minibatch kernels "
                            "that came later, for logistic data: SMH (Cornish et al. 2019, Sec. 3), whose Poisson-"
                            "thinned factors need the Taylor control variates, and TunaMH (Zhang, Cooper & De Sa 2020, "
                            "Sec. 4), whose Poisson batch is drawn by Lipschitz bounds, and FlyMC (Maclaurin & Adams "
                            "2014, Sec. 3), which reads only the points its brightness variables light."), "method"));

    m_controlVariates = new QComboBox;
    m_controlVariates->setObjectName(QStringLiteral("controlVariates"));
    const std::pair<core::ControlVariates, QString> variants[] = {
        {core::ControlVariates::Auto, tr("auto (none; taylor2 for smh, taylor1 for zigzag)")},
        {core::ControlVariates::None, tr("none")},
        {core::ControlVariates::Taylor1, tr("Taylor, first order")},
        {core::ControlVariates::Taylor2, tr("Taylor, second order")},
    };
    for (const auto &[kind, label] : variants)
        m_controlVariates->addItem(label, QString::fromStdString(core::controlVariatesName(kind)));
    m_controlVariates->setToolTip(withSettingHelp(
        tr("Control variates: Taylor proxies of every point's log-likelihood around the posterior mode (Bardenet, "
           "Doucet & Holmes 2017; Cornish et al. 2019). Their sum over all N points is exact, so the minibatch "
           "estimates only the residuals, and the minibatch test's variance condition (Seita et al. Sec. 4, "
           "Algorithm 1) holds with a small batch even as N grows and the posterior narrows. The mode is found "
           "once before sampling and the chains start there. For the minibatch tests on the mixture and the "
           "logistic models; MHSubLhd needs the logistic models' remainder bound."),
        "control_variates"));
}

// The data size, the temperature and the proposal: what shapes each move.
void ControlPanel::buildMoveControls()
{
    m_nData = integerBox(kMinGuiData, kMaxGuiData, 10'000);
    m_nData->setToolTip(withSettingHelp(tr("Number N of data points generated for the Gaussian mixture or the worst case; real "
                           "data have the size they have (Seita et al. Sec. 6.1 uses 1,000,000)."), "n_data_requested"));
    m_temperature = realBox(2, 0.01, 1e9, 100.0);
    m_temperature->setGroupSeparatorShown(true);
    m_temperature->setToolTip(withSettingHelp(tr("Temperature T divides every log-likelihood, so N/T sets how sharp the posterior is "
                                 "(Seita et al. Sec. 6.1 uses 10,000). During a run a new T applies from the next "
                                 "iteration and starts a marked chain segment."), "temperature"));
    // Five decimals: the worst case's step 1/√N is 0.001 at N = 10⁶ and smaller beyond.
    m_step = realBox(5, 0.00001, 10.0, 0.01);
    m_step->setToolTip(withSettingHelp(tr("Per-coordinate standard deviation of the Gaussian random-walk proposal "
                          "(Seita et al. Sec. 6.1 quotes 0.15, Sec. 2.1 uses 1/√N for the worst case). During a run "
                          "a new step applies from the next iteration and starts a marked chain segment. SGLD and "
                          "SGHMC on tall data under the recommended preset: left at the preset's value, the step is "
                          "the one their forecast takes, which the box shows once their chain starts (labelled "
                          "forecast); a typed step runs as typed."), "step"));
    m_proposal = narrowComboBox();
    m_proposal->addItem(tr("random walk"), QString::fromStdString(core::proposalName(core::ProposalKind::RandomWalk)));
    m_proposal->addItem(tr("Langevin (minibatch gradient)"),
                        QString::fromStdString(core::proposalName(core::ProposalKind::Langevin)));
    m_proposal->addItem(tr("adaptive random walk"), QString::fromStdString(core::proposalName(core::ProposalKind::Adaptive)));
    m_proposal->addItem(tr("adaptive Langevin"),
                        QString::fromStdString(core::proposalName(core::ProposalKind::AdaptiveLangevin)));
    m_proposal->addItem(tr("Laplace Langevin (regression)"),
                        QString::fromStdString(core::proposalName(core::ProposalKind::LaplaceLangevin)));
    m_proposal->addItem(tr("Laplace HMC (regression)"),
                        QString::fromStdString(core::proposalName(core::ProposalKind::LaplaceHamiltonian)));
    m_proposal->addItem(tr("Laplace Crank–Nicolson (regression)"),
                        QString::fromStdString(core::proposalName(core::ProposalKind::LaplaceCrankNicolson)));
    m_proposal->setToolTip(withSettingHelp(
        tr("How candidates are drawn: a Gaussian random walk of the step's size, or a Langevin step that also moves "
           "along a minibatch estimate of the posterior's gradient (its noise sd is the step). The gradient's "
           "minibatch is drawn independently of θ and the proposal ratio uses the same rows, so the acceptance "
           "test stays the only approximation (Korattikara et al. Sec. 4.2.4 pair an approximate test with such "
           "proposals). The adaptive kinds learn during the burn-in, from the chain's own draws, a covariance "
           "and scale (Haario et al. 2001; Roberts & Rosenthal's 2.38²/d) or a diagonal preconditioner and step, "
           "then freeze them, so that the samples after it come from one fixed kernel; the posterior chart draws "
           "the proposal's ellipse as it learns. The Laplace kinds (logistic regression only) first fit the "
           "posterior's Gaussian approximation (a few seconds; Stop ends it) and move in its whitened coordinates: "
           "a preconditioned Langevin step, Hamiltonian trajectories (the fastest for 784 weights), or "
           "Crank–Nicolson moves around it, each with its step learned during the burn-in."),
        "proposal"));
    m_gradBatch = integerBox(0, kMaxGuiData, 10);
    // 0 chooses B from the data's N when they are loaded (core::gradBatchFor).
    m_gradBatch->setSpecialValueText(tr("auto"));
    m_gradBatch->setToolTip(withSettingHelp(
        tr("Gradient proposals only (Langevin, Laplace Langevin and HMC): the rows B whose average gradient steers "
           "each proposal, in [1, N]; a Langevin iteration reads 2B rows for it, a trajectory B per leapfrog step. "
           "B = N is the full-data gradient (MALA); Korattikara et al. Sec. 4.2.4 steer SGLD proposals by minibatch "
           "gradients the same way. auto (0): N/30 within 100 … 400, since the gradient's noise grows with N."),
        "grad_batch"));
    m_leapfrogSteps = integerBox(1, 1000, 4);
    m_leapfrogSteps->setToolTip(withSettingHelp(
        tr("Laplace HMC only: the mean number K of leapfrog steps per trajectory; each trajectory draws its length "
           "uniformly from 1 to 2K − 1, so that successive draws do not fall into step with the posterior's period. "
           "A trajectory reads B rows per step: longer ones travel further per candidate at a proportional cost. "
           "The candidate enters the test only through its log proposal ratio, here the change in kinetic energy "
           "(Seita et al. Sec. 3), so K changes the speed, not the posterior."),
        "leapfrog_steps"));
}

// How long each chain runs, from which seed, and how many chains.
void ControlPanel::buildLengthControls()
{
    m_samples = integerBox(1, kMaxGuiSamples, 1000);
    m_samples->setToolTip(withSettingHelp(tr("Number of Metropolis–Hastings iterations per chain, one posterior sample each "
                             "(Seita et al. Sec. 6.1 draws 3000)."), "samples"));
    m_burnIn = integerBox(0, kMaxGuiSamples - 1, 0);
    m_burnIn->setToolTip(withSettingHelp(
        tr("The first iterations of each chain, counted in the samples, that only warm the chain up (Seita et al. "
           "Sec. 6.2 anneal during one): drawn at the target, ended by a dashed line on the traces, and never counted "
           "in the figures or written to a samples file. The adaptive proposals learn during it (Haario et al. 2001) "
           "and need one: choosing one fills in a fifth of the samples."),
        "burn_in"));
    m_seed = integerBox(0, std::numeric_limits<int>::max(), 1);
    m_seed->setToolTip(withSettingHelp(tr("Seed of the first chain's random stream; chain k uses seed + k. The data keep their own "
                          "fixed seed so that every method sees the same data set (Seita et al. Sec. 6.1)."), "seed"));
    m_chains = integerBox(1, 4, 1);
    m_chains->setToolTip(wrappedToolTip(tr("Chains per method, 1 to 4. The diagnostics table shows the split R-hat "
                                           "across them (with one chain, across its two halves; Sec. 6 reports "
                                           "averages over repeated runs).")));
    m_parallel = new QCheckBox(tr("Run chains in parallel"));
    m_parallel->setToolTip(wrappedToolTip(tr("Run the chains (and compared methods) at the same time, one per processor core, like "
                              "the repeated runs Seita et al. Sec. 6 average; per-chain speed figures then share "
                              "the cores.")));
}

QWidget *ControlPanel::buildRunGroup()
{
    buildMethodControls();
    buildMoveControls();
    buildLengthControls();

    // Sliders for the settings one explores; samples and the seed are typed. Log scales where
    // the interesting values span decades.
    using Scale = SliderSpinBox::Scale;
    auto *form = m_runForm = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Preset"), m_preset); // every letter is some other control's Alt key
    form->addRow(tr("&Method"), m_method);
    form->addRow(tr("Control variates"), m_controlVariates); // every letter is some other control's Alt key
    m_nDataSlider = new SliderSpinBox(m_nData, tr("N"), Scale::Logarithmic, kMinGuiData, kMaxGuiData);
    form->addRow(tr("Data po&ints N"), m_nDataSlider);
    auto *temperatureSlider = new SliderSpinBox(m_temperature, tr("T"), Scale::Logarithmic, 0.1, 1e7);
    // A quarter of a decade per 20 pixels: a hand can set T to within a few per cent, and a
    // drag across the slider's width still spans a few decades.
    temperatureSlider->setDragDecadesPerPixel(0.25 / 20.0);
    form->addRow(tr("Temperat&ure T"), temperatureSlider);
    m_stepSlider = new SliderSpinBox(m_step, tr("The proposal step"), Scale::Logarithmic, 1e-5, 10.0);
    m_stepLabel = new QLabel(tr("Pr&oposal step"));
    m_stepLabel->setBuddy(m_step);
    form->addRow(m_stepLabel, m_stepSlider);
    form->addRow(tr("Proposal &kind"), m_proposal);
    m_gradBatchSlider = new SliderSpinBox(m_gradBatch, tr("The gradient batch"), Scale::Logarithmic, 1, kMaxGuiData);
    form->addRow(tr("Gradient batch B"), m_gradBatchSlider); // every letter is some other control's Alt key
    m_leapfrogSlider = new SliderSpinBox(m_leapfrogSteps, tr("The leapfrog steps"), Scale::Logarithmic, 1, 1000);
    form->addRow(tr("Leapfrog steps K"), m_leapfrogSlider);
    m_samplesLabel = new QLabel(tr("S&amples"));
    m_samplesLabel->setBuddy(m_samples);
    form->addRow(m_samplesLabel, m_samples);
    form->addRow(tr("Burn-in"), m_burnIn); // every letter is some other control's Alt key
    form->addRow(tr("S&eed"), m_seed);
    form->addRow(tr("C&hains"), new SliderSpinBox(m_chains, tr("Chains"), Scale::Linear, 1, 4));
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

void ControlPanel::setUntilStopped(bool on)
{
    // Until stopped, the box sizes the moving window the charts and figures describe.
    m_samplesLabel->setText(on ? tr("S&amples shown") : tr("S&amples"));
    m_samples->setToolTip(withSettingHelp(
        on ? tr("Continuous mode: the charts, acceptance and mean batch show the latest this many iterations of each "
                "chain (a moving window); the run goes on until Stop.")
           : tr("Number of Metropolis–Hastings iterations per chain, one posterior sample each (Seita et al. Sec. 6.1 "
                "draws 3000)."),
        "samples"));
}

void ControlPanel::onDatasetPicked()
{
    const std::string dataset = m_dataset->defaultsKind();
    if (dataset == m_shownDataset)
        return; // another source or file of the same model keeps its settings
    core::RunConfig picked = config();
    // N is a preset's setting for the worst case alone: leaving it gives the next generated
    // set the N every other dataset starts from.
    if (const core::DatasetEntry *shown = core::findDataset(m_shownDataset); shown && !shown->presetSizeReason.empty())
        picked.nData = core::RunConfig{}.nData;
    m_shownDataset = dataset;
    showPresetSettings(core::withPreset(picked, picked.preset, request().methods));
    showPresetChains();
}

void ControlPanel::showPresetChains()
{
    // The chains are the request's, not the config's: the preset's count for the settings just
    // shown (two at once for the Hamiltonian run on images, else one).
    const int chains = core::presetChains(config(), request().methods);
    m_chains->setValue(chains);
    if (chains > 1)
        m_parallel->setChecked(true);
}

void ControlPanel::onPresetPicked()
{
    if (m_loading)
        return;
    showPresetSettings(core::withPreset(config(), config().preset, request().methods));
    showPresetChains();
    emit settingsChanged();
    requestRestart(tr("the preset"));
}

void ControlPanel::showPresetSettings(const core::RunConfig &defaults)
{
    // The widgets' own signals mark the run stale and keep the burn-in rule; the caller says
    // what changed.
    m_base.nData = defaults.nData;
    m_generatedN = defaults.nData;
    if (!m_showingTrainingRows)
        m_nData->setValue(shownValue(m_nData, defaults.nData));
    m_base.temperature = defaults.temperature;
    m_base.step = defaults.step;
    dropForecastStep(false); // the preset's step is set below
    m_base.samples = defaults.samples;
    m_base.burnIn = defaults.burnIn;
    m_base.gradBatch = defaults.gradBatch;
    m_gradBatch->setValue(shownValue(m_gradBatch, defaults.gradBatch));
    m_base.tunaChi = defaults.tunaChi; // no widget: 0 (the forecast's) under the recommended preset
    m_base.sgStepBias = defaults.sgStepBias; // no widget: the forecast's step, unless one is typed
    m_base.annealFrom = defaults.annealFrom;
    m_base.logreg.model = defaults.logreg.model;
    m_dataset->setModel(defaults.logreg.model);
    m_base.logreg.standardize = defaults.logreg.standardize;
    m_dataset->setStandardize(defaults.logreg.standardize);
    m_temperature->setValue(defaults.temperature);
    m_step->setValue(defaults.step);
    m_samples->setValue(shownValue(m_samples, defaults.samples));
    m_burnIn->setValue(shownValue(m_burnIn, defaults.burnIn));
    m_proposal->setCurrentIndex(
        std::max(m_proposal->findData(QString::fromStdString(core::proposalName(defaults.proposal))), 0));
    m_controlVariates->setCurrentIndex(std::max(
        m_controlVariates->findData(QString::fromStdString(core::controlVariatesName(defaults.controlVariates))), 0));
    m_defaultsNote = presetNote(defaults);
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

void ControlPanel::updateMethodAvailability()
{
    // A method whose needs the model lacks is greyed out, its tooltip saying what is missing and
    // why (what the run's refusal reads: capability_check.h).
    const core::ModelOffer &model = m_dataset->modelOffer();
    const QString label = QString::fromStdString(model.label);
    auto *items = qobject_cast<QStandardItemModel *>(m_method->model());
    if (!items)
        return;
    for (int index = 0; index < m_method->count(); ++index) {
        const core::TestMethod method = core::parseMethod(m_method->itemData(index).toString().toStdString());
        const core::CapabilitySet missing = core::methodRow(method).needs.missingFrom(model.capabilities);
        QString tip = methodDescription(method);
        for (core::ModelCapability capability : missing.members())
            tip += tr("\n\nNot for %1: it needs %2, and %1 has none: %3.")
                       .arg(label,
                            QString::fromUtf8(core::capabilityName(capability).data(),
                                              static_cast<qsizetype>(core::capabilityName(capability).size())),
                            QString::fromStdString(model.whyItLacks(capability)));
        if (QStandardItem *item = items->item(index)) {
            item->setEnabled(missing.empty());
            item->setToolTip(wrappedToolTip(tip));
        }
    }
    // The proposals built around the Laplace fit, or moving along the gradient, likewise.
    auto *proposals = qobject_cast<QStandardItemModel *>(m_proposal->model());
    for (int index = 0; proposals && index < m_proposal->count(); ++index) {
        const core::ProposalKind kind = core::parseProposal(m_proposal->itemData(index).toString().toStdString());
        const bool lacksFit = core::usesLaplaceFit(kind) && !model.capabilities.has(core::ModelCapability::LaplaceFit);
        const bool lacksGradient = core::usesGradient(kind) && !model.capabilities.has(core::ModelCapability::Gradient);
        const std::string reason =
            model.whyItLacks(lacksFit ? core::ModelCapability::LaplaceFit : core::ModelCapability::Gradient);
        if (QStandardItem *item = proposals->item(index)) {
            item->setEnabled(!lacksFit && !lacksGradient);
            item->setToolTip(item->isEnabled()
                                 ? QString()
                                 : wrappedToolTip(tr("Not for %1: %2.").arg(label, QString::fromStdString(reason))));
        }
    }
}

void ControlPanel::updateModeWidgets()
{
    // In compare mode the ticked methods replace the single method.
    m_method->setEnabled(!m_compare->isChecked());
    updateMethodAvailability();
    // Real data have the size they have; N only sizes the generated data sets. For real data
    // the box shows the training rows once the check knows them (blank until then), and the
    // generated N comes back when a generated set is chosen again.
    const bool generated = m_dataset->isGenerated();
    m_nDataSlider->setEnabled(generated);
    const core::ProposalKind proposal = core::parseProposal(m_proposal->currentData().toString().toStdString());
    // SGLD and SGHMC move by their own dynamics (no proposal, no test): the proposal box does not
    // apply, and the step and the gradient's batch are theirs.
    const std::optional<core::TestMethod> single =
        !m_compare->isChecked() && m_method->currentIndex() >= 0
            ? std::optional(core::parseMethod(m_method->currentData().toString().toStdString()))
            : std::nullopt;
    const bool ownDynamics = single && core::movesWithoutAcceptStep(*single);
    m_proposal->setEnabled(!ownDynamics);
    // A compare with a method that moves by its own dynamics runs it with the form's step.
    const std::vector<core::TestMethod> ticked =
        m_compare->isChecked() ? m_compare->methods() : std::vector<core::TestMethod>{};
    const bool someOwnDynamics = ownDynamics || std::any_of(ticked.begin(), ticked.end(), core::movesWithoutAcceptStep);
    // The Zig-Zag process reads one point per event, no gradient batch.
    m_gradBatchSlider->setEnabled(core::usesGradient(proposal) || (single && core::isApproximateDynamics(*single)));
    m_leapfrogSlider->setEnabled(proposal == core::ProposalKind::LaplaceHamiltonian);
    // Rows a proposal does not use are hidden, not only greyed: the panel then fits a 1280×800
    // screen further down before it scrolls.
    m_runForm->setRowVisible(m_gradBatchSlider, m_gradBatchSlider->isEnabled());
    m_runForm->setRowVisible(m_leapfrogSlider, m_leapfrogSlider->isEnabled());
    // These two start from the Laplace approximation's own scale and learn it in the burn-in: the
    // form's step is not used, so its row goes rather than show a number that means nothing (the
    // burn-in's end notice gives the step learned).
    m_stepSlider->setEnabled(someOwnDynamics
                             || (proposal != core::ProposalKind::LaplaceHamiltonian
                                 && proposal != core::ProposalKind::LaplaceCrankNicolson));
    m_runForm->setRowVisible(m_stepSlider, m_stepSlider->isEnabled());
    const bool loading = m_loading;
    m_loading = true; // the box shows a fact, not an edit
    if (!generated) {
        if (!m_showingTrainingRows)
            m_generatedN = keptValue(m_nData, m_generatedN);
        m_showingTrainingRows = true;
        m_nData->setRange(0, kMaxGuiData);
        m_nData->setSpecialValueText(tr("known once the data are checked"));
        m_nData->setValue(static_cast<int>(std::min<qint64>(m_dataset->trainingRows(), kMaxGuiData)));
    } else if (m_showingTrainingRows) {
        m_showingTrainingRows = false;
        m_nData->setSpecialValueText(QString());
        m_nData->setRange(kMinGuiData, kMaxGuiData);
        m_nData->setValue(shownValue(m_nData, m_generatedN));
    }
    m_loading = loading;
}

} // namespace ui
