#pragma once
// The main window: run settings on the left, the tabbed charts on the right, run statistics
// along the bottom, File and Run menus on top. Its RunController owns the worker thread and the
// run's states; the window shows them. See SamplerWorker for the protocol, RunController for the
// states and FileActions for exports and sessions. Data files dropped on the window become the
// "Your file" dataset of the control panel.
#include <optional>

#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>
#include <QTimer>
#include <QVector>

QT_BEGIN_NAMESPACE
class QSplitter;
QT_END_NAMESPACE

#include "core/experiment/settings/run_config.h"
#include "ui/run/run_controller.h"
#include "ui/run/sampler_worker.h"
#include "ui/files/session.h"

QT_BEGIN_NAMESPACE
class QAction;
QT_END_NAMESPACE

namespace ui {

class ContinuousControls;
class ControlPanel;
class FileActions;
class PosteriorChart;
class PosteriorPreview;
class ResultsView;
class RunStatusStrip;
class StaleBanner;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    /// Stops any run and joins the worker thread.
    ~MainWindow() override;

    /// Validates `request` and starts it on the worker thread. Returns false, and reports the
    /// validation message like a failed run, if it is invalid or a run is already going.
    bool startRequest(const RunRequest &request);
    /// One method, one chain.
    bool startRun(const core::RunConfig &config);
    /// Starts a run with the settings in the control panel.
    bool startRunFromControls();
    /// Asks the running chains to stop; finished() follows with outcome.stopped set.
    void stopRun();
    /// Stops any run and clears the charts, diagnostics and statistics; the settings stay.
    void resetRun();
    /// During a run: applies a new temperature or step to the running chains from their next
    /// iteration (a new chain segment). Returns false, with a message, if there is no run or
    /// the value is invalid.
    bool applyLiveTemperature(double temperature);
    bool applyLiveStep(double step);
    /// During a run: restarts it with the panel's settings because `setting` changed (after a
    /// short delay that lets several edits make one restart). A run whose form differs only in
    /// the acceptance test switches to it instead (applyLiveKernel()).
    void scheduleRestart(const QString &setting);
    /// During a run: when the form differs from the running settings only in the acceptance test
    /// (method, σ, λ, solver, m, growth, δ, the baselines' settings) and the live T and step,
    /// the chains switch to the form's test as a new segment (a run until stopped at its next
    /// lap, a fixed-length run within 64 iterations) and keep their iteration count.
    /// Returns false when there is no such run or other settings differ.
    bool applyLiveKernel(const QString &setting);
    /// Runs started by scheduleRestart() so far.
    int restartCount() const { return m_runs->restartCount(); }
    /// True while a run is going or ending (any state but Idle).
    bool isRunning() const { return m_runs->isActive(); }
    RunState runState() const { return m_runs->state(); }
    RunController *runController() const { return m_runs; }

    /// Modal message boxes on failures (and file dialogs asking for a missing label file) are on
    /// by default; scripted and test use turns them off.
    void setShowErrorDialogs(bool show);
    bool showErrorDialogs() const { return m_showErrorDialogs; }

    ControlPanel *controls() const { return m_controls; }
    ResultsView *results() const { return m_results; }
    RunStatusStrip *statusStrip() const { return m_strip; }
    FileActions *fileActions() const { return m_files; }
    /// The first (or only) method's posterior chart.
    PosteriorChart *chart() const;
    /// The worker, for driving it directly (it lives on the worker thread: use queued calls).
    SamplerWorker *worker() const { return m_runs->worker(); }
    /// Samples drawn on the posterior charts so far.
    qsizetype plottedSampleCount() const;
    /// The latest status-bar message, and the latest failure message (empty if none).
    QString statusText() const { return m_statusText; }
    QString lastError() const { return m_lastError; }
    std::optional<RunOutcome> lastOutcome() const { return m_lastOutcome; }
    /// Whether the worker thread is still running (false once the window has shut it down).
    bool isWorkerThreadRunning() const { return m_runs->isWorkerThreadRunning(); }

    /// The settings of the run the charts show, live changes included (none after a reset or
    /// before the first run).
    const std::optional<RunRequest> &shownRequest() const { return m_shownRequest; }
    /// Which run the charts and exports hold, in words, saying so when the form has moved on
    /// ("the run gmm, minibatch, …, not the form's settings"); empty before the first run.
    QString shownRunLabel() const;
    /// "Stale" banner above the charts: visible while the charts show other settings than the form.
    StaleBanner *staleBanner() const { return m_banner; }
    /// Auto-run (on by default): once a run has been shown, any change of the form starts a new
    /// run after a short pause in the editing, so that dragging a slider shows a stream of runs.
    void setAutoRun(bool on);
    bool autoRun() const { return m_autoRun; }
    /// Continuous mode (Run ▸ Run until stopped): runs sample until stopped, showing a moving
    /// window of the latest samples (the Samples box), and kernel changes continue the chain.
    void setUntilStopped(bool on);
    bool untilStopped() const { return m_untilStopped; }
    ContinuousControls *continuousControls() const { return m_continuous; }
    /// Milliseconds auto-run waits after the last edit.
    static constexpr int kAutoRunDelayMs = 300;

    /// Every setting of the window, and restoring them.
    Session session() const;
    void applySession(const Session &session);
    /// applySession(), and a note in the status strip that the last session came back.
    void restoreLastSession(const Session &session);
    /// Every setting back to the settings table's defaults (Run ▸ Restore defaults).
    void restoreDefaults();
    QSplitter *splitter() const { return m_splitter; }
    QSize exportSize() const { return m_exportSize; }
    void setExportSize(QSize size) { m_exportSize = size; }
    /// Saves the session to autosaveSessionPath() on close (off by default; the app turns it on).
    void setAutosaveSession(bool on) { m_autosave = on; }

    /// Makes files the "Your file" dataset: one CSV, or an IDX image file and its label file
    /// (a single one finds its partner by the usual names, or asks for it when dialogs are on).
    /// Returns false and reports why when they cannot be used as given; their contents are
    /// checked in the background, and a malformed file is reported when that check ends.
    bool selectDataFiles(const QStringList &paths);

    /// Shows a message in the status bar and, if dialogs are on, in a non-blocking box.
    void reportError(const QString &title, const QString &message);
    void showStatus(const QString &message);

signals:
    void snapshotApplied(qint64 completed);
    /// A chain segment with start > 0 reached the charts (T, the step or, until stopped, the
    /// acceptance test changed during the run).
    void segmentStarted(int channel, const core::ChainSegment &segment);
    /// Reset finished: the charts are empty.
    void resetDone();
    void runFinished(const ui::RunOutcome &outcome);
    void runFailed(const QString &message);

protected:
    void closeEvent(QCloseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void buildRunMenu();
    void fitToScreen(int scrollBarWidth);
    /// The panel's least width: the form's minimum beside a vertical scroll bar.
    int leastPanelWidth() const;
    void showStatusElided();
    void connectRunController();
    void buildLayout();
    void connectControls();
    void reportFailure(const QString &message);
    void shutDownWorker();
    /// Why the panel's settings cannot start a run (empty if they can).
    QString controlsProblem() const;
    /// True, with a restart scheduled, when a live change of `setting` would break a design
    /// chosen for the run's settings (AustereMH(c) under a bound).
    bool fixedDesignNeedsRestart(const QString &setting);
    enum class LiveValue { Temperature, Step };
    /// A live change: refused (false) without a run, with a restart pending or when it needs
    /// one; otherwise given to the running chains (errors are reported) and said in the status bar.
    bool applyLiveValue(LiveValue which, double value);
    /// After the heat map of a live T arrives: says so when the posterior is too narrow for
    /// its cells to show (fewer than kFewestHeatMapCells within a few nats of the maximum).
    void sayWhetherTheHeatMapShowsThePosterior(const PosteriorImage &image);
    static constexpr qint64 kFewestHeatMapCells = 12;
    void clearResults();
    /// Shows or hides the banner, and arms auto-run, after the form or the shown run changed.
    void compareShownWithForm();
    void onAutoRunDue();

    void onRunStarting(const ui::RunRequest &request);
    void onStateChanged(ui::RunState state);
    void onSnapshot(const ui::RunSnapshot &snapshot);
    /// A chain runs at the step SGLD's or SGHMC's forecast took (SamplerWorker::forecastStepTaken).
    void onForecastStepTaken(int channel, double step);
    void onFinished(const ui::RunOutcome &outcome);
    void onRunFailed(const QString &message);
    void onRestarted(const QString &setting);

    ControlPanel *m_controls = nullptr;
    ResultsView *m_results = nullptr;
    FileActions *m_files = nullptr;
    RunStatusStrip *m_strip = nullptr;
    QSplitter *m_splitter = nullptr;

    RunController *m_runs = nullptr;
    bool m_showErrorDialogs = true;
    bool m_autosave = false;
    QVector<qint64> m_channelCompleted;
    QSize m_exportSize{1600, 1000};
    QString m_statusText;
    QString m_lastError;
    QPointer<QMessageBox> m_errorDialog; // the error dialog on screen, if any (reportError)
    std::optional<RunOutcome> m_lastOutcome;
    QVector<int> m_channelSegments; // segments seen per channel in this run
    QVector<bool> m_channelInBurnIn; // per channel: its last segment so far is the burn-in
    bool m_stepSetLive = false;      // the user set the step during this run
    QVector<bool> m_channelStepForecast; // per channel: it runs at the step its forecast took
    std::optional<RunRequest> m_shownRequest;
    StaleBanner *m_banner = nullptr;
    PosteriorPreview *m_preview = nullptr;
    bool m_autoRun = true;
    QTimer *m_autoRunDelay = nullptr;
    QAction *m_autoRunAction = nullptr;
    bool m_untilStopped = false;
    ContinuousControls *m_continuous = nullptr;
};

} // namespace ui
