#include "ui/charts/sample_path.h"

#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

namespace ui {

SamplePathLayer::SamplePathLayer(QChart *chart, QValueAxis *x, QValueAxis *y) : m_chart(chart), m_x(x), m_y(y) {}

bool SamplePathLayer::append(int chain, const QVector<QPointF> &corners, const QColor &colour)
{
    if (corners.isEmpty())
        return false;
    QVector<QPointF> &kept = m_corners[chain];
    const qsizetype from = !kept.isEmpty() && kept.back() == corners.front() ? 1 : 0;
    kept.append(corners.mid(from));
    if (kept.size() > kCorners)
        kept.remove(0, kept.size() - kCorners);
    const bool added = !m_lines.contains(chain);
    if (added) {
        auto *line = new QLineSeries;
        line->setName(QObject::tr("Zig-Zag path (latest %L1 corners)").arg(kCorners));
        QColor faint = colour;
        faint.setAlpha(150);
        QPen pen(faint);
        pen.setWidthF(1.0);
        line->setPen(pen);
        m_chart->addSeries(line);
        line->attachAxis(m_x);
        line->attachAxis(m_y);
        m_lines.insert(chain, line);
        hideExtraLegendEntries();
    }
    m_lines.value(chain)->replace(QList<QPointF>(kept.begin(), kept.end()));
    return added;
}

void SamplePathLayer::hideExtraLegendEntries()
{
    // One legend entry names the path, however many chains draw one.
    bool first = true;
    for (QLineSeries *line : std::as_const(m_lines)) {
        for (QLegendMarker *marker : m_chart->legend()->markers(line))
            marker->setVisible(first);
        first = false;
    }
}

QVector<QPointF> SamplePathLayer::corners(int chain) const
{
    return m_corners.value(chain);
}

void SamplePathLayer::clear()
{
    for (QLineSeries *line : std::as_const(m_lines)) {
        m_chart->removeSeries(line);
        delete line;
    }
    m_lines.clear();
    m_corners.clear();
}

} // namespace ui
