#include "ui/posterior_chart.h"

#include <algorithm>
#include <cmath>

#include <QBrush>
#include <QChart>
#include <QColorAxis>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLinearGradient>
#include <QPainter>
#include <QPixmap>
#include <QValueAxis>

#include "core/diagnostics/gmm_posterior.h"

namespace ui {
namespace {

// A soft round dot. Drawn as an image per point, which is much cheaper than a graphics item.
QImage dotMarker(int diameter, QColor fill, QColor outline)
{
    QImage image(diameter, diameter, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(outline.alpha() > 0 ? QPen(outline, 1.0) : QPen(Qt::NoPen));
    painter.setBrush(fill);
    painter.drawEllipse(QRectF(0.5, 0.5, diameter - 1.0, diameter - 1.0));
    return image;
}

const QColor kSampleColour(20, 28, 48, 150);
const QColor kCurrentColour(230, 85, 13);

// The 5-pixel sample dot is too small to read in the legend: show plain circles there.
void styleLegendMarkers(QLegend *legend, QLineSeries *series, QColor colour)
{
    colour.setAlpha(255);
    for (QLegendMarker *marker : legend->markers(series)) {
        marker->setShape(QLegend::MarkerShapeCircle);
        marker->setBrush(colour);
        marker->setPen(Qt::NoPen);
    }
}

QLineSeries *markerSeries(const QString &name, const QImage &marker)
{
    auto *series = new QLineSeries;
    series->setName(name);
    series->setPen(Qt::NoPen);
    series->setPointsVisible(true);
    series->setLightMarker(marker);
    series->setMarkerSize(marker.width());
    return series;
}

} // namespace

PosteriorChart::PosteriorChart(QWidget *parent) : QChartView(parent)
{
    m_chart = new QChart;
    m_chart->setTitle(tr("Posterior samples over the true tempered log-posterior"));
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->setPlotAreaBackgroundVisible(true);
    m_chart->setPlotAreaBackgroundBrush(Qt::white);

    // The window is the posterior metrics' grid, so what is seen is what is measured.
    const core::PosteriorGridSpec grid;
    m_axisX = new QValueAxis;
    m_axisX->setTitleText(QStringLiteral("θ₁"));
    m_axisX->setRange(grid.theta1Min, grid.theta1Max);
    m_axisX->setTickCount(static_cast<int>(grid.theta1Max - grid.theta1Min) + 1);
    m_axisX->setLabelFormat(QStringLiteral("%.0f"));
    m_axisX->setMinorTickCount(1);
    m_axisY = new QValueAxis;
    m_axisY->setTitleText(QStringLiteral("θ₂"));
    m_axisY->setRange(grid.theta2Min, grid.theta2Max);
    m_axisY->setTickCount(static_cast<int>(grid.theta2Max - grid.theta2Min) + 1);
    m_axisY->setLabelFormat(QStringLiteral("%.0f"));
    m_axisY->setMinorTickCount(1);
    for (auto *axis : {m_axisX, m_axisY}) {
        // Light grid lines: the heat map is the background that matters.
        axis->setGridLineColor(QColor(0, 0, 0, 40));
        axis->setMinorGridLineColor(QColor(0, 0, 0, 18));
    }
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
    QLinearGradient gradient(0.0, 1.0, 0.0, 0.0);
    gradient.setStops(heatMapStops());
    m_colorAxis->setGradient(gradient);
    m_chart->addAxis(m_colorAxis, Qt::AlignRight);

    m_current = markerSeries(tr("Current θ"), dotMarker(11, kCurrentColour, Qt::white));
    m_sampleMarker = dotMarker(5, kSampleColour, Qt::transparent);
    addSampleChunk();

    setChart(m_chart);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(480, 400);

    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(kFlushIntervalMs);
    connect(&m_flushTimer, &QTimer::timeout, this, &PosteriorChart::flush);
    connect(m_chart, &QChart::plotAreaChanged, this, &PosteriorChart::updatePlotBackground);
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
        styleLegendMarkers(m_chart->legend(), series, kSampleColour);
    } else {
        // One legend entry stands for all chunks.
        for (QLegendMarker *marker : m_chart->legend()->markers(series))
            marker->setVisible(false);
    }
    m_sampleChunks.append(series);

    // Series added later paint on top, so re-adding the current state keeps it visible.
    if (m_current->chart())
        m_chart->removeSeries(m_current);
    m_chart->addSeries(m_current);
    m_current->attachAxis(m_axisX);
    m_current->attachAxis(m_axisY);
    styleLegendMarkers(m_chart->legend(), m_current, kCurrentColour);
    return series;
}

void PosteriorChart::clear()
{
    m_flushTimer.stop();
    m_pending.clear();
    m_openChunk.clear();
    m_plotted = 0;
    m_hasLatest = false;
    while (m_sampleChunks.size() > 1) {
        QLineSeries *series = m_sampleChunks.takeLast();
        m_chart->removeSeries(series);
        delete series;
    }
    m_sampleChunks.front()->clear();
    m_current->clear();
    m_image = PosteriorImage();
    updatePlotBackground();
}

void PosteriorChart::setPosteriorImage(const PosteriorImage &image)
{
    m_image = image;
    m_colorAxis->setRange(-image.logRange, 0.0);
    updatePlotBackground();
}

void PosteriorChart::setExpectedSampleCount(qint64 count)
{
    // Opaque enough to see single points of a short run; for long runs overlapping dots
    // add up, so their darkness shows density instead of one solid blot.
    constexpr double kFullOpacityCount = 3000.0;
    const double scale = count > kFullOpacityCount ? std::sqrt(kFullOpacityCount / static_cast<double>(count)) : 1.0;
    QColor colour = kSampleColour;
    colour.setAlpha(std::clamp(static_cast<int>(kSampleColour.alpha() * scale), 40, kSampleColour.alpha()));
    m_sampleMarker = dotMarker(5, colour, Qt::transparent);
    for (QLineSeries *series : m_sampleChunks)
        series->setLightMarker(m_sampleMarker);
}

void PosteriorChart::appendSamples(const QVector<QPointF> &points, QPointF current)
{
    m_pending += points;
    m_latest = current;
    m_hasLatest = true;
    if (!m_flushTimer.isActive())
        m_flushTimer.start();
}

void PosteriorChart::flush()
{
    m_flushTimer.stop();
    qsizetype taken = 0;
    while (taken < m_pending.size()) {
        if (m_openChunk.size() == kChunkSize) {
            addSampleChunk();
            m_openChunk.clear();
        }
        const qsizetype count = std::min(kChunkSize - m_openChunk.size(), m_pending.size() - taken);
        m_openChunk += m_pending.mid(taken, count);
        // One replace() re-lays out the chunk once; append() would do it once per point.
        m_sampleChunks.back()->replace(m_openChunk);
        taken += count;
    }
    m_plotted += m_pending.size();
    m_pending.clear();
    if (m_hasLatest)
        m_current->replace(QList<QPointF>{m_latest});
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
    const QRectF plotArea = m_chart->plotArea();
    if (m_image.isNull() || plotArea.isEmpty()) {
        m_chart->setPlotAreaBackgroundBrush(Qt::white);
        return;
    }
    // Map the image's θ corners through the axes rather than assuming they match the plot
    // area, so a changed axis range still lines the posterior up with the samples.
    const QPointF topLeft = m_chart->mapToPosition(QPointF(m_image.theta1Min, m_image.theta2Max), m_sampleChunks.front());
    const QPointF bottomRight = m_chart->mapToPosition(QPointF(m_image.theta1Max, m_image.theta2Min), m_sampleChunks.front());
    const QRectF target = QRectF(topLeft, bottomRight).normalized();
    if (target.width() < 1.0 || target.height() < 1.0)
        return;
    // Pre-scaling smoothly once per resize looks better than letting the brush stretch
    // the 200-pixel image, and keeps each repaint a plain blit.
    const QPixmap pixmap = QPixmap::fromImage(m_image.image.scaled(target.size().toSize(), Qt::IgnoreAspectRatio,
                                                                   Qt::SmoothTransformation));
    QBrush brush(pixmap);
    // The plot-area background paints in chart coordinates, so the texture origin must be
    // moved to the image's corner.
    brush.setTransform(QTransform::fromTranslate(target.left(), target.top()));
    m_chart->setPlotAreaBackgroundBrush(brush);
}

} // namespace ui
