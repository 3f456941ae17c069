#include "ui/charts/posterior_chart.h"

#include <algorithm>
#include <cmath>

#include <QBrush>
#include <QChart>
#include <QColorAxis>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

#include "core/diagnostics/gmm_posterior.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/posterior_heat_map.h"
#include "ui/charts/sample_markers.h"

namespace ui {
namespace {

// Samples in the palette's text colour (dark on light themes, light on dark ones): it
// contrasts with both the plot background and the blue heat map.
constexpr int kSampleAlpha = 150;
const QColor kCurrentColour(230, 85, 13);

} // namespace

PosteriorChart::PosteriorChart(QWidget *parent)
    : ThemedChartView(new QChart, parent), m_chart(chart()), m_proposal(kCurrentColour), m_layers(m_chart)
{
    m_chart->setTitle(tr("Posterior samples over the true tempered log-posterior"));
    m_chart->legend()->setAlignment(Qt::AlignBottom);

    // The window is the posterior metrics' grid, so what is seen is what is measured.
    const core::PosteriorGridSpec grid;
    // A tick at every integer, a minor one between.
    m_axisX = valueAxis(QStringLiteral("θ₁"), QStringLiteral("%.0f"), grid.theta1Min, grid.theta1Max,
                        static_cast<int>(grid.theta1Max - grid.theta1Min) + 1);
    m_axisY = valueAxis(QStringLiteral("θ₂"), QStringLiteral("%.0f"), grid.theta2Min, grid.theta2Max,
                        static_cast<int>(grid.theta2Max - grid.theta2Min) + 1);
    for (QValueAxis *axis : {m_axisX, m_axisY})
        axis->setMinorTickCount(1);
    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);

    // The colour bar is the heat map's legend.
    m_colorAxis = new QColorAxis;
    m_colorAxis->setTitleText(tr("log posterior − max"));
    m_colorAxis->setRange(-kDefaultHeatMapLogRange, 0.0);
    m_colorAxis->setTickCount(5);
    m_colorAxis->setSize(12);
    // The gradient bar is its own axis line; Qt 6.4 would also draw a stray line at the
    // scene origin.
    m_colorAxis->setLineVisible(false);
    m_chart->addAxis(m_colorAxis, Qt::AlignRight);

    m_path = std::make_unique<SamplePathLayer>(m_chart, m_axisX, m_axisY);
    m_current = markerSeries(tr("Current θ"), dotMarker(11, kCurrentColour, palette().color(QPalette::Base)));
    m_sampleMarker = dotMarker(5, sampleColour(), Qt::transparent);
    addSampleChunk();

    setMinimumSize(kMinimumWidth, 180); // on a smaller screen the tab scrolls (ResultsView)
    restyle();

    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(kFlushIntervalMs);
    connect(&m_flushTimer, &QTimer::timeout, this, &PosteriorChart::flush);
    connect(m_chart, &QChart::plotAreaChanged, this, &PosteriorChart::updatePlotBackground);
    connect(m_chart, &QChart::plotAreaChanged, this, &PosteriorChart::updatePinLayer);
    for (QValueAxis *axis : {m_axisX, m_axisY})
        connect(axis, &QValueAxis::rangeChanged, this, &PosteriorChart::updatePinLayer);
}

QVector<QPointF> PosteriorChart::drawnSamples()
{
    flush();
    QVector<QPointF> points;
    points.reserve(m_plotted);
    for (const QLineSeries *series : std::as_const(m_sampleChunks))
        points.append(series->points());
    return points;
}

void PosteriorChart::setPinnedSamples(const QVector<QPointF> &points)
{
    m_layers.setPinned(points);
    updatePinLayer();
}

void PosteriorChart::updatePinLayer()
{
    m_layers.updatePin(plotWindow());
}

void PosteriorChart::setImage(const PosteriorImage &image)
{
    m_layers.setImage(image);
    updatePlotBackground();
}

QLineSeries *PosteriorChart::addSampleChunk()
{
    const bool first = m_sampleChunks.isEmpty();
    auto *series = markerSeries(tr("Samples"), m_sampleMarker);
    m_chart->addSeries(series);
    series->attachAxis(m_axisX);
    series->attachAxis(m_axisY);
    if (first) {
        // Qt Charts requires an axis to belong to a series; this does not recolour points.
        series->attachAxis(m_colorAxis);
        styleLegendMarkers(m_chart->legend(), series, sampleColour());
    } else {
        // One legend entry stands for all chunks.
        for (QLegendMarker *marker : m_chart->legend()->markers(series))
            marker->setVisible(false);
    }
    m_sampleChunks.append(series);
    raiseTopSeries();
    return series;
}

void PosteriorChart::raiseTopSeries()
{
    // Series added later paint on top, so re-adding the path, the proposal and the current state
    // keeps them visible.
    QList<QLineSeries *> onTop = m_path->series();
    onTop.append(m_proposal.series());
    onTop.append(m_current);
    for (QLineSeries *top : onTop) {
        if (top->chart())
            m_chart->removeSeries(top);
        m_chart->addSeries(top);
        top->attachAxis(m_axisX);
        top->attachAxis(m_axisY);
    }
    styleLegendMarkers(m_chart->legend(), m_current, kCurrentColour);
    m_path->hideExtraLegendEntries();
    for (QLineSeries *arc : m_proposal.series())
        for (QLegendMarker *marker : m_chart->legend()->markers(arc))
            marker->setVisible(arc == m_proposal.series().front() && m_proposal.hasSpread());
}

void PosteriorChart::appendPath(int chain, const QVector<QPointF> &corners)
{
    // In the cloud's colour, told apart by being a line; over a black cloud, in blue.
    const QColor cloud = sampleColour();
    if (m_path->append(chain, corners, cloud.lightness() < 80 ? QColor(0x1f, 0x6f, 0xb4) : cloud))
        raiseTopSeries();
}

QVector<QPointF> PosteriorChart::drawnPath(int chain) const
{
    return m_path->corners(chain);
}

void PosteriorChart::clear()
{
    m_flushTimer.stop();
    m_pending.clear();
    m_openChunk.clear();
    m_windowPoints.clear();
    m_plotted = 0;
    m_hasLatest = false;
    while (m_sampleChunks.size() > 1) {
        QLineSeries *series = m_sampleChunks.takeLast();
        m_chart->removeSeries(series);
        delete series;
    }
    m_sampleChunks.front()->clear();
    if (m_histogram)
        m_histogram->clear();
    m_current->clear();
    m_proposal.clear();
    m_path->clear();
    setImage(PosteriorImage());
}

void PosteriorChart::setFreeAxes(int dimension)
{
    m_free = true;
    m_dimension = dimension;
    m_hasRange = false;
    m_layers.setImage(PosteriorImage());
    m_colorAxis->setVisible(false);
    for (QValueAxis *axis : {m_axisX, m_axisY}) {
        axis->setLabelFormat(QStringLiteral("%.4g"));
        axis->setMinorTickCount(0);
        axis->setTickCount(5);
    }
    m_axisX->setRange(-1.0, 1.0);
    m_axisY->setRange(-1.0, 1.0);
    m_axisY->setTitleText(dimension > 1 ? QStringLiteral("θ₂") : tr("samples per unit θ (dots: the samples)"));
    if (dimension == 1 && !m_histogram)
        m_histogram = std::make_unique<SampleHistogram>(m_chart, m_axisX, m_axisY, seriesColour(0));
    setToolTip(m_compact ? tr("Dots: samples; orange: current θ. No exact posterior is drawn for this model.")
                         : QString());
    updatePlotBackground();
}

void PosteriorChart::setComponentNames(const QStringList &names)
{
    if (!names.isEmpty())
        m_axisX->setTitleText(names[0]);
    if (names.size() > 1 && m_dimension > 1)
        m_axisY->setTitleText(names[1]);
}

QStringList PosteriorChart::axisTitles() const
{
    return {m_axisX->titleText(), m_axisY->titleText()};
}

void PosteriorChart::setPosteriorImage(const PosteriorImage &image)
{
    if (m_free)
        return; // no heat map without an exact posterior
    m_colorAxis->setRange(-image.logRange, 0.0);
    setImage(image);
}

QColor PosteriorChart::sampleColour() const
{
    return withAlpha(palette().color(QPalette::Text), kSampleAlpha);
}

void PosteriorChart::setExpectedSampleCount(qint64 count)
{
    m_expectedCount = count;
    // Opaque enough to see single points of a short run; for long runs overlapping dots
    // add up, so their darkness shows density instead of one solid blot.
    constexpr double kFullOpacityCount = 3000.0;
    const double scale = count > kFullOpacityCount ? std::sqrt(kFullOpacityCount / static_cast<double>(count)) : 1.0;
    const QColor colour = withAlpha(sampleColour(), std::clamp(static_cast<int>(kSampleAlpha * scale), 40, kSampleAlpha));
    m_sampleMarker = dotMarker(5, colour, Qt::transparent);
    for (QLineSeries *series : m_sampleChunks)
        series->setLightMarker(m_sampleMarker);
}

void PosteriorChart::setExportLayout(bool exporting)
{
    // An exported chart stands alone: it gets the legend and colour-bar title back.
    const bool compact = m_compact;
    setCompact(!exporting && compact);
    m_compact = compact;
}

void PosteriorChart::setCompact(bool compact)
{
    m_compact = compact;
    m_chart->legend()->setVisible(!compact);
    m_colorAxis->setTitleVisible(!compact);
    m_colorAxis->setTickCount(compact ? 3 : 5);
    setToolTip(compact ? tr("Dots: samples; orange: current θ; blue: the exact tempered log-posterior, "
                            "from its maximum down to 10 nats below.")
                       : QString());
}

void PosteriorChart::restyle()
{
    ThemedChartView::restyle();
    // The colour bar has no grid; its line stays hidden (see the constructor).
    m_colorAxis->setLineVisible(false);
    m_colorAxis->setGradient(colourBarGradient(palette().color(QPalette::Base)));
    m_current->setLightMarker(dotMarker(11, kCurrentColour, palette().color(QPalette::Base)));
    styleLegendMarkers(m_chart->legend(), m_current, kCurrentColour);
    setExpectedSampleCount(m_expectedCount);
    if (!m_sampleChunks.isEmpty())
        styleLegendMarkers(m_chart->legend(), m_sampleChunks.front(), sampleColour());
    updatePlotBackground();
}

void PosteriorChart::appendSamples(const QVector<QPointF> &points, QPointF current,
                                   const std::optional<ProposalSpread> &proposal)
{
    m_pending += points;
    m_latest = current;
    m_hasLatest = true;
    m_proposal.setSpread(proposal);
    if (!m_flushTimer.isActive())
        m_flushTimer.start();
}

void PosteriorChart::setWindow(qsizetype points)
{
    m_windowSize = std::max<qsizetype>(points, 0);
    // Each redraw of a window lays out all its points again: ten a second are enough to watch.
    m_flushTimer.setInterval(m_windowSize > 0 ? kWindowFlushIntervalMs : kFlushIntervalMs);
}

void PosteriorChart::flushWindow()
{
    m_windowPoints += m_pending;
    if (m_windowPoints.size() > m_windowSize)
        m_windowPoints.remove(0, m_windowPoints.size() - m_windowSize);
    if (m_free && !m_windowPoints.isEmpty()) {
        // The axes follow the window: a chain that moves on leaves its old range behind.
        m_hasRange = false;
        growFreeRange(m_windowPoints);
    }
    const QRectF window = plotWindow();
    const QVector<QPointF> inside = insidePlot(m_windowPoints, window);
    // Every chunk is refilled: a sliding window changes them all.
    const qsizetype chunks = std::max<qsizetype>(1, (inside.size() + kChunkSize - 1) / kChunkSize);
    while (m_sampleChunks.size() < chunks)
        addSampleChunk();
    for (qsizetype k = 0; k < m_sampleChunks.size(); ++k)
        m_sampleChunks[k]->replace(k < chunks ? inside.mid(k * kChunkSize, kChunkSize) : QList<QPointF>{});
    m_plotted += m_pending.size();
    m_pending.clear();
    if (m_histogram) {
        m_histogram->setSamples(m_windowPoints);
        updateHistogram();
    }
    showLatest(window);
}

void PosteriorChart::updateHistogram()
{
    // The bars span the samples, not the axis's rounded range.
    if (m_hasRange)
        m_histogram->redraw(m_low.x(), m_high.x());
}

QRectF PosteriorChart::plotWindow() const
{
    return QRectF(QPointF(m_axisX->min(), m_axisY->min()), QPointF(m_axisX->max(), m_axisY->max()));
}

QVector<QPointF> PosteriorChart::insidePlot(const QVector<QPointF> &points, const QRectF &window)
{
    // Samples outside the θ window are counted but not added: the screen would clip them,
    // but the SVG writer does not, and they would be drawn outside the plot.
    QVector<QPointF> inside;
    inside.reserve(points.size());
    for (const QPointF &point : points)
        if (window.contains(point))
            inside.append(point);
    return inside;
}

void PosteriorChart::growFreeRange(const QVector<QPointF> &points)
{
    for (const QPointF &point : points) {
        if (!m_hasRange)
            m_low = m_high = point;
        m_low = QPointF(std::min(m_low.x(), point.x()), std::min(m_low.y(), point.y()));
        m_high = QPointF(std::max(m_high.x(), point.x()), std::max(m_high.y(), point.y()));
        m_hasRange = true;
    }
    setFreeRange();
}

void PosteriorChart::setFreeRange()
{
    // 5% of the spread on each side, and never a zero-width axis (a chain that has not moved).
    const auto margin = [](double low, double high) {
        return std::max(0.05 * (high - low), 1e-6 * std::max(1.0, std::abs(low + high)));
    };
    const double mx = margin(m_low.x(), m_high.x()), my = margin(m_low.y(), m_high.y());
    m_axisX->setRange(m_low.x() - mx, m_high.x() + mx);
    m_axisX->applyNiceNumbers();
    if (m_dimension > 1) {
        m_axisY->setRange(m_low.y() - my, m_high.y() + my);
        m_axisY->applyNiceNumbers();
    }
}

void PosteriorChart::flush()
{
    m_flushTimer.stop();
    if (m_windowSize > 0) {
        flushWindow();
        return;
    }
    if (m_free && !m_pending.isEmpty())
        growFreeRange(m_pending); // the axes grow to hold every sample, so nothing is filtered below
    const QRectF window = plotWindow();
    const QVector<QPointF> inside = insidePlot(m_pending, window);
    qsizetype taken = 0;
    while (taken < inside.size()) {
        if (m_openChunk.size() == kChunkSize) {
            addSampleChunk();
            m_openChunk.clear();
        }
        const qsizetype count = std::min(kChunkSize - m_openChunk.size(), inside.size() - taken);
        m_openChunk += inside.mid(taken, count);
        // One replace() re-lays out the chunk once; append() would do it once per point.
        m_sampleChunks.back()->replace(m_openChunk);
        taken += count;
    }
    m_plotted += m_pending.size();
    if (m_histogram && !m_pending.isEmpty()) {
        m_histogram->add(m_pending);
        updateHistogram();
    }
    m_pending.clear();
    showLatest(window);
}

void PosteriorChart::showLatest(const QRectF &window)
{
    if (!m_hasLatest)
        return;
    const bool shown = m_free || window.contains(m_latest);
    m_current->replace(shown ? QList<QPointF>{m_latest} : QList<QPointF>{});
    m_proposal.place(m_latest, shown, window, m_chart->legend());
}

QVector<QPointF> PosteriorChart::proposalEllipse() const
{
    return m_proposal.points();
}

int PosteriorChart::drawnProposalArcs() const
{
    int arcs = 0;
    for (const QLineSeries *arc : m_proposal.series())
        arcs += arc->count() > 0 ? 1 : 0;
    return arcs;
}

qsizetype PosteriorChart::plottedSampleCount() const
{
    return m_plotted;
}

int PosteriorChart::seriesCount() const
{
    return static_cast<int>(m_chart->series().size());
}

void PosteriorChart::updatePlotBackground()
{
    m_layers.updateHeatMap(m_sampleChunks.front());
}

} // namespace ui
