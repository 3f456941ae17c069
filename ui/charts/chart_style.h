#pragma once
// Shared look of every chart: colours taken from the widget palette (so a dark desktop theme
// gives dark charts, never a white block), one colour per compared method, and a chart view
// that re-applies the palette when the theme changes.
//
// No chart uses OpenGL series: they would be missing from PNG and SVG exports, which render
// the chart's scene.
#include <QChartView>
#include <QColor>
#include <QPalette>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QChart;
class QFont;
class QLineSeries;
class QPen;
class QValueAxis;
QT_END_NAMESPACE

namespace ui {

/// `title` as a chart title `width` pixels wide can draw whole in `font`: as it is where it fits,
/// else as rich text on two lines, broken before a " — " clause (a mark such as "— earlier
/// settings") or else at the space nearest its middle. Qt Charts cuts a title too wide for its
/// chart, ending it in "...", and a cut title can drop what matters ("— earlier s...").
QString fittedTitle(const QString &title, const QFont &font, qreal width);

/// Line colour of the index-th compared method (or chain), readable on light and dark bases.
QColor seriesColour(int index);

/// `colour` with the given alpha (0–255).
QColor withAlpha(QColor colour, int alpha);

/// True when the palette's base colour is dark (a dark theme).
bool isDarkPalette(const QPalette &palette);

/// Colours the chart's background, plot area, title, legend and every attached axis from
/// `palette`. Call again after adding axes.
void applyPalette(QChart *chart, const QPalette &palette);
/// The same for one axis: labels, title, line and (faint) grid lines.
void applyPalette(QAbstractAxis *axis, const QPalette &palette);

/// A linear axis titled `title` whose tick labels are printf-formatted by `labelFormat` ("%.2f").
QValueAxis *valueAxis(const QString &title, const QString &labelFormat);
/// The same over [min, max] with `ticks` ticks.
QValueAxis *valueAxis(const QString &title, const QString &labelFormat, double min, double max, int ticks);

/// A line named `name`, drawn with `pen`, added to `chart` on its axes `x` and `y`.
QLineSeries *addLine(QChart *chart, const QString &name, const QPen &pen, QAbstractAxis *x, QAbstractAxis *y);

/// A QChartView that keeps its chart in the widget's palette and draws antialiased.
class ThemedChartView : public QChartView {
    Q_OBJECT
public:
    explicit ThemedChartView(QChart *chart, QWidget *parent = nullptr);

    /// Re-applies the palette; subclasses extend it for colours of their own.
    virtual void restyle();
    /// Called with true before and false after an export render: charts laid out for a small
    /// cell among others switch to their stand-alone titles and legend for the file.
    virtual void setExportLayout(bool exporting) { Q_UNUSED(exporting) }

protected:
    void changeEvent(QEvent *event) override;
};

} // namespace ui
