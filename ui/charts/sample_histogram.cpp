#include "ui/charts/sample_histogram.h"

#include <algorithm>
#include <cmath>

#include <QChart>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include "ui/charts/chart_style.h"

namespace ui {

SampleHistogram::SampleHistogram(QChart *chart, QAbstractAxis *x, QValueAxis *y, const QColor &colour)
    : m_axisY(y)
{
    QPen pen(colour);
    pen.setWidthF(1.5);
    m_series = addLine(chart, QObject::tr("Histogram of the samples"), pen, x, y);
}

void SampleHistogram::add(const QVector<QPointF> &points)
{
    for (const QPointF &point : points)
        m_values.push_back(point.x());
}

void SampleHistogram::setSamples(const QVector<QPointF> &points)
{
    m_values.clear();
    add(points);
}

void SampleHistogram::clear()
{
    m_values.clear();
    m_series->clear();
}

void SampleHistogram::redraw(double low, double high)
{
    if (m_values.empty() || !(high > low)) {
        m_series->clear();
        return;
    }
    const double width = (high - low) / kBins;
    std::vector<double> counts(kBins, 0.0);
    for (const double value : m_values) {
        const auto bin = static_cast<int>(std::floor((value - low) / width));
        if (bin >= 0 && bin < kBins)
            counts[static_cast<std::size_t>(bin)] += 1.0;
        else if (value == high)
            counts.back() += 1.0;
    }
    const double perUnit = 1.0 / (static_cast<double>(m_values.size()) * width);
    QList<QPointF> outline;
    outline.reserve(2 * kBins + 2);
    outline.append({low, 0.0});
    double tallest = 0.0;
    for (int bin = 0; bin < kBins; ++bin) {
        const double height = counts[static_cast<std::size_t>(bin)] * perUnit;
        outline.append({low + bin * width, height});
        outline.append({low + (bin + 1) * width, height});
        tallest = std::max(tallest, height);
    }
    outline.append({high, 0.0});
    m_series->replace(outline);
    if (!(tallest > 0.0))
        return;
    // The bars fill the plot's height; a rug of samples at 0 sits just above its bottom edge.
    m_axisY->setRange(-0.04 * tallest, 1.08 * tallest);
    // Ticks at round multiples from 0 (1, 2 or 5 times a power of ten), whatever the range's ends.
    const double rough = 1.08 * tallest / 4.0, power = std::pow(10.0, std::floor(std::log10(rough)));
    const double step = rough <= power ? power : rough <= 2 * power ? 2 * power : rough <= 5 * power ? 5 * power : 10 * power;
    m_axisY->setTickType(QValueAxis::TicksDynamic);
    m_axisY->setTickAnchor(0.0);
    m_axisY->setTickInterval(step);
}

} // namespace ui
