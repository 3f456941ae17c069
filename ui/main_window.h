#pragma once
// The main window: run settings on the left, the live posterior chart on the right, run
// statistics along the bottom. Owns the worker thread; see SamplerWorker for the protocol.
#include <optional>

#include <QMainWindow>
#include <QThread>

#include "core/experiment/run_config.h"
#include "ui/sampler_worker.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QProgressBar;
QT_END_NAMESPACE

namespace ui {

class ControlPanel;
class PosteriorChart;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    /// Stops any run and joins the worker thread.
    ~MainWindow() override;

    /// Validates `config` and starts it on the worker thread. Returns false, and reports the
    /// validation message like a failed run, if it is invalid or a run is already going.
    bool startRun(const core::RunConfig &config);
    /// Starts a run with the settings in the control panel.
    bool startRunFromControls();
    /// Asks the running chain to stop; finished() follows with outcome.stopped set.
    void stopRun();
    bool isRunning() const { return m_running; }

    /// Modal message boxes on failures are on by default; scripted and test use turns them off.
    void setShowErrorDialogs(bool show) { m_showErrorDialogs = show; }

    ControlPanel *controls() const { return m_controls; }
    PosteriorChart *chart() const { return m_chart; }
    /// The worker, for driving it directly (it lives on the worker thread: use queued calls).
    SamplerWorker *worker() const { return m_worker; }
    /// Samples drawn on the chart so far.
    qsizetype plottedSampleCount() const;
    /// The latest status-bar message, and the latest failure message (empty if none).
    QString statusText() const { return m_statusText; }
    QString lastError() const { return m_lastError; }
    std::optional<RunOutcome> lastOutcome() const { return m_lastOutcome; }
    /// Whether the worker thread is still running (false once the window has shut it down).
    bool isWorkerThreadRunning() const { return m_thread.isRunning(); }

signals:
    /// Internal hand-over to the worker thread (queued).
    void runRequested(const core::RunConfig &config);
    void snapshotApplied(qint64 completed);
    void runFinished(const ui::RunOutcome &outcome);
    void runFailed(const QString &message);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildStatusStrip();
    void setRunning(bool running);
    void showStatus(const QString &message);
    void reportFailure(const QString &message);
    void shutDownWorker();

    void onPreparationProgress(double fraction);
    void onSnapshot(const ui::RunSnapshot &snapshot);
    void onFinished(const ui::RunOutcome &outcome);
    void onRunFailed(const QString &message);

    ControlPanel *m_controls = nullptr;
    PosteriorChart *m_chart = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_speedLabel = nullptr;
    QLabel *m_acceptanceLabel = nullptr;
    QLabel *m_batchLabel = nullptr;
    QLabel *m_dataLabel = nullptr;
    QLabel *m_fitLabel = nullptr;

    QThread m_thread;
    SamplerWorker *m_worker = nullptr; // lives on m_thread; deleted after the thread ends
    bool m_running = false;
    bool m_showErrorDialogs = true;
    qint64 m_nData = 0;
    QString m_statusText;
    QString m_lastError;
    std::optional<RunOutcome> m_lastOutcome;
};

} // namespace ui
