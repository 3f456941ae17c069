#pragma once
// The posterior scatter (θ₁, θ₂) drawn over the true tempered log-posterior.
//
// Qt Charts facts this widget is built around: QScatterSeries makes one
// graphics item per point, so the samples are QLineSeries with no pen and a small image
// marker; points arrive in batches and reach a series through replace() at most ~25 times a
// second; the posterior is an image item behind the samples, which costs the
// same for any number of samples. No OpenGL series, so PNG/SVG renders show everything.
//
// replace() re-lays out every point of its series (about 1 µs each on Qt 6.4, while painting
// is ten times cheaper), so one growing series would block the GUI thread for ~50 ms at 50k
// points. The samples are therefore split into chunks of kChunkSize points: only the newest
// chunk is replaced, and each update costs O(kChunkSize) whatever the total.
#include <memory>

#include <QImage>
#include <QPointF>
#include <QTimer>
#include <QStringList>
#include <QVector>

#include "ui/charts/chart_style.h"
#include "ui/charts/posterior_heat_map.h"
#include "ui/charts/posterior_layers.h"
#include "ui/charts/proposal_ellipse.h"
#include "ui/charts/sample_path.h"
#include "ui/charts/sample_histogram.h"
#include "ui/run/run_messages.h"

QT_BEGIN_NAMESPACE
class QChart;
class QColorAxis;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace ui {

class PosteriorChart : public ThemedChartView {
    Q_OBJECT
public:
    /// Shortest gap between two series updates (≈ 25 updates a second).
    static constexpr int kFlushIntervalMs = 40;
    /// The narrowest a chart gets; a compare page lays out no more columns than fit (compare_page.h).
    static constexpr int kMinimumWidth = 240;
    /// The same with a moving window (setWindow), which is laid out whole at every update.
    static constexpr int kWindowFlushIntervalMs = 100;
    /// Points per sample series; only the last, still-growing chunk is ever replaced.
    static constexpr qsizetype kChunkSize = 2500;

    explicit PosteriorChart(QWidget *parent = nullptr);

    /// Removes all samples and the heat map (a new run may have another N or T).
    void clear();
    /// Shows `image` behind the samples; its θ ranges are mapped onto the axes.
    void setPosteriorImage(const PosteriorImage &image);
    bool hasPosteriorImage() const { return !m_layers.image().isNull(); }
    const PosteriorImage &posteriorImage() const { return m_layers.image(); }
    /// Sets the sample markers' opacity for a run that will draw about `count` points, so a
    /// dense cloud still shows the heat map through it. Applies to points drawn from now on.
    void setExpectedSampleCount(qint64 count);
    /// Queues samples (and the chain's latest state, with the spread of the proposal drawn
    /// from it) for the next batched series update. The proposal is drawn as its ellipse at
    /// kProposalEllipseSds around the current state; none when `proposal` is empty.
    void appendSamples(const QVector<QPointF> &points, QPointF current,
                       const std::optional<ProposalSpread> &proposal = std::nullopt);
    /// The proposal ellipse last placed, whole (empty: none drawn), and how many arcs of it
    /// are drawn inside the plot.
    QVector<QPointF> proposalEllipse() const;
    int drawnProposalArcs() const;
    /// A run until stopped: show only the latest `points` samples (a moving window), with free
    /// axes following the window; 0 keeps every sample (the default).
    void setWindow(qsizetype points);
    /// Draws the latest corners of `chain`'s continuous path (RunSnapshot::path: the Zig-Zag
    /// process's) as a line over the cloud; empty corners change nothing.
    void appendPath(int chain, const QVector<QPointF> &corners);
    /// The corners of `chain`'s path drawn now (empty: none).
    QVector<QPointF> drawnPath(int chain) const;
    /// Pushes queued samples to the series now, e.g. before a screenshot.
    void flush();
    /// The samples drawn now (queued ones flushed first), e.g. to pin them.
    QVector<QPointF> drawnSamples();
    /// Shows `points` as a faint layer under the samples (a before/after of one change); an
    /// empty list removes it. clear() leaves it.
    void setPinnedSamples(const QVector<QPointF> &points);
    /// Samples in the pinned layer (0 without a pin).
    qsizetype pinnedSampleCount() const { return m_layers.pinnedCount(); }
    /// Samples flushed to the chart so far (queued ones not included); samples outside the θ
    /// window count but are not drawn.
    qsizetype plottedSampleCount() const;
    /// Series in the chart: the sample chunks (at least one), the proposal ellipse and the
    /// current-state series.
    int seriesCount() const;
    /// Compact charts (side by side) have no legend and a colour bar without title, so the
    /// plot keeps most of a small cell.
    void setCompact(bool compact);
    /// For models without an exact posterior to draw (worst case, logistic regression): no
    /// heat map or colour bar, and axes that follow the samples instead of the mixture's
    /// fixed window. A one-dimensional θ is drawn as a rug along θ₂ = 0 under the histogram
    /// of its samples (sample_histogram.h). Call before samples arrive.
    void setFreeAxes(int dimension);
    /// The one-dimensional θ's histogram; null for two or more dimensions.
    const SampleHistogram *histogram() const { return m_histogram.get(); }
    /// Names the plotted θ components on the axes (y only when θ has two or more).
    void setComponentNames(const QStringList &names);
    /// The x and y axis titles.
    QStringList axisTitles() const;
    bool hasFreeAxes() const { return m_free; }

    void restyle() override;
    void setExportLayout(bool exporting) override;

private:
    QLineSeries *addSampleChunk();
    /// Re-adds the path, the proposal and the current state above every other series.
    void raiseTopSeries();
    void flushWindow();
    /// The current state and its proposal ellipse, where the plot `window` shows them.
    void showLatest(const QRectF &window);
    /// Free axes: widens the range to hold `points` (from scratch when m_hasRange is false).
    void growFreeRange(const QVector<QPointF> &points);
    void setFreeRange();
    QRectF plotWindow() const;
    static QVector<QPointF> insidePlot(const QVector<QPointF> &points, const QRectF &window);
    void updatePlotBackground();
    void updateHistogram();
    void updatePinLayer();
    void setImage(const PosteriorImage &image);
    QColor sampleColour() const;

    QChart *m_chart = nullptr;
    QList<QLineSeries *> m_sampleChunks; // the first carries the legend entry and colour axis
    QLineSeries *m_current = nullptr;
    ProposalEllipseSeries m_proposal;   // around the current state
    std::unique_ptr<SamplePathLayer> m_path; // the Zig-Zag process's path, one line per chain
    QImage m_sampleMarker;
    qint64 m_expectedCount = 0;
    bool m_compact = false;
    QValueAxis *m_axisX = nullptr;
    QValueAxis *m_axisY = nullptr;
    QColorAxis *m_colorAxis = nullptr;
    QVector<QPointF> m_openChunk;        // the points of m_sampleChunks.back()
    qsizetype m_plotted = 0;
    qsizetype m_windowSize = 0;          // > 0: only the latest samples are drawn
    QVector<QPointF> m_windowPoints;     // those samples, oldest first
    QVector<QPointF> m_pending;
    QPointF m_latest;
    bool m_hasLatest = false;
    QTimer m_flushTimer;
    PosteriorLayers m_layers;             // the heat map and the pinned samples
    bool m_free = false;          // axes follow the samples (no exact posterior)
    int m_dimension = 2;
    bool m_hasRange = false;
    QPointF m_low, m_high;        // corners of the samples' bounding box, with free axes
    std::unique_ptr<SampleHistogram> m_histogram; // a one-dimensional θ only
};

} // namespace ui
