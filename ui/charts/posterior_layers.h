#pragma once
// The two image layers of the posterior chart, between the plot area's background and its grid:
// the exact posterior's heat map, and a faint pinned cloud of earlier samples (a before/after of
// one change). They are graphics items rather than a background brush so that SVG exports draw
// them too; the chart's own items stack plot area 0, grid 2, series 4, and these sit at 0.5 and
// 0.6. Each is rendered once per resize or axis change, so a repaint stays a plain blit.
#include <QPointF>
#include <QRectF>
#include <QVector>

#include "ui/charts/posterior_heat_map.h"

QT_BEGIN_NAMESPACE
class QAbstractSeries;
class QChart;
class QGraphicsPixmapItem;
QT_END_NAMESPACE

namespace ui {

class PosteriorLayers {
public:
    /// Adds both (hidden) items to `chart`, which owns them.
    explicit PosteriorLayers(QChart *chart);

    /// The heat map's image (a null image hides it); call updateHeatMap() to place it.
    void setImage(const PosteriorImage &image) { m_image = image; }
    const PosteriorImage &image() const { return m_image; }
    /// Places the heat map over the plot area through the axes of `anchor` (a series attached
    /// to the θ axes): its θ corners are mapped, not assumed to match the plot area.
    void updateHeatMap(const QAbstractSeries *anchor);

    /// The pinned samples (empty: no pin); call updatePin() to draw them.
    void setPinned(const QVector<QPointF> &points) { m_pinned = points; }
    qsizetype pinnedCount() const { return m_pinned.size(); }
    /// Renders the pinned samples for the plot area, `window` being the θ range it shows.
    void updatePin(const QRectF &window);

private:
    QChart *m_chart = nullptr;
    PosteriorImage m_image;
    QVector<QPointF> m_pinned;
    QGraphicsPixmapItem *m_heatMap = nullptr;
    QGraphicsPixmapItem *m_pinLayer = nullptr;
};

} // namespace ui
