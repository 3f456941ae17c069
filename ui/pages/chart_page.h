#pragma once
// What every tab of the chart area is to the window: a page that is set up for a run, takes
// each channel's snapshots, draws what it has queued, shows the run's outcome, pins a run under
// later ones and names the views it exports. ResultsView holds the pages in one table
// (chartPageRows) and speaks to them through this interface, so that a new chart is its
// own files and one row there.
#include <array>
#include <utility>
#include <vector>

#include <QColor>
#include <QCoreApplication>
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QVector>

#include "ui/charts/batch_size_histogram.h"
#include "ui/charts/trace_chart.h"
#include "ui/run/run_messages.h"

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace ui {

class ThemedChartView;

/// One exportable chart: a file-name stem ("posterior-minibatch") and its view.
struct NamedChart {
    QString stem;
    QString title;
    ThemedChartView *view = nullptr;
};

/// What the pages are told of a run, worked out once from its request.
struct RunLayout {
    RunRequest request;
    QStringList methods;   ///< one label per method entry, as tables name it ("minibatch+taylor2")
    QStringList channels;  ///< one label per channel ("minibatch #2" with several chains)
    QList<QColor> colours; ///< one per channel
    /// N for generated data; 0 for real data, whose N the first snapshot brings.
    qint64 dataSize = 0;
    int dimension = 2;          ///< of θ as the charts show it: 1, or 2 (two weights of a larger θ)
    bool exactPosterior = false; ///< the data have a posterior map to draw behind the samples
    /// A run until stopped: the latest iterations per chain the charts keep; 0 for a fixed run.
    qint64 window = 0;

    /// Per channel, the iterations that warm up (0 for a run until stopped, which has none):
    /// worked out once, since snapshots ask for it many times a second.
    QVector<qint64> burnIns;

    int methodOf(int channel) const { return request.methodIndexOf(channel); }
    qint64 burnInOf(int channel) const { return burnIns.value(channel); }
};

RunLayout makeRunLayout(const RunRequest &request);

/// Colour of a channel's lines: its method's colour, lighter or darker per chain.
QColor channelColour(int methodIndex, int chainIndex);

/// A run pinned as a faint layer under later runs: what each page took of it.
struct PinnedRun {
    QList<QVector<QPointF>> posteriorSamples;          ///< per posterior chart
    std::vector<BatchSizeHistogram::SizeCounts> sizes; ///< per method
    std::vector<TraceChart::PinnedLine> traces;        ///< per channel
    bool isEmpty() const { return posteriorSamples.isEmpty(); }
};

class ChartPage {
    // The pages' words belong to the results view's translation context, as before they moved.
    Q_DECLARE_TR_FUNCTIONS(ui::ResultsView)

public:
    /// `widget` is what the tab shows (its charts are its children); `tabTitle` has the tab's
    /// Alt-key mnemonic.
    ChartPage(QWidget *widget, QString tabTitle, QString toolTip)
        : m_widget(widget), m_tabTitle(std::move(tabTitle)), m_toolTip(std::move(toolTip))
    {
    }
    virtual ~ChartPage() = default;

    QWidget *widget() const { return m_widget; }
    const QString &tabTitle() const { return m_tabTitle; }
    const QString &toolTip() const { return m_toolTip; }
    /// Whether the tab puts the widget in a scroll area (charts with minimum sizes do).
    virtual bool scrolls() const { return true; }

    /// Sets the page up for a run (also for the form's request before any run), with the pinned
    /// run (empty when none) drawn under the run's own series.
    virtual void beginRun(const RunLayout &layout, const PinnedRun &pin) = 0;
    virtual void applySnapshot(const RunSnapshot & /*snapshot*/, const RunLayout & /*layout*/) {}
    /// Draws everything still queued.
    virtual void flush() {}
    /// After flush(), when the run has ended.
    virtual void finishRun(const RunOutcome & /*outcome*/) {}
    /// The names of the plotted θ components.
    virtual void setComponentNames(const QStringList & /*names*/) {}
    /// Adds what the page shows now to `pin`; showPin draws a pin (or removes it, when empty)
    /// on the page as it is.
    virtual void pinInto(PinnedRun & /*pin*/) const {}
    virtual void showPin(const PinnedRun & /*pin*/) {}
    /// The charts a user can export from this page, in the page's order.
    virtual QList<NamedChart> exportViews() const { return {}; }

private:
    QWidget *m_widget;
    QString m_tabTitle;
    QString m_toolTip;
};

} // namespace ui
