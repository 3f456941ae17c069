#include "ui/charts/sample_markers.h"

#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QPen>

namespace ui {

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

void styleLegendMarkers(QLegend *legend, QLineSeries *series, QColor colour)
{
    colour.setAlpha(255);
    for (QLegendMarker *marker : legend->markers(series)) {
        marker->setShape(QLegend::MarkerShapeCircle);
        marker->setBrush(colour);
        marker->setPen(Qt::NoPen);
    }
}

} // namespace ui
