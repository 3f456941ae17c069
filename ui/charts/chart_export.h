#pragma once
// PNG and SVG files of a chart at a chosen size. The chart is laid out
// again at the requested size for the render and restored afterwards, so an export at
// 1600 × 1000 is a real 1600 × 1000 chart rather than a scaled screenshot. Files are written
// through QSaveFile: a failed export says why and leaves no partial file.
#include <optional>

#include <QImage>
#include <QList>
#include <QSize>
#include <QString>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QChartView;
QT_END_NAMESPACE

namespace ui {

struct NamedChart;

enum class ChartFormat { Png, Svg };

/// The file suffix of a format, without the dot.
QString suffixOf(ChartFormat format);
/// The format a path's suffix names (png or svg, any case), or nothing.
std::optional<ChartFormat> formatOfPath(const QString &path);

/// Renders the view's chart at `size` pixels into an image.
QImage renderChartImage(QChartView *view, QSize size);

/// Writes the chart to `path` in `format` at `size`. Returns false and sets `*error` (the
/// path and the reason) on failure; no file is left behind then.
bool exportChart(QChartView *view, const QString &path, ChartFormat format, QSize size, const QString &title,
                 QString *error);

/// Writes every chart as <stem>.png and <stem>.svg into `directory` (created if missing).
/// Stops at the first failure; returns the files written so far and sets `*error`.
QStringList exportCharts(const QList<NamedChart> &charts, const QString &directory, QSize size, QString *error);

} // namespace ui
