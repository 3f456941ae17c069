#include "ui/charts/posterior_layers.h"

#include <QChart>
#include <QGraphicsPixmapItem>
#include <QPixmap>

#include "ui/charts/pinned_samples.h"

namespace ui {

PosteriorLayers::PosteriorLayers(QChart *chart) : m_chart(chart)
{
    m_heatMap = new QGraphicsPixmapItem(chart);
    m_heatMap->setZValue(0.5);
    m_heatMap->hide();
    m_pinLayer = new QGraphicsPixmapItem(chart);
    m_pinLayer->setZValue(0.6);
    m_pinLayer->hide();
}

void PosteriorLayers::updateHeatMap(const QAbstractSeries *anchor)
{
    const QRectF plotArea = m_chart->plotArea();
    if (m_image.isNull() || plotArea.isEmpty()) {
        m_heatMap->hide();
        return;
    }
    // Mapping the corners through the axes keeps the posterior lined up with the samples
    // after an axis range change.
    auto *series = const_cast<QAbstractSeries *>(anchor); // mapToPosition takes a non-const series
    const QPointF topLeft = m_chart->mapToPosition(QPointF(m_image.theta1Min, m_image.theta2Max), series);
    const QPointF bottomRight = m_chart->mapToPosition(QPointF(m_image.theta1Max, m_image.theta2Min), series);
    const QRectF target = QRectF(topLeft, bottomRight).normalized().intersected(plotArea);
    if (target.width() < 1.0 || target.height() < 1.0)
        return;
    // Pre-scaling smoothly once per resize looks better than stretching the 200-pixel image
    // at every paint.
    m_heatMap->setPixmap(QPixmap::fromImage(
        m_image.image.scaled(target.size().toSize(), Qt::IgnoreAspectRatio, Qt::SmoothTransformation)));
    m_heatMap->setPos(target.topLeft());
    m_heatMap->show();
}

void PosteriorLayers::updatePin(const QRectF &window)
{
    const QRectF plotArea = m_chart->plotArea();
    if (m_pinned.isEmpty() || plotArea.isEmpty()) {
        m_pinLayer->hide();
        return;
    }
    // Grey-violet, faint: apart from the samples' colour and the heat map's blue.
    m_pinLayer->setPixmap(
        QPixmap::fromImage(renderPinnedSamples(m_pinned, window, plotArea.size().toSize(), pinnedColour())));
    m_pinLayer->setPos(plotArea.topLeft());
    m_pinLayer->show();
}

} // namespace ui
