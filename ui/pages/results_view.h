#pragma once
// The tabbed chart area of the main window, one chart page per tab (chartPageRows): posterior
// (one chart per compared method, on the same θ window), minibatch-size histogram, correction
// distribution, traces, the diagnostics table, for logistic regression test accuracy against
// data read, and the trade-offs of a sweep of one setting. It hands every page each run's
// layout, snapshots and outcome; pages route them to their charts, which batch their redraws.
#include <memory>
#include <vector>

#include <QString>
#include <QTabWidget>

#include "ui/pages/chart_page.h"

namespace ui {

class AccuracyChart;
class BatchSizeHistogram;
class BrightPointsChart;
class ComparePage;
class CorrectionChart;
class DiagnosticsTable;
class PosteriorChart;
class PosteriorPage;
class TraceChart;
class TradeoffsPage;
struct PosteriorImage;

/// One tab of the chart area: its stable key and how to make its page. Sessions and --tab name
/// tabs by the key, so that a tab added or moved does not shift what a saved session shows.
struct ChartPageRow {
    const char *key;
    std::unique_ptr<ChartPage> (*make)();
};
/// Every tab, in the order shown.
const std::vector<ChartPageRow> &chartPageRows();

class ResultsView : public QTabWidget {
    Q_OBJECT
public:
    /// Each tab's stable key, in tab order (chartPageRows).
    static QStringList tabKeys();
    /// The index of the tab with `key`, or -1.
    static int tabIndex(const QString &key);

    explicit ResultsView(QWidget *parent = nullptr);
    ~ResultsView() override;
    /// Shows the tab with `key` (tabKeys); false when there is none.
    bool showTab(const QString &key);

    /// Sets the charts up for `request`: one posterior chart and one histogram series per
    /// method, one trace line per channel; clears the table.
    void beginRun(const RunRequest &request);
    /// Empty charts and table for the last run's layout (Reset).
    void clearResults() { beginRun(m_layout.request); }
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
    /// Pins the shown run as a faint layer under later runs: what each page takes of it
    /// (ChartPage::pinInto; the posterior charts' samples, the minibatch-size histograms' counts
    /// and the traces). clearPin removes it.
    void pinPosteriorSamples();
    void clearPin();
    bool hasPin() const { return !m_pin.isEmpty(); }
    /// Draws what is queued for the visible tab only: what the charts' own timers do.
    void flushVisible();

    int posteriorChartCount() const;
    PosteriorChart *posteriorChart(int methodIndex = 0) const;
    /// The posterior tab (posterior charts and, comparing methods, a second histogram).
    ComparePage *comparePage() const;
    BatchSizeHistogram *histogram() const;
    CorrectionChart *correctionChart() const;
    TraceChart *traceChart() const;
    /// FlyMC's bright points, under the traces (hidden without FlyMC chains).
    BrightPointsChart *brightPointsChart() const;
    DiagnosticsTable *diagnosticsTable() const;
    AccuracyChart *accuracyChart() const;
    /// The sweep of one setting (its own runs, not the run's).
    TradeoffsPage *tradeoffsPage() const;
    /// Σ samples drawn by the posterior charts.
    qsizetype plottedSampleCount() const;
    /// Every chart that can be exported, in tab order.
    QList<NamedChart> exportableCharts() const;

private:
    /// The first page of type Page, or null.
    template <class Page> Page *page() const
    {
        for (const std::unique_ptr<ChartPage> &p : m_pages)
            if (auto *found = dynamic_cast<Page *>(p.get()))
                return found;
        return nullptr;
    }
    void showPin();

    std::vector<std::unique_ptr<ChartPage>> m_pages; // in tab order; their widgets belong to the tabs
    PosteriorPage *m_posterior = nullptr;
    RunLayout m_layout;
    PinnedRun m_pin;
};

} // namespace ui
