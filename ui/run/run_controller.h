#pragma once
// The run lifecycle without widgets: one worker thread, the state of the run on it, and the
// operations that move between states (start, stop, pause, resume, step, restart, reset). The
// window owns the widgets and reacts to the signals; tests drive the controller directly.
//
// States and the transitions between them (anything not listed is refused or ignored):
//   Idle       --start()-------------------------> Preparing
//   Preparing  --first snapshot of the chains----> Running
//   Preparing, Running --pause()-----------------> Paused
//   Paused     --resume()------------------------> Running (Preparing if no chain has reported)
//   Paused     --step()--------------------------> Paused (one more iteration)
//   Preparing, Running, Paused --stop()----------> Stopping
//   Preparing, Running, Paused --restart timer---> Restarting
//   any active state --reset()-------------------> Resetting
//   Preparing, Running, Paused, Stopping --finished or failed--> Idle (runFinished/runFailed)
//   Restarting --finished--> Idle --> Preparing (the new run; Idle only for that moment);
//                            if the new run cannot start: Idle with runFinished(stopped)
//   Resetting  --finished or failed--------------> Idle, then cleared()
//   Idle       --reset()-------------------------> Idle, then cleared()
//   any        --shutDown()----------------------> Idle for good (every start is refused)
#include <functional>

#include <QObject>
#include <QString>
#include <QThread>
#include <QTimer>

#include "ui/run/run_messages.h"

namespace ui {

class SamplerWorker;

enum class RunState {
    Idle,       ///< no run; start() is accepted
    Preparing,  ///< a run was queued; the data, correction table or design are being prepared
    Running,    ///< the chains have reported at least one snapshot
    Paused,     ///< the chains are held between iterations; step() lets one through
    Stopping,   ///< stop() was asked; finished() with outcome.stopped follows
    Restarting, ///< stopping so that a run with new settings replaces this one
    Resetting,  ///< stopping so that everything shown is cleared; no result is reported
};

/// A short English name of `state` ("Idle", "Preparing", ...), for logs and test messages.
const char *runStateName(RunState state);

class RunController : public QObject {
    Q_OBJECT
public:
    /// How long a scheduled restart waits for further edits (arrow clicks, typing in a second box).
    static constexpr int kRestartDelayMs = 600;

    /// Where a restart takes its settings. `problem` says why they cannot start (empty if they
    /// can); `start` starts the new run and says whether it did. Without a source a restart
    /// runs the same request again.
    struct RestartSource {
        std::function<QString()> problem;
        std::function<bool()> start;
    };

    /// Starts the worker thread.
    explicit RunController(QObject *parent = nullptr);
    /// Stops any run and joins the worker thread.
    ~RunController() override;

    RunState state() const { return m_state; }
    /// True in every state but Idle: a run is going or ending.
    bool isActive() const { return m_state != RunState::Idle; }
    /// True after shutDown(): there is no worker any more.
    bool isShutDown() const { return m_worker == nullptr; }
    bool isWorkerThreadRunning() const { return m_thread.isRunning(); }
    /// The worker, for its display signals and live tuning (it lives on the worker thread).
    SamplerWorker *worker() const { return m_worker; }
    /// The request of the current (or last) run.
    const RunRequest &request() const { return m_request; }
    /// A restart is scheduled and its delay has not run out yet.
    bool isRestartPending() const { return m_restartTimer.isActive(); }
    /// The setting whose change asked for the latest restart.
    QString restartReason() const { return m_restartReason; }
    /// Runs started by restarts so far.
    int restartCount() const { return m_restarts; }

    void setRestartSource(RestartSource source) { m_restartSource = std::move(source); }

    /// Idle → Preparing: queues `request` on the worker. The caller has validated it. Returns
    /// false (and changes nothing) when shut down or not Idle. runStarting() is emitted before
    /// the request is queued.
    bool start(const RunRequest &request);
    /// Asks the chains to stop (Stopping); runFinished() follows with outcome.stopped set.
    void stop();
    /// Holds the chains (Paused) or lets them go on; false if there is nothing to pause or resume.
    bool pause();
    bool resume();
    /// While paused: one more iteration. False if not paused.
    bool step();
    /// Stops any run (Resetting) and emits cleared() once the chains have stopped, or at once.
    void reset();
    /// During a run: restarts it after kRestartDelayMs because `setting` changed (several edits
    /// make one restart). Returns true when the delay (re)started, false when there is no run
    /// to restart or a restart is already stopping the chains (`setting` then only names it).
    bool scheduleRestart(const QString &setting);
    /// Stops any run and joins the worker thread; the controller refuses runs from then on.
    void shutDown();

signals:
    void stateChanged(ui::RunState state);
    /// A run is about to be queued (emitted in start(), also for restarts).
    void runStarting(const ui::RunRequest &request);
    /// The first snapshot of a run arrived (Preparing → Running).
    void chainsStarted();
    /// A run ended (finished or stopped) and is the result to show.
    void runFinished(const ui::RunOutcome &outcome);
    void runFailed(const QString &message);
    /// The restart delay ran out but the settings cannot start; the run goes on.
    void restartRefused(const QString &setting, const QString &problem);
    /// A restart started its new run.
    void restarted(const QString &setting);
    /// A reset is done: the chains (if any) have stopped and nothing of the old run is wanted.
    void cleared();
    /// Internal hand-over to the worker thread (queued).
    void requestQueued(const ui::RunRequest &request);

private:
    void setState(RunState state);
    void onRestartDelayOver();
    void onSnapshot(const ui::RunSnapshot &snapshot);
    void onFinished(const ui::RunOutcome &outcome);
    void onRunFailed(const QString &message);
    /// Whether the chains are sampling and may be paused, stopped or restarted.
    bool isSampling() const;

    QThread m_thread;
    SamplerWorker *m_worker = nullptr; // lives on m_thread; deleted after the thread ends
    RunState m_state = RunState::Idle;
    bool m_chainsReported = false; // a snapshot of the current run has arrived
    RunRequest m_request;
    QTimer m_restartTimer; // collects edits into one restart
    QString m_restartReason;
    RestartSource m_restartSource;
    int m_restarts = 0;
};

} // namespace ui

Q_DECLARE_METATYPE(ui::RunState)
