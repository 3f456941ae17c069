// The window's side of the run lifecycle: it asks its RunController to start, stop, reset and
// restart runs and shows what the controller and the worker report (states, snapshots,
// outcomes, failures), and it applies live temperature and step changes. The window's
// assembly, menus, sessions, drag and drop and shutdown are in main_window.cpp.
#include "ui/main_window.h"

#include <algorithm>
#include <exception>

#include "core/experiment/reports/mixing_check.h"
#include "core/experiment/service/live_kernel.h"
#include "core/experiment/settings/method_registry.h"
#include "core/experiment/settings/settings_table.h"
#include "ui/panel/compare_box.h"
#include "ui/run/continuous_controls.h"
#include "ui/panel/control_panel.h"
#include "ui/panel/dataset_box.h"
#include "ui/charts/posterior_preview.h"
#include "ui/pages/results_view.h"
#include "ui/run/run_controller.h"
#include "ui/run/run_status_strip.h"
#include "ui/run/stale_banner.h"
#include "ui/charts/trace_chart.h"

namespace ui {

void MainWindow::connectRunController()
{
    SamplerWorker *worker = m_runs->worker();
    connect(worker, &SamplerWorker::statusMessage, this, &MainWindow::showStatus);
    connect(worker, &SamplerWorker::preparationProgress, m_strip, &RunStatusStrip::showPreparation);
    connect(worker, &SamplerWorker::posteriorImageReady, m_results, &ResultsView::setPosteriorImage);
    connect(worker, &SamplerWorker::posteriorImageReady, this, &MainWindow::sayWhetherTheHeatMapShowsThePosterior);
    connect(worker, &SamplerWorker::plottedComponentsChosen, m_results, &ResultsView::setComponentNames);
    connect(worker, &SamplerWorker::snapshot, this, &MainWindow::onSnapshot);
    connect(worker, &SamplerWorker::forecastStepTaken, this, &MainWindow::onForecastStepTaken);
    connect(m_runs, &RunController::runStarting, this, &MainWindow::onRunStarting);
    connect(m_runs, &RunController::stateChanged, this, &MainWindow::onStateChanged);
    connect(m_runs, &RunController::runFinished, this, &MainWindow::onFinished);
    connect(m_runs, &RunController::runFailed, this, &MainWindow::onRunFailed);
    connect(m_runs, &RunController::restarted, this, &MainWindow::onRestarted);
    connect(m_runs, &RunController::cleared, this, &MainWindow::clearResults);
    connect(m_runs, &RunController::restartRefused, this, [this](const QString &setting, const QString &problem) {
        reportError(tr("Not restarted"),
                    tr("%1 changed, but the run cannot restart with these settings: %2 The current run goes on.")
                        .arg(setting, problem));
    });
    m_runs->setRestartSource({[this] { return controlsProblem(); }, [this] { return startRunFromControls(); }});
}

QString MainWindow::controlsProblem() const
{
    // A box showing text it refused: its value is not what the user sees, so nothing runs on it.
    if (const QString problem = m_controls->inputProblem(); !problem.isEmpty())
        return problem;
    const CompareBox *compare = m_controls->compareBox();
    if (compare->isChecked() && !compare->isValidSelection())
        return tr("Compare mode needs 2 to %1 runs; the ticked methods make %2.")
            .arg(CompareBox::kMaxMethods)
            .arg(compare->entryMethods().size());
    if (const QString problem = m_controls->datasetBox()->runProblem(); !problem.isEmpty())
        return problem;
    try {
        validateInWindow(m_controls->request());
    } catch (const std::exception &error) {
        return QString::fromStdString(error.what());
    }
    return {};
}

bool MainWindow::startRunFromControls()
{
    if (const QString problem = controlsProblem(); !problem.isEmpty()) {
        reportFailure(problem);
        return false;
    }
    RunRequest request = m_controls->request();
    request.untilStopped = m_untilStopped;
    return startRequest(request);
}

void MainWindow::setUntilStopped(bool on)
{
    m_untilStopped = on;
    if (m_continuous->untilStoppedAction()->isChecked() != on)
        m_continuous->untilStoppedAction()->setChecked(on);
    m_controls->setUntilStopped(on);
    showStatus(on ? tr("Continuous mode: Run samples until Stop, showing the latest %L1 samples per chain (the Samples "
                       "box). Drag T, the step or σ and watch the chain follow.")
                        .arg(m_controls->request().config.samples)
                  : tr("Runs of fixed length: Run samples the number of samples set."));
}

bool MainWindow::applyLiveKernel(const QString &setting)
{
    if (!m_runs->isActive() || m_runs->isShutDown() || m_runs->isRestartPending() || !m_shownRequest)
        return false;
    // A form that cannot run goes the restart's way, which says why and keeps the run going.
    if (!controlsProblem().isEmpty())
        return false;
    const RunRequest form = m_controls->request();
    const RunRequest &running = *m_shownRequest;
    // A compare keeps its methods: each channel is one of them.
    if (form.chains != running.chains || form.methods.size() != running.methods.size()
        || (running.methods.size() > 1 && form.methods != running.methods))
        return false;
    core::RunConfig kernel = running.config;
    core::copyKernelSettings(form.config, kernel);
    kernel.temperature = form.config.temperature; // these two go live on their own
    kernel.step = form.config.step;
    if (!core::settingDifferences(kernel, form.config).empty())
        return false; // the data, N, a seed or the window: a new run
    if (core::sameKernel(kernel, running.config) && form.methods == running.methods)
        return false; // no new acceptance test: whatever asked for a restart needs one
    try {
        worker()->setLiveKernel(form.config);
    } catch (const std::exception &error) {
        reportError(tr("Not applied"), QString::fromStdString(error.what()));
        return true; // nothing to restart either: the form cannot run
    }
    core::copyKernelSettings(form.config, m_shownRequest->config);
    m_shownRequest->methods = form.methods;
    showStatus(tr("%1 changed: the chains switch to the new acceptance test %2 and go on from where they are, as a new "
                  "segment (dashed line on the traces).")
                   .arg(setting, m_runs->request().untilStopped ? tr("within a tenth of a second")
                                                                : tr("within 64 iterations")));
    compareShownWithForm();
    return true;
}

bool MainWindow::startRun(const core::RunConfig &config)
{
    return startRequest(RunRequest::single(config));
}

bool MainWindow::startRequest(const RunRequest &request)
{
    if (m_runs->isShutDown()) {
        reportFailure(tr("The sampler has shut down."));
        return false;
    }
    if (m_runs->isActive()) {
        showStatus(tr("A run is already in progress."));
        return false;
    }
    try {
        validateInWindow(request);
    } catch (const std::exception &error) {
        reportFailure(QString::fromStdString(error.what()));
        return false;
    }
    return m_runs->start(request); // onRunStarting() prepares the widgets
}

void MainWindow::onRunStarting(const RunRequest &request)
{
    m_controls->setRequest(request); // a run started from code shows its settings too
    m_shownRequest = request;
    m_autoRunDelay->stop();
    m_channelCompleted = QVector<qint64>(request.channelCount(), 0);
    m_channelSegments = QVector<int>(request.channelCount(), 0);
    m_channelInBurnIn = QVector<bool>(request.channelCount(), false);
    m_channelStepForecast = QVector<bool>(request.channelCount(), false);
    m_stepSetLive = false;
    m_results->beginRun(request);
    m_lastError.clear();
    m_lastOutcome.reset();
    m_strip->beginRun();
}

void MainWindow::stopRun()
{
    m_runs->stop();
    if (m_runs->state() == RunState::Stopping)
        showStatus(tr("Stopping…"));
}

void MainWindow::resetRun()
{
    m_runs->reset(); // clearResults() follows at once, or once the chains have stopped
    if (m_runs->state() == RunState::Resetting)
        showStatus(tr("Resetting…"));
}

void MainWindow::clearResults()
{
    m_results->clearResults();
    m_strip->clear();
    m_lastOutcome.reset();
    m_shownRequest.reset();
    compareShownWithForm();
    m_lastError.clear();
    showStatus(tr("Reset: charts, diagnostics and statistics cleared. Press Run (Ctrl+R) to start again."));
    emit resetDone();
}

bool MainWindow::fixedDesignNeedsRestart(const QString &setting)
{
    const RunRequest &request = m_runs->request();
    for (int channel = 0; channel < request.channelCount(); ++channel)
        if (!core::followsLiveTuning(request.channelConfig(channel))) {
            scheduleRestart(tr("%1 (AustereMH(c)'s design was chosen for the old value)").arg(setting));
            return true;
        }
    return false;
}

bool MainWindow::applyLiveTemperature(double temperature)
{
    return applyLiveValue(LiveValue::Temperature, temperature);
}

bool MainWindow::applyLiveStep(double step)
{
    return applyLiveValue(LiveValue::Step, step);
}

bool MainWindow::applyLiveValue(LiveValue which, double value)
{
    const bool isTemperature = which == LiveValue::Temperature;
    const QString setting = isTemperature ? tr("the temperature") : tr("the proposal step");
    // With a restart pending, the new run starts with the new value anyway.
    if (!m_runs->isActive() || m_runs->isShutDown() || m_runs->isRestartPending() || fixedDesignNeedsRestart(setting))
        return false;
    const double before = isTemperature ? m_shownRequest->config.temperature : m_shownRequest->config.step;
    try {
        if (isTemperature)
            worker()->setLiveTemperature(value);
        else
            worker()->setLiveStep(value);
    } catch (const std::exception &error) {
        reportError(tr("Not applied"), QString::fromStdString(error.what()));
        return false;
    }
    (isTemperature ? m_shownRequest->config.temperature : m_shownRequest->config.step) = value;
    if (!isTemperature)
        m_stepSetLive = true; // from here on the chains run with this step, learned or not
    if (isTemperature)
        m_strip->predictTemperatureChange(before, value, m_runs->request(), m_continuous->pace());
    const bool relearns = isTemperature && core::learnsStepInBurnIn(m_shownRequest->config);
    showStatus(isTemperature ? tr("Temperature → %L1 from the next iteration: a new chain segment starts (dashed line "
                                  "on the traces)%2; the heat map is redrawn for the new target.")
                                   .arg(value, 0, 'g', 6)
                                   .arg(relearns ? tr(", and the adaptive proposal's step is rescaled by √(T′/T) and "
                                                      "re-learned over a short segment the figures leave out")
                                                 : QString())
                             : tr("Proposal step → %L1 from the next iteration: a new chain segment starts (dashed "
                                  "line on the traces).")
                                   .arg(value, 0, 'g', 4));
    compareShownWithForm(); // the running chains now have the form's value
    return true;
}

void MainWindow::sayWhetherTheHeatMapShowsThePosterior(const PosteriorImage &image)
{
    if (image.isNull() || !m_runs->isActive() || !m_shownRequest)
        return;
    // Cells within a few nats of the maximum (opacity at least half the ramp's): a posterior
    // narrower than a cell of the map leaves a handful at most, and the map looks empty.
    qint64 core = 0;
    const QImage &pixels = image.image;
    for (int row = 0; row < pixels.height(); ++row) {
        const auto *line = reinterpret_cast<const QRgb *>(pixels.constScanLine(row));
        for (int col = 0; col < pixels.width(); ++col)
            core += qAlpha(line[col]) >= 128 ? 1 : 0;
    }
    if (core >= kFewestHeatMapCells)
        return;
    const double cell = (image.theta1Max - image.theta1Min) / std::max(pixels.width(), 1);
    showStatus(tr("The heat map is redrawn for T = %L1, but the posterior there is narrower than one of its cells "
                  "(%L2 wide): it covers %3 of them and cannot be seen; the samples show where it is.")
                   .arg(m_shownRequest->config.temperature, 0, 'g', 6)
                   .arg(cell, 0, 'g', 2)
                   .arg(core));
}

void MainWindow::scheduleRestart(const QString &setting)
{
    if (applyLiveKernel(setting))
        return;
    if (m_runs->scheduleRestart(setting))
        showStatus(tr("%1 changed: the run will restart with the new settings (a different sampler cannot "
                      "continue this chain).")
                       .arg(setting));
}

void MainWindow::onStateChanged(RunState state)
{
    const bool active = state != RunState::Idle;
    m_controls->setRunning(active);
    if (!active)
        m_strip->endRun();
    if (state == RunState::Restarting)
        showStatus(tr("%1 changed: restarting the run with the new settings…").arg(m_runs->restartReason()));
    compareShownWithForm();
}

void MainWindow::compareShownWithForm()
{
    const bool running = m_runs->isActive();
    const RunRequest form = m_controls->request();
    m_banner->compare(m_shownRequest, form, running);
    if (running && m_shownRequest)
        m_preview->drawnByRun(m_shownRequest->config); // its worker draws, and redraws after a live T
    else if (!running)
        m_preview->request(form.config);
    if (!running && !m_shownRequest)
        m_results->previewForm(form); // before the first run, the empty charts follow the form
    // Armed by edits once a run is shown (and at a run's end, if edits during it were not applied).
    if (m_autoRun && !running && m_shownRequest && !m_banner->differences().isEmpty() && !m_runs->isShutDown())
        m_autoRunDelay->start(); // restarted by each edit: one run after the editing pauses
    else
        m_autoRunDelay->stop();
}

QString MainWindow::shownRunLabel() const
{
    if (!m_shownRequest)
        return {};
    const QString run = tr("the run %1").arg(StaleBanner::describeRun(*m_shownRequest));
    return m_banner->differences().isEmpty() ? run : tr("%1 (not the form's settings)").arg(run);
}

void MainWindow::onAutoRunDue()
{
    if (!m_autoRun || m_runs->isActive() || !m_shownRequest || m_banner->differences().isEmpty())
        return;
    // Settings that cannot run yet (a file still being checked, a compare with one method) are
    // reported by the banner's neighbour, the status bar, not in a dialog per keystroke.
    if (const QString problem = controlsProblem(); !problem.isEmpty()) {
        showStatus(tr("Auto-run waits: %1").arg(problem));
        return;
    }
    startRunFromControls();
}

void MainWindow::setAutoRun(bool on)
{
    m_autoRun = on;
    if (m_autoRunAction && m_autoRunAction->isChecked() != on)
        m_autoRunAction->setChecked(on);
    compareShownWithForm();
}

void MainWindow::onSnapshot(const ui::RunSnapshot &snapshot)
{
    if (snapshot.channel < 0 || snapshot.channel >= m_channelCompleted.size())
        return; // a late snapshot of an earlier run
    m_results->applySnapshot(snapshot);
    m_channelCompleted[snapshot.channel] = snapshot.completed;
    for (const core::ChainSegment &segment : snapshot.newSegments) {
        const int number = ++m_channelSegments[snapshot.channel];
        const bool afterBurnIn = m_channelInBurnIn[snapshot.channel];
        m_channelInBurnIn[snapshot.channel] = segment.burnIn;
        if (segment.start == 0)
            continue; // the run's own settings (or changes made before the chain's first iteration)
        const bool burnInEnd = afterBurnIn && !segment.burnIn;
        m_results->traceChart()->addSegmentMark(segment.start, burnInEnd);
        // A step set during the burn-in replaces the one it learned, or the forecast's (chain_runner.cpp).
        using StepSource = RunStatusStrip::StepSource;
        StepSource source = StepSource::Form;
        if (!m_stepSetLive && core::learnsStepInBurnIn(m_runs->request().channelConfig(snapshot.channel)))
            source = StepSource::Learned;
        else if (!m_stepSetLive && m_channelStepForecast[snapshot.channel])
            source = StepSource::Forecast;
        m_strip->showSegment(number, segment, burnInEnd, source);
        emit segmentStarted(snapshot.channel, segment);
    }
    qint64 done = 0;
    for (qint64 completed : m_channelCompleted)
        done += completed;
    const RunRequest &request = m_runs->request();
    m_strip->showSnapshot(snapshot, request, done, request.config.samples * request.channelCount());
    emit snapshotApplied(snapshot.completed);
}

void MainWindow::onForecastStepTaken(int channel, double step)
{
    if (channel < 0 || channel >= m_channelStepForecast.size())
        return; // a late signal of an earlier run
    m_channelStepForecast[channel] = true;
    // With one method entry the step box is its chains' step, so it shows the one they run. In a
    // compare the box stays the other entries' step; the burn-in notice and the forecast's
    // sentence name this entry's.
    if (m_runs->request().methods.size() == 1 && !m_stepSetLive)
        m_controls->showForecastStep(step);
}

void MainWindow::onRestarted(const QString &setting)
{
    // The strip keeps it for the whole run; status messages from the new run follow.
    const QString notice = tr("Restarted because %1 changed: a different sampler cannot continue the old chain.").arg(setting);
    m_strip->showNotice(notice);
    showStatus(notice);
}

void MainWindow::onFinished(const ui::RunOutcome &outcome)
{
    m_results->finishRun(outcome);
    m_lastOutcome = outcome;
    m_strip->showOutcome(outcome);
    const qint64 requested = outcome.config().samples * outcome.request.channelCount();
    const qint64 iterations = outcome.totalIterations();
    const double wall = outcome.longestWallSeconds();
    const qint64 fallbacks = outcome.totalFullDataFallbacks();
    QString message = outcome.request.untilStopped && iterations == 0
                          ? tr("Stopped before any sample was drawn.")
                      : outcome.request.untilStopped
                          ? tr("Stopped after %L1 iterations in %L2 s; the figures describe the latest %L3 of each chain.")
                                .arg(iterations)
                                .arg(wall, 0, 'f', 1)
                                .arg(outcome.config().samples)
                      : outcome.stopped
                          ? tr("Stopped after %L1 of %L2 samples.").arg(iterations).arg(requested)
                          : tr("Finished %L1 samples; sampling took %L2 s.").arg(iterations).arg(wall, 0, 'f', 2);
    if (outcome.usedCorrection)
        message += tr(" Correction table L∞ error %1%2.")
                       .arg(outcome.correctionLinf, 0, 'g', 2)
                       .arg(outcome.correctionFromCache ? tr(" (cached)") : QString());
    if (fallbacks > 0)
        message += tr(" %L1 tests fell back to the full data.").arg(fallbacks);
    // A regime where the tests read all N anyway (a minibatch fallback, or a sequential test that
    // grew to N): say so where it stays in view.
    qint64 allData = 0;
    for (const ChainReport &chain : outcome.chains)
        allData += std::max(chain.summary.allDataIterations, chain.summary.fullDataFallbacks);
    qint64 described = 0; // the iterations the summaries cover (a run until stopped: the window)
    for (const ChainReport &chain : outcome.chains)
        described += chain.summary.iterations;
    QStringList notices;
    if (const std::vector<std::string> unmixed = core::unmixedMethods(outcome); !unmixed.empty()) {
        QStringList lines;
        for (const std::string &line : unmixed)
            lines << QString::fromStdString(line);
        notices << tr("%1. A chain not mixed shows where it went, not the posterior; one not converged carries more "
                      "error than its ESS says (Vehtari et al. 2021; the Diagnostics tab's R̂ says more).")
                       .arg(lines.join(QStringLiteral("; ")));
    }
    // A method without an accept step is biased however well it mixed: said beside the figures.
    QStringList approximations;
    for (const ChainReport &chain : outcome.chains) {
        const QString note = QString::fromStdString(core::approximationNote(outcome.chainConfig(chain)));
        const QString line = QString::fromStdString(chain.methodLabel()) + QStringLiteral(": ") + note;
        if (!note.isEmpty() && !approximations.contains(line))
            approximations << line;
    }
    notices << approximations;
    // TunaMH's forecast explains its batch (and when it cannot mix for less than N points a
    // test) better than the generic advice below, which it replaces.
    if (!outcome.tunaForecast.empty())
        notices << QString::fromStdString(outcome.tunaForecast) + QLatin1Char('.');
    else if (described > 0 && 2 * allData > described)
        notices << tr("%1% of the tests read all N data points: a minibatch saves nothing here. A smaller step, a "
                      "larger T or (for the minibatch test) a larger σ lets more tests stop early.")
                       .arg(100.0 * static_cast<double>(allData) / static_cast<double>(described), 0, 'f', 0);
    // SMH's forecast says, beside its figures, whether its chain could mix at all.
    if (!outcome.smhForecast.empty())
        notices << QString::fromStdString(outcome.smhForecast) + QLatin1Char('.');
    // SGLD's and SGHMC's forecast puts a number on the bias the note above names.
    if (!outcome.gradientForecast.empty())
        notices << QString::fromStdString(outcome.gradientForecast) + QLatin1Char('.');
    if (!notices.isEmpty())
        m_strip->showNotice(notices.join(QLatin1Char(' ')));
    if (!outcome.austereNote.empty())
        message += QStringLiteral(" %1.").arg(QString::fromStdString(outcome.austereNote));
    showStatus(message);
    emit runFinished(outcome);
}

void MainWindow::onRunFailed(const QString &message)
{
    m_results->flushAll();
    m_strip->failRun(); // not the last count, as if the run had completed
    reportFailure(message);
}

} // namespace ui
