#pragma once
// The correction distribution C_σ for the panel's σ, λ and solver (Seita et al. Sec. 4,
// Table 3): top, C_σ with the logistic target, the Gaussian X_norm and the density that
// X_norm + X_corr really has; bottom, the CDF error |Φ_σ * C_σ − S| on a log axis with its
// L∞ value.
//
// A new table takes up to a few seconds to solve, so solves run on the global thread pool
// (QtConcurrent) with a busy bar; the GUI thread only draws the finished curves. Parameter
// changes are debounced, and a change during a solve cancels it (stop token) and starts over.
// Tables seen before, or solved ahead along the σ slider (CorrectionPlotCache), are drawn at
// once, without debounce or solve.
#include <atomic>
#include <memory>
#include <stop_token>

#include <QFutureWatcher>
#include <QTimer>
#include <QWidget>

#include "core/correction/correction_distribution.h"
#include "ui/charts/correction_plot.h"
#include "ui/charts/correction_plot_cache.h"
#include "ui/run/latest_job.h"

QT_BEGIN_NAMESPACE
class QChart;
class QGraphicsSimpleTextItem;
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QProgressBar;
class QValueAxis;
QT_END_NAMESPACE

namespace ui {

class ThemedChartView;

/// What a background solve hands back: the curves, or why there are none.
struct CorrectionSolveResult {
    CorrectionPlot plot;
    QString error;          ///< non-empty when the solve failed
    bool cancelled = false; ///< superseded by newer parameters or the widget closing
};

class CorrectionChart : public QWidget {
    Q_OBJECT
public:
    /// Quiet time after the last parameter change before a solve starts.
    static constexpr int kDebounceMs = 200;

    explicit CorrectionChart(QWidget *parent = nullptr);
    /// Cancels a running solve and waits for it (it checks its stop token often).
    ~CorrectionChart() override;

    /// Shows the table for `params`: schedules a solve unless they are the ones shown or
    /// being solved.
    void setParams(const core::CorrectionParams &params);
    /// Starts the pending solve now instead of after the debounce.
    void solveNow();

    bool isBusy() const;
    /// Whether a table is drawn, and its L∞ error (NaN before the first).
    bool hasPlot() const { return m_hasPlot; }
    double shownLinf() const;
    core::CorrectionParams shownParams() const { return m_plot.params; }
    /// The summary line under the charts (σ, solver, atoms, L∞, time).
    QString summaryText() const;
    /// The L∞ label drawn on the error chart.
    QString linfLabelText() const;

    ThemedChartView *densityView() const { return m_densityView; }
    ThemedChartView *errorView() const { return m_errorView; }
    /// Tables drawn before or solved ahead along the σ slider (drawn without a solve).
    CorrectionPlotCache *plotCache() { return &m_cache; }

signals:
    void solveStarted(const core::CorrectionParams &params);
    /// A finished table is drawn.
    void correctionShown(double linf);
    void solveFailed(const QString &message);
    /// Busy state changed (a solve started, or the last one ended).
    void busyChanged(bool busy);

private:
    void startSolve();
    void onSolveFinished(LatestJob::Ticket ticket, QFutureWatcher<CorrectionSolveResult> *watcher);
    void showPlot(const CorrectionPlot &plot);
    void placeLinfLabel();
    void buildDensityChart();
    void buildErrorChart();
    void setBusy(bool busy);

    ThemedChartView *m_densityView = nullptr;
    ThemedChartView *m_errorView = nullptr;
    QLineSeries *m_logistic = nullptr;
    QLineSeries *m_gaussian = nullptr;
    QLineSeries *m_convolved = nullptr;
    QLineSeries *m_correction = nullptr;
    QValueAxis *m_densityX = nullptr;
    QValueAxis *m_densityY = nullptr;
    QValueAxis *m_massY = nullptr;
    QLineSeries *m_error = nullptr;
    QLineSeries *m_linfLine = nullptr;
    QValueAxis *m_errorX = nullptr;
    QLogValueAxis *m_errorY = nullptr;
    QGraphicsSimpleTextItem *m_linfLabel = nullptr;
    QLabel *m_summary = nullptr;
    QProgressBar *m_busy = nullptr;
    QLabel *m_busyLabel = nullptr;

    QTimer m_debounce;
    QTimer m_progressPoll;
    core::CorrectionParams m_wanted;
    bool m_hasWanted = false;
    bool m_hasPlot = false;
    CorrectionPlot m_plot;
    // The running solve: its ticket (newer results win), stop source and progress.
    LatestJob m_solves;
    core::CorrectionParams m_solving;
    bool m_solvingActive = false;
    std::stop_source m_stop;
    std::shared_ptr<std::atomic<int>> m_progress;
    QList<QFutureWatcher<CorrectionSolveResult> *> m_watchers;
    CorrectionPlotCache m_cache;
};

} // namespace ui
