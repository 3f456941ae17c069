#pragma once
// The tabbed chart area of the main window: posterior (one chart per compared method, on the
// same θ window), minibatch-size histogram, correction distribution, traces, the
// diagnostics table, for logistic regression test accuracy against data read, and the
// trade-offs of a sweep of one setting. It routes each channel's snapshots to the charts of that channel's
// method and chain; charts batch their own redraws.
#include <optional>

#include <QList>
#include <QPointF>
#include <QVector>
#include <QString>
#include <QTabWidget>

#include "ui/charts/batch_size_histogram.h"
#include "ui/charts/posterior_heat_map.h"
#include "ui/run/sampler_worker.h"
#include "ui/charts/trace_chart.h"

namespace ui {

class AccuracyChart;
class BatchSizeHistogram;
class BrightPointsChart;
class ComparePage;
class CorrectionChart;
class DiagnosticsTable;
class PosteriorChart;
class ThemedChartView;
class TraceChart;
class TradeoffsPage;

/// One exportable chart: a file-name stem ("posterior-minibatch") and its view.
struct NamedChart {
    QString stem;
    QString title;
    ThemedChartView *view = nullptr;
};

class ResultsView : public QTabWidget {
    Q_OBJECT
public:
    enum Tab { PosteriorTab, HistogramTab, CorrectionTab, TraceTab, DiagnosticsTab, AccuracyTab, TradeoffsTab };
    /// Each tab's stable key, in the Tab order: "posterior", "sizes", "correction", "traces",
    /// "diagnostics", "accuracy", "tradeoffs". Sessions and --tab name tabs by these, so that a
    /// tab added or moved does not shift what a saved session shows.
    static QStringList tabKeys();
    /// The index of the tab with `key`, or -1.
    static int tabIndex(const QString &key);

    explicit ResultsView(QWidget *parent = nullptr);

    /// Sets the charts up for `request`: one posterior chart and one histogram series per
    /// method, one trace line per channel; clears the table.
    void beginRun(const RunRequest &request);
    /// Empty charts and table for the last run's layout (Reset).
    void clearResults() { beginRun(m_request); }
    void applySnapshot(const RunSnapshot &snapshot);
    /// Before any run: sets the empty charts up for the form's request when it needs other
    /// charts than those shown (another dataset or methods), so that a logistic dataset is not
    /// shown over the mixture's posterior; the mixture gets its heat map back.
    void previewForm(const RunRequest &form);
    void setPosteriorImage(const PosteriorImage &image);
    /// The names of the plotted θ components (SamplerWorker::plottedComponentsChosen).
    void setComponentNames(const QStringList &names);
    /// Draws everything still queued and fills the diagnostics table.
    void finishRun(const RunOutcome &outcome);
    /// Draws everything still queued (after a failure, before an export).
    void flushAll();
    /// Pins the shown run as a faint layer under later runs: the posterior charts' samples,
    /// the minibatch-size histograms' counts and the traces (see their setPinned… calls).
    /// clearPin removes it.
    void pinPosteriorSamples();
    void clearPin();
    bool hasPin() const { return !m_pins.isEmpty(); }
    /// Draws what is queued for the visible tab only: what the charts' own timers do.
    void flushVisible();

    int posteriorChartCount() const;
    PosteriorChart *posteriorChart(int methodIndex = 0) const;
    /// The posterior tab (posterior charts and, comparing methods, a second histogram).
    ComparePage *comparePage() const { return m_comparePage; }
    BatchSizeHistogram *histogram() const { return m_histogram; }
    CorrectionChart *correctionChart() const { return m_correction; }
    TraceChart *traceChart() const { return m_traces; }
    /// FlyMC's bright points, under the traces (hidden without FlyMC chains).
    BrightPointsChart *brightPointsChart() const { return m_bright; }
    DiagnosticsTable *diagnosticsTable() const { return m_table; }
    AccuracyChart *accuracyChart() const { return m_accuracy; }
    /// The sweep of one setting (its own runs, not the run's).
    TradeoffsPage *tradeoffsPage() const { return m_tradeoffs; }
    /// Σ samples drawn by the posterior charts.
    qsizetype plottedSampleCount() const;
    /// Every chart that can be exported, in tab order.
    QList<NamedChart> exportableCharts() const;

private:
    void applyPins();
    QList<QVector<QPointF>> m_pins; // per posterior chart, as pinned
    std::vector<BatchSizeHistogram::SizeCounts> m_pinnedCounts; // per method
    std::vector<TraceChart::PinnedLine> m_pinnedTraces;          // per channel
    ComparePage *m_comparePage = nullptr;
    BatchSizeHistogram *m_histogram = nullptr;
    CorrectionChart *m_correction = nullptr;
    TraceChart *m_traces = nullptr;
    BrightPointsChart *m_bright = nullptr;
    DiagnosticsTable *m_table = nullptr;
    AccuracyChart *m_accuracy = nullptr;
    TradeoffsPage *m_tradeoffs = nullptr;
    RunRequest m_request;
    std::optional<PosteriorImage> m_lastImage; // the mixture's latest, for charts set up again
    int m_dimension = 2; // of θ in the current run
};

/// Colour of a channel's lines: its method's colour, lighter or darker per chain.
QColor channelColour(int methodIndex, int chainIndex);

} // namespace ui
