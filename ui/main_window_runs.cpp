// The run lifecycle of the main window: starting, stopping, resetting and restarting runs,
// live temperature and step changes, and the worker's snapshots, outcome and failures. The
// window's assembly, menus, sessions, drag and drop and shutdown are in main_window.cpp.
#include "ui/main_window.h"

#include <algorithm>
#include <exception>
#include <functional>

#include "ui/compare_box.h"
#include "ui/control_panel.h"
#include "ui/dataset_box.h"
#include "ui/results_view.h"
#include "ui/run_status_strip.h"
#include "ui/trace_chart.h"

namespace ui {

QString MainWindow::controlsProblem() const
{
    const CompareBox *compare = m_controls->compareBox();
    if (compare->isChecked() && !compare->isValidSelection())
        return tr("Compare mode needs 2 to 4 ticked methods; %1 are ticked.").arg(compare->methods().size());
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
    return startRequest(m_controls->request());
}

bool MainWindow::startRun(const core::RunConfig &config)
{
    return startRequest(RunRequest::single(config));
}

bool MainWindow::startRequest(const RunRequest &request)
{
    if (!m_worker) {
        reportFailure(tr("The sampler has shut down."));
        return false;
    }
    if (m_running) {
        showStatus(tr("A run is already in progress."));
        return false;
    }
    try {
        validateInWindow(request);
    } catch (const std::exception &error) {
        reportFailure(QString::fromStdString(error.what()));
        return false;
    }
    m_controls->setRequest(request); // a run started from code shows its settings too
    m_request = request;
    m_channelCompleted = QVector<qint64>(request.channelCount(), 0);
    m_channelSegments = QVector<int>(request.channelCount(), 0);
    // A new run reads every current setting: a restart still pending for the previous one
    // has nothing left to do.
    m_restartTimer.stop();
    m_restartAfterStop = m_resetAfterStop = false;
    m_results->beginRun(request);
    m_lastError.clear();
    m_lastOutcome.reset();
    m_strip->beginRun();
    setRunning(true);
    m_worker->discardStopRequests();
    emit requestQueued(request);
    return true;
}

void MainWindow::stopRun()
{
    if (!m_running || !m_worker)
        return;
    m_worker->requestStop();
    showStatus(tr("Stopping…"));
}

void MainWindow::resetRun()
{
    m_restartTimer.stop();
    m_restartAfterStop = false;
    if (m_running && m_worker) {
        m_resetAfterStop = true; // onFinished() clears once the chains have stopped
        m_worker->requestStop();
        showStatus(tr("Resetting…"));
        return;
    }
    clearResults();
}

void MainWindow::clearResults()
{
    m_results->clearResults();
    m_strip->clear();
    m_lastOutcome.reset();
    m_lastError.clear();
    showStatus(tr("Reset: charts, diagnostics and statistics cleared. Press Run (Ctrl+R) to start again."));
    emit resetDone();
}

bool MainWindow::fixedDesignNeedsRestart(const QString &setting)
{
    for (int channel = 0; channel < m_request.channelCount(); ++channel)
        if (!core::followsLiveTuning(m_request.channelConfig(channel))) {
            scheduleRestart(tr("%1 (AustereMH(c)'s design was chosen for the old value)").arg(setting));
            return true;
        }
    return false;
}

bool MainWindow::applyLiveChange(const QString &setting, const std::function<void()> &apply, const QString &done)
{
    // With a restart pending, the new run starts with the new value anyway.
    if (!m_running || !m_worker || m_restartTimer.isActive() || fixedDesignNeedsRestart(setting))
        return false;
    try {
        apply();
    } catch (const std::exception &error) {
        reportError(tr("Not applied"), QString::fromStdString(error.what()));
        return false;
    }
    showStatus(done);
    return true;
}

bool MainWindow::applyLiveTemperature(double temperature)
{
    return applyLiveChange(tr("the temperature"), [&] { m_worker->setLiveTemperature(temperature); },
                           tr("Temperature → %L1 from the next iteration: a new chain segment starts (dashed line on "
                              "the traces); the heat map is redrawn for the new target.")
                               .arg(temperature, 0, 'g', 6));
}

bool MainWindow::applyLiveStep(double step)
{
    return applyLiveChange(tr("the proposal step"), [&] { m_worker->setLiveStep(step); },
                           tr("Proposal step → %L1 from the next iteration: a new chain segment starts (dashed line "
                              "on the traces).")
                               .arg(step, 0, 'g', 4));
}

void MainWindow::scheduleRestart(const QString &setting)
{
    if (!m_running)
        return;
    m_restartReason = setting;
    if (m_restartAfterStop)
        return; // the chains are already stopping; the new run will read this setting too
    m_restartTimer.start();
    showStatus(tr("%1 changed: the run will restart with the new settings (a different sampler cannot continue "
                  "this chain).")
                   .arg(setting));
}

void MainWindow::setRunning(bool running)
{
    m_running = running;
    m_controls->setRunning(running);
    if (!running)
        m_strip->endRun();
}

void MainWindow::onSnapshot(const ui::RunSnapshot &snapshot)
{
    if (snapshot.channel < 0 || snapshot.channel >= m_channelCompleted.size())
        return; // a late snapshot of an earlier run
    m_results->applySnapshot(snapshot);
    m_channelCompleted[snapshot.channel] = snapshot.completed;
    for (const core::ChainSegment &segment : snapshot.newSegments) {
        const int number = ++m_channelSegments[snapshot.channel];
        if (segment.start == 0)
            continue; // the run's own settings (or changes made before the chain's first iteration)
        m_results->traceChart()->addSegmentMark(segment.start);
        m_strip->showSegment(number, segment);
        emit segmentStarted(snapshot.channel, segment);
    }
    qint64 done = 0;
    for (qint64 completed : m_channelCompleted)
        done += completed;
    m_strip->showSnapshot(snapshot, m_request, done, m_request.config.samples * m_request.channelCount());
    emit snapshotApplied(snapshot.completed);
}

void MainWindow::onFinished(const ui::RunOutcome &outcome)
{
    if (!m_worker)
        return; // delivered after the window shut the worker down
    if (m_resetAfterStop) {
        m_resetAfterStop = false;
        setRunning(false);
        clearResults();
        return;
    }
    if (m_restartAfterStop) {
        // The stopped run's partial results give way to the new run at once.
        m_restartAfterStop = false;
        setRunning(false);
        const QString reason = m_restartReason;
        if (startRunFromControls()) {
            ++m_restarts;
            // The strip keeps it for the whole run; status messages from the new run follow.
            const QString notice = tr("Restarted because %1 changed: a different sampler cannot continue the old chain.").arg(reason);
            m_strip->showNotice(notice);
            showStatus(notice);
            return;
        }
        // The settings went bad between the check and now: keep the stopped run's results.
    }
    m_results->finishRun(outcome);
    setRunning(false);
    m_lastOutcome = outcome;
    m_strip->showOutcome(outcome);
    const qint64 requested = outcome.config().samples * outcome.request.channelCount();
    const qint64 iterations = outcome.totalIterations();
    const double wall = outcome.longestWallSeconds();
    const qint64 fallbacks = outcome.totalFullDataFallbacks();
    QString message = outcome.stopped
                          ? tr("Stopped after %L1 of %L2 samples.").arg(iterations).arg(requested)
                          : tr("Finished %L1 samples; sampling took %L2 s.").arg(iterations).arg(wall, 0, 'f', 2);
    if (outcome.usedCorrection)
        message += tr(" Correction table L∞ error %1%2.")
                       .arg(outcome.correctionLinf, 0, 'g', 2)
                       .arg(outcome.correctionFromCache ? tr(" (cached)") : QString());
    if (fallbacks > 0)
        message += tr(" %L1 tests fell back to the full data.").arg(fallbacks);
    if (!outcome.austereNote.empty())
        message += QStringLiteral(" %1.").arg(QString::fromStdString(outcome.austereNote));
    showStatus(message);
    emit runFinished(outcome);
}

void MainWindow::onRunFailed(const QString &message)
{
    m_restartTimer.stop();
    const bool resetting = m_resetAfterStop;
    m_restartAfterStop = m_resetAfterStop = false;
    if (resetting) { // the user asked to clear everything anyway
        setRunning(false);
        clearResults();
        return;
    }
    m_results->flushAll();
    setRunning(false);
    reportFailure(message);
}

} // namespace ui
