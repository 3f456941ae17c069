#pragma once
// The histogram of a one-dimensional θ's samples on the posterior chart (the worst-case
// Gaussian): a step outline of the samples' density, over the samples themselves drawn as a
// rug at θ₂ = 0. Dots along one line show where the chain went, not how its draws spread.
#include <vector>

#include <QColor>
#include <QPointF>
#include <QVector>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QChart;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace ui {

class SampleHistogram {
public:
    static constexpr int kBins = 40;

    /// Adds the outline to `chart` on the axes `x` and `y`, with a legend entry; redraw() sets
    /// `y`'s range and ticks.
    SampleHistogram(QChart *chart, QAbstractAxis *x, QValueAxis *y, const QColor &colour);

    /// Counts the x of `points` in (the whole run's samples).
    void add(const QVector<QPointF> &points);
    /// Counts only the x of `points` (a moving window's samples).
    void setSamples(const QVector<QPointF> &points);
    void clear();
    /// Redraws the outline over [low, high] in kBins bars of equal width, each at its share of
    /// the samples per unit θ, so that the bars' area is the share inside [low, high]; the y
    /// axis then fits the tallest bar (left as it is without samples).
    void redraw(double low, double high);

    qsizetype sampleCount() const { return static_cast<qsizetype>(m_values.size()); }
    /// The outline: (low, 0), then each bar's top-left and top-right corner, then (high, 0).
    const QLineSeries *series() const { return m_series; }

private:
    QLineSeries *m_series = nullptr;
    QValueAxis *m_axisY = nullptr;
    std::vector<double> m_values;
};

} // namespace ui
