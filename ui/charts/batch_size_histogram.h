#pragma once
// The histogram of minibatch sizes on log-log axes, as in Seita et al.'s Figures 2 and 4: one
// outlined, translucently filled step curve per compared method, with each method's mean
// marked by a dashed vertical line and a label.
//
// Bins are logarithmic (ten per decade) but never narrower than the gap between neighbouring
// observed sizes, with edges on the lattice of possible sizes. Batches grow in fixed steps
// (100, 200, 300, …), so pure log bins would alternate between holding one size and holding
// none and draw a comb; this way every small size gets a bin of its own (starting at that
// size) and the large ones are grouped logarithmically.
//
// Exact counts per distinct size are kept (sizes take few distinct values), so bins can be
// recomputed at every redraw and the mean is exact; redraws are batched like the posterior
// chart's and cost microseconds.
#include <algorithm>
#include <deque>
#include <map>
#include <vector>

#include <QStringList>
#include <QTimer>
#include <QVector>

#include "ui/charts/chart_style.h"

QT_BEGIN_NAMESPACE
class QAreaSeries;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QLogValueAxis;
QT_END_NAMESPACE

namespace ui {

/// Bin edges [e_k, e_{k+1}) for the observed distinct sizes (ascending): from the smallest
/// size, log-spaced with `perDecade` bins a decade, each at least as wide as the smallest gap
/// g between neighbours and ending on the lattice smallest + k·g. A single size gets one bin
/// centred on it.
std::vector<double> logBinEdges(const std::vector<qint64> &distinctSizes, int perDecade = 10);

class BatchSizeHistogram : public ThemedChartView {
    Q_OBJECT
public:
    static constexpr int kFlushIntervalMs = 100;

    explicit BatchSizeHistogram(QWidget *parent = nullptr);

    /// Starts over with one series per name (the methods being compared) for data of size N.
    void reset(const QStringList &names, qint64 dataSize);
    /// The data size N once the run has loaded its data (real data sets have their own N).
    void setDataSize(qint64 dataSize);
    qint64 dataSize() const { return m_dataSize; }
    /// Counts the sizes into `series` and schedules a redraw.
    void appendBatchSizes(int series, const QVector<qint64> &sizes);
    /// A run until stopped: count only each series' latest `iterations` sizes (a moving
    /// window); 0 counts them all (the default). Call after reset().
    void setWindow(qint64 iterations) { m_window = std::max<qint64>(iterations, 0); }
    /// Redraws now, e.g. before an export.
    void flush();

    /// Iterations per minibatch size of one series.
    using SizeCounts = std::map<qint64, qint64>;
    /// Each series' counts (with a window, of its latest iterations), to pin them.
    std::vector<SizeCounts> pinnableCounts() const;
    /// A pinned run: pinned[k] is drawn as a faint outline over series k, scaled to series k's
    /// iterations so that the two shapes compare while a run is still growing (unscaled while
    /// series k is empty). Kept across reset(); an empty list removes the pin.
    void setPinnedCounts(std::vector<SizeCounts> pinned);
    int pinnedSeriesCount() const { return static_cast<int>(m_pinned.size()); }
    /// Short titles for a small cell next to other charts.
    void setCompact(bool compact);
    void setExportLayout(bool exporting) override;

    int seriesCount() const { return static_cast<int>(m_series.size()); }
    /// Bins drawn at the last redraw (shared by all series).
    int binCount() const { return m_edges.empty() ? 0 : static_cast<int>(m_edges.size()) - 1; }
    /// Iterations counted in `series` (with a window, its latest ones), and their exact mean
    /// size (NaN when none).
    qint64 count(int series) const;
    double mean(int series) const;
    /// The text of the mean's label on the chart ("" before the first redraw).
    QString meanLabel(int series) const;

signals:
    /// After each redraw.
    void redrawn();

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    struct Series {
        QString name;
        std::map<qint64, qint64> counts; // size -> iterations
        std::deque<qint64> recent;      // with a window: the sizes counted, oldest first
        qint64 total = 0;
        double sum = 0.0;
        QLineSeries *upper = nullptr;  // owned by the area
        QLineSeries *floorLine = nullptr;
        QAreaSeries *area = nullptr;
        QLineSeries *meanLine = nullptr;
        QGraphicsSimpleTextItem *label = nullptr;
    };

    void removeSeries();
    void placeLabels();
    /// Whether the legend has room for every entry with its mean ("minibatch (mean 198.6)").
    bool fullLegendFits() const;

    QLogValueAxis *m_axisX = nullptr;
    QLogValueAxis *m_axisY = nullptr;
    std::vector<Series> m_series;
    std::vector<double> m_edges;
    qint64 m_dataSize = 0;
    qint64 m_window = 0;
    bool m_compact = false;
    std::vector<SizeCounts> m_pinned;
    std::vector<QLineSeries *> m_pinnedLines; // one per pinned series, owned by the chart
    QTimer m_flushTimer;
};

} // namespace ui
