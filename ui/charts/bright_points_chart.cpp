#include "ui/charts/bright_points_chart.h"

#include <algorithm>

#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

namespace ui {

BrightPointsChart::BrightPointsChart(QWidget *parent) : ThemedChartView(new QChart, parent)
{
    chart()->setTitle(tr("FlyMC: bright points (solid) and points read per iteration (dashed)"));
    chart()->legend()->setAlignment(Qt::AlignRight);
    m_axisX = valueAxis(tr("iteration"), QStringLiteral("%.0f"), 0.0, 1.0, 5);
    m_axisY = valueAxis(tr("points"), QStringLiteral("%.0f"), 0.0, 1.0, 5);
    chart()->addAxis(m_axisX, Qt::AlignBottom);
    chart()->addAxis(m_axisY, Qt::AlignLeft);
    setToolTip(tr("Firefly Monte Carlo (Maclaurin & Adams 2014, Sec. 3): the θ-move reads the bright points at "
                  "θ′; the z-update proposes each dark point bright at rate q_db, reading its likelihood, "
                  "and darkens bright ones against their Jaakkola–Jordan bounds. With the bounds tight at the "
                  "posterior mode few stay bright, and the reads settle near q_db·N per iteration."));
    setMinimumHeight(200);
    restyle();
    setVisible(false);
}

void BrightPointsChart::removeLines()
{
    for (Line &line : m_lines)
        for (QLineSeries *series : {line.series, line.readSeries})
            if (series) {
                chart()->removeSeries(series);
                delete series;
            }
    m_lines.clear();
}

void BrightPointsChart::reset(const QStringList &names, const QList<QColor> &colours, const std::vector<bool> &flymc,
                              qint64 iterations)
{
    m_redraw.cancel();
    removeLines();
    m_iterations = iterations;
    m_lines.resize(static_cast<std::size_t>(names.size()));
    m_active = false;
    for (int k = 0; k < names.size(); ++k) {
        if (k >= static_cast<int>(flymc.size()) || !flymc[static_cast<std::size_t>(k)])
            continue;
        Line &line = m_lines[static_cast<std::size_t>(k)];
        const QColor colour = colours.value(k, seriesColour(k));
        line.series = addLine(chart(), tr("%1: bright").arg(names[k]), QPen(colour, 1.6), m_axisX, m_axisY);
        line.readSeries = addLine(chart(), tr("%1: read").arg(names[k]), QPen(colour, 1.2, Qt::DashLine), m_axisX,
                                  m_axisY);
        m_active = true;
    }
    m_axisX->setRange(0.0, static_cast<double>(std::max<qint64>(iterations, 1)));
    m_axisY->setRange(0.0, 1.0);
    restyle();
    setVisible(m_active);
}

void BrightPointsChart::appendCounts(int channel, qint64 firstIteration, const QList<qint64> &brightPoints,
                                     const QList<qint64> &pointsRead)
{
    if (channel < 0 || channel >= static_cast<int>(m_lines.size()) || brightPoints.isEmpty()
        || brightPoints.size() != pointsRead.size())
        return;
    Line &line = m_lines[static_cast<std::size_t>(channel)];
    if (!line.series)
        return;
    for (qsizetype k = 0; k < brightPoints.size(); ++k) {
        line.brightSum += static_cast<double>(brightPoints[k]);
        line.readSum += static_cast<double>(pointsRead[k]);
        if (++line.inBin < line.bin)
            continue;
        // x: the iterations done after the bin's last one.
        const auto x = static_cast<double>(firstIteration + k + 1);
        const auto n = static_cast<double>(line.inBin);
        line.points.append(QPointF(x, line.brightSum / n));
        line.read.append(QPointF(x, line.readSum / n));
        line.inBin = 0;
        line.brightSum = line.readSum = 0.0;
        if (line.points.size() >= kMaxPoints)
            halve(line);
    }
    line.dirty = true;
    m_redraw.schedule();
}

void BrightPointsChart::halve(Line &line)
{
    for (QList<QPointF> *points : {&line.points, &line.read}) {
        QList<QPointF> merged;
        merged.reserve(points->size() / 2);
        for (qsizetype i = 0; i + 1 < points->size(); i += 2)
            merged.append(QPointF((*points)[i + 1].x(), ((*points)[i].y() + (*points)[i + 1].y()) / 2.0));
        *points = std::move(merged); // kMaxPoints is even: no point is left over
    }
    line.bin *= 2;
}

qsizetype BrightPointsChart::pointCount(int channel) const
{
    if (channel < 0 || channel >= static_cast<int>(m_lines.size()))
        return 0;
    return m_lines[static_cast<std::size_t>(channel)].points.size();
}

QList<QPointF> BrightPointsChart::points(int channel) const
{
    return pointCount(channel) > 0 ? m_lines[static_cast<std::size_t>(channel)].points : QList<QPointF>{};
}

QList<QPointF> BrightPointsChart::readPoints(int channel) const
{
    return pointCount(channel) > 0 ? m_lines[static_cast<std::size_t>(channel)].read : QList<QPointF>{};
}

qint64 BrightPointsChart::binSize(int channel) const
{
    if (channel < 0 || channel >= static_cast<int>(m_lines.size()))
        return 1;
    return m_lines[static_cast<std::size_t>(channel)].bin;
}

void BrightPointsChart::flush()
{
    m_redraw.cancel();
    double latest = 0.0, highest = 0.0;
    for (Line &line : m_lines) {
        for (const QList<QPointF> *points : {&line.points, &line.read})
            for (const QPointF &point : *points) {
                latest = std::max(latest, point.x());
                highest = std::max(highest, point.y());
            }
        if (line.series && line.dirty) {
            line.series->replace(line.points);
            line.readSeries->replace(line.read);
            line.dirty = false;
        }
    }
    m_axisX->setRange(0.0, std::max({latest, static_cast<double>(m_iterations), 1.0}));
    m_axisY->setRange(0.0, std::max(1.0, highest * 1.1));
}

} // namespace ui
