#pragma once
// The path a continuous-time move takes between its draws: the Zig-Zag process's piecewise-
// linear skeleton (Bierkens, Fearnhead & Roberts 2019, Sec. 2), whose draws are read off it at a
// fixed spacing. The posterior chart draws its latest corners as one line per chain over the
// cloud of draws, so that the straight runs at ±45° in every plotted plane and the switches
// between them are seen beside the samples taken from them.
#include <QColor>
#include <QMap>
#include <QPointF>
#include <QVector>

QT_BEGIN_NAMESPACE
class QChart;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace ui {

class SamplePathLayer {
public:
    /// The corners kept per chain: the last stretch of the path, not its whole history.
    static constexpr qsizetype kCorners = 300;

    SamplePathLayer(QChart *chart, QValueAxis *x, QValueAxis *y);

    /// Appends `corners` (in order; a first corner equal to the last drawn one joins on) to
    /// `chain`'s line, keeping its latest kCorners. Returns true when the chain's line is new
    /// (its series was just added to the chart).
    bool append(int chain, const QVector<QPointF> &corners, const QColor &colour);
    /// The corners drawn for `chain` (empty: none).
    QVector<QPointF> corners(int chain) const;
    /// Every chain's line, for the chart to keep its top layers above them.
    QList<QLineSeries *> series() const { return m_lines.values(); }
    /// One legend entry for the path: the other chains' lines hidden from the legend (again after
    /// the chart re-adds the series, which makes new markers).
    void hideExtraLegendEntries();
    void clear();

private:
    QChart *m_chart;
    QValueAxis *m_x;
    QValueAxis *m_y;
    QMap<int, QLineSeries *> m_lines;
    QMap<int, QVector<QPointF>> m_corners;
};

} // namespace ui
