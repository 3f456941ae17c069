#pragma once
/// How samples look on a scatter chart: dots drawn as images (much cheaper than a graphics item
/// per point) and legend entries readable at any dot size.
#include <QColor>
#include <QImage>
#include <QString>

class QLegend;
class QLineSeries;

namespace ui {

/// A soft round dot `diameter` pixels wide, filled with `fill` and outlined with `outline` (no
/// outline when it is transparent).
QImage dotMarker(int diameter, QColor fill, QColor outline);
/// A series that draws only its points, each as `marker`.
QLineSeries *markerSeries(const QString &name, const QImage &marker);
/// The 5-pixel sample dot is too small to read in the legend: `series`' legend entries become
/// plain opaque circles of `colour`.
void styleLegendMarkers(QLegend *legend, QLineSeries *series, QColor colour);

} // namespace ui
