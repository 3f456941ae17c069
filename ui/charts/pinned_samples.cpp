#include "ui/charts/pinned_samples.h"

#include <QPainter>

namespace ui {

QImage renderPinnedSamples(const QVector<QPointF> &points, const QRectF &window, QSize size, QColor colour)
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    if (points.isEmpty() || window.width() <= 0.0 || window.height() <= 0.0 || size.isEmpty())
        return image;
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(colour);
    const double sx = size.width() / window.width(), sy = size.height() / window.height();
    constexpr double kRadius = 2.0;
    for (const QPointF &point : points) {
        if (!window.contains(point))
            continue;
        const QPointF at((point.x() - window.left()) * sx, (window.bottom() - point.y()) * sy);
        painter.drawEllipse(at, kRadius, kRadius);
    }
    return image;
}

} // namespace ui
