#include "ui/run/run_controller.h"

#include "ui/run/queued_hand_off.h"
#include "ui/run/sampler_worker.h"

namespace ui {

const char *runStateName(RunState state)
{
    switch (state) {
    case RunState::Idle: return "Idle";
    case RunState::Preparing: return "Preparing";
    case RunState::Running: return "Running";
    case RunState::Paused: return "Paused";
    case RunState::Stopping: return "Stopping";
    case RunState::Restarting: return "Restarting";
    case RunState::Resetting: return "Resetting";
    }
    return "?";
}

RunController::RunController(QObject *parent) : QObject(parent)
{
    registerRunMetaTypes();
    // The worker has no parent so that it can move to the thread; shutDown() deletes it once
    // the thread has ended.
    m_worker = new SamplerWorker;
    m_worker->moveToThread(&m_thread);
    m_thread.setObjectName(QStringLiteral("sampler"));
    connect(this, &RunController::requestQueued, m_worker, &SamplerWorker::startRequest);
    connect(m_worker, &SamplerWorker::snapshot, this, &RunController::onSnapshot);
    connect(m_worker, &SamplerWorker::finished, this, &RunController::onFinished);
    connect(m_worker, &SamplerWorker::runFailed, this, &RunController::onRunFailed);
    startThreadForHandOffs(m_thread);

    m_restartTimer.setSingleShot(true);
    m_restartTimer.setInterval(kRestartDelayMs);
    connect(&m_restartTimer, &QTimer::timeout, this, &RunController::onRestartDelayOver);
}

RunController::~RunController()
{
    shutDown();
}

void RunController::setState(RunState state)
{
    if (state == m_state)
        return;
    m_state = state;
    emit stateChanged(state);
}

bool RunController::isSampling() const
{
    return m_state == RunState::Preparing || m_state == RunState::Running || m_state == RunState::Paused;
}

bool RunController::start(const RunRequest &request)
{
    if (!m_worker || m_state != RunState::Idle)
        return false;
    m_request = request;
    // A new run reads every current setting: a restart still pending for the previous one has
    // nothing left to do.
    m_restartTimer.stop();
    m_chainsReported = false;
    emit runStarting(request);
    setState(RunState::Preparing);
    // A stop meant for the run that has just finished must not cancel this one.
    m_worker->discardStopRequests();
    emitQueued(*this, &RunController::requestQueued, request);
    return true;
}

void RunController::stop()
{
    if (!m_worker)
        return;
    // A stop during a restart keeps the old run's results and starts nothing new; a reset
    // clears them anyway.
    if (isSampling() || m_state == RunState::Restarting) {
        m_worker->requestStop();
        setState(RunState::Stopping);
    }
}

bool RunController::pause()
{
    if (!m_worker || (m_state != RunState::Preparing && m_state != RunState::Running))
        return false;
    m_worker->pause();
    setState(RunState::Paused);
    return true;
}

bool RunController::resume()
{
    if (!m_worker || m_state != RunState::Paused)
        return false;
    m_worker->resume();
    setState(m_chainsReported ? RunState::Running : RunState::Preparing);
    return true;
}

bool RunController::step()
{
    if (!m_worker || m_state != RunState::Paused)
        return false;
    m_worker->step();
    return true;
}

void RunController::reset()
{
    m_restartTimer.stop();
    if (m_worker && isActive()) {
        // onFinished() or onRunFailed() clears once the chains have stopped.
        m_worker->requestStop();
        setState(RunState::Resetting);
        return;
    }
    emit cleared();
}

bool RunController::scheduleRestart(const QString &setting)
{
    if (m_state == RunState::Restarting) {
        m_restartReason = setting; // the chains are already stopping; the new run reads this setting too
        return false;
    }
    if (!isSampling())
        return false;
    m_restartReason = setting;
    m_restartTimer.start();
    return true;
}

void RunController::onRestartDelayOver()
{
    if (!m_worker || !isSampling())
        return; // the run ended meanwhile: the edit simply applies to the next one
    // Settings that cannot start would only stop this run for nothing.
    if (m_restartSource.problem)
        if (const QString problem = m_restartSource.problem(); !problem.isEmpty()) {
            emit restartRefused(m_restartReason, problem);
            return;
        }
    m_worker->requestStop();
    setState(RunState::Restarting);
}

void RunController::onSnapshot(const ui::RunSnapshot &)
{
    if (!m_worker || !isActive())
        return;
    m_chainsReported = true;
    if (m_state == RunState::Preparing) {
        setState(RunState::Running);
        emit chainsStarted();
    }
}

void RunController::onFinished(const ui::RunOutcome &outcome)
{
    if (!m_worker)
        return; // delivered after shutDown()
    const RunState ending = m_state;
    setState(RunState::Idle);
    if (ending == RunState::Resetting) {
        emit cleared();
        return;
    }
    if (ending == RunState::Restarting) {
        // The stopped run's partial results give way to the new run at once.
        const QString reason = m_restartReason;
        const bool started = m_restartSource.start ? m_restartSource.start() : start(m_request);
        if (started) {
            ++m_restarts;
            emit restarted(reason);
            return;
        }
        // The settings went bad between the check and now: the stopped run is the result.
    }
    emit runFinished(outcome);
}

void RunController::onRunFailed(const QString &message)
{
    m_restartTimer.stop();
    const RunState ending = m_state;
    setState(RunState::Idle);
    if (ending == RunState::Resetting) { // the user asked to clear everything anyway
        emit cleared();
        return;
    }
    emit runFailed(message);
}

void RunController::shutDown()
{
    if (!m_worker)
        return;
    // The chains check the stop token every iteration and the preparation steps between rows
    // or solver steps, so the join below is short.
    m_worker->requestStop();
    m_thread.quit();
    m_thread.wait();
    delete m_worker;
    m_worker = nullptr;
    m_restartTimer.stop();
    setState(RunState::Idle);
}

} // namespace ui
