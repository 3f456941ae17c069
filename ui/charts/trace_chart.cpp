#include "ui/charts/trace_chart.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QSplitter>
#include <QValueAxis>
#include <QVBoxLayout>

#include "ui/charts/chart_style.h"
#include "ui/charts/pinned_samples.h"

namespace ui {
namespace {

const char *const kComponentNames[TraceChart::kComponents] = {"θ₁", "θ₂"};

} // namespace

TraceChart::TraceChart(QWidget *parent) : QWidget(parent)
{
    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->setChildrenCollapsible(false);
    for (int c = 0; c < kComponents; ++c) {
        auto *chart = new QChart;
        const QString name = QString::fromUtf8(kComponentNames[c]);
        chart->setTitle(tr("Trace of %1").arg(name));
        chart->legend()->setAlignment(Qt::AlignRight);
        m_axisX[c] = valueAxis(tr("iteration"), QStringLiteral("%.0f"));
        m_axisY[c] = valueAxis(name, QStringLiteral("%.1f"));
        chart->addAxis(m_axisX[c], Qt::AlignBottom);
        chart->addAxis(m_axisY[c], Qt::AlignLeft);
        m_axisX[c]->setRange(0.0, 1.0);
        m_axisY[c]->setRange(-1.0, 1.0);
        m_views[c] = new ThemedChartView(chart);
        m_views[c]->setMinimumSize(420, 180); // on a smaller screen the tab scrolls (ResultsView)
        m_views[c]->restyle();
        splitter->addWidget(m_views[c]);
    }
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

}

void TraceChart::removeLines()
{
    for (Line &line : m_lines)
        for (int c = 0; c < kComponents; ++c) {
            m_views[c]->chart()->removeSeries(line.series[c]);
            delete line.series[c];
        }
    m_lines.clear();
    for (Mark &mark : m_marks)
        for (int c = 0; c < kComponents; ++c) {
            m_views[c]->chart()->removeSeries(mark.series[c]);
            delete mark.series[c];
        }
    m_marks.clear();
}

void TraceChart::addSegmentMark(qint64 iteration, bool burnInEnd)
{
    if (segmentMarkCount() >= kMaxSegmentMarks)
        return;
    Mark mark;
    mark.iteration = static_cast<double>(iteration);
    mark.burnInEnd = burnInEnd;
    const bool firstOfItsKind = std::none_of(m_marks.begin(), m_marks.end(),
                                             [&](const Mark &other) { return other.burnInEnd == burnInEnd; });
    for (int c = 0; c < kComponents; ++c) {
        QChart *chart = m_views[c]->chart();
        auto *series = new QLineSeries;
        // A first run shows the burn-in's end; calling it a settings change would puzzle whoever
        // changed nothing.
        series->setName(burnInEnd ? tr("end of the burn-in") : tr("new segment (settings changed)"));
        QPen pen(palette().color(QPalette::WindowText), 1.0, burnInEnd ? Qt::DotLine : Qt::DashLine);
        series->setPen(pen);
        chart->addSeries(series);
        series->attachAxis(m_axisX[c]);
        series->attachAxis(m_axisY[c]);
        const QList<QLegendMarker *> markers = chart->legend()->markers(series);
        for (QLegendMarker *marker : markers)
            marker->setVisible(firstOfItsKind);
        // The legend is needed now even with a single chain: the dashed line needs a name.
        chart->legend()->setVisible(true);
        mark.series[c] = series;
    }
    m_marks.push_back(mark);
    for (int c = 0; c < kComponents; ++c)
        stretchMarks(c);
}

void TraceChart::stretchMarks(int component)
{
    const double low = m_axisY[component]->min(), high = m_axisY[component]->max();
    for (Mark &mark : m_marks)
        mark.series[component]->replace({QPointF(mark.iteration, low), QPointF(mark.iteration, high)});
}

void TraceChart::reset(const QStringList &names, const QList<QColor> &colours, qint64 iterations)
{
    m_redraw.cancel();
    removeLines();
    m_hasRange = false;
    m_window = 0;
    m_latest = 0.0;
    m_lines.resize(static_cast<std::size_t>(names.size()));
    for (int k = 0; k < names.size(); ++k) {
        Line &line = m_lines[static_cast<std::size_t>(k)];
        for (int c = 0; c < kComponents; ++c)
            line.series[c] = addLine(m_views[c]->chart(), names[k], QPen(colours.value(k, seriesColour(k)), 1.0),
                                     m_axisX[c], m_axisY[c]);
    }
    for (int c = 0; c < kComponents; ++c) {
        m_axisX[c]->setRange(0.0, static_cast<double>(std::max<qint64>(iterations, 1)));
        m_axisY[c]->setRange(-1.0, 1.0);
        // A single line needs no legend; several, or one and a pin, are told apart by it.
        m_views[c]->chart()->legend()->setVisible(names.size() > 1 || !m_pinned.empty());
        m_views[c]->restyle();
    }
    m_pinnedPlacedAt = -1.0;
    placePinnedLines();
}

void TraceChart::setComponentNames(const QStringList &names)
{
    for (int c = 0; c < kComponents && c < names.size(); ++c) {
        m_views[c]->chart()->setTitle(tr("Trace of %1").arg(names[c]));
        m_axisY[c]->setTitleText(names[c]);
    }
}

void TraceChart::setDimension(int dimension)
{
    m_dimension = dimension;
    m_views[1]->setVisible(dimension > 1);
}

void TraceChart::appendSamples(int channel, const QVector<QPointF> &samples, qint64 firstIteration, int stride)
{
    if (channel < 0 || channel >= channelCount() || samples.isEmpty())
        return;
    Line &line = m_lines[static_cast<std::size_t>(channel)];
    // The first plotted iteration at or after firstIteration (the worker plots t % stride == 0).
    const qint64 start = (firstIteration + stride - 1) / stride * stride;
    for (qsizetype j = 0; j < samples.size(); ++j) {
        if (line.received++ % line.keepEvery != 0)
            continue;
        const double t = static_cast<double>(start + j * stride);
        const double values[kComponents] = {samples[j].x(), samples[j].y()};
        for (int c = 0; c < kComponents; ++c) {
            line.points[c].append(QPointF(t, values[c]));
            if (!m_hasRange) {
                m_low[c] = m_high[c] = values[c];
            } else {
                m_low[c] = std::min(m_low[c], values[c]);
                m_high[c] = std::max(m_high[c], values[c]);
            }
        }
        m_hasRange = true;
        if (line.points[0].size() > kMaxPointsPerSeries) {
            for (auto &points : line.points) {
                QList<QPointF> kept;
                kept.reserve(points.size() / 2 + 1);
                for (qsizetype k = 0; k < points.size(); k += 2)
                    kept.append(points[k]);
                points.swap(kept);
            }
            // Keep taking exactly the samples the halving kept, so spacing stays even.
            line.keepEvery *= 2;
        }
    }
    line.dirty = true;
    if (!samples.isEmpty())
        m_latest = std::max(m_latest, static_cast<double>(start + (samples.size() - 1) * stride));
    if (m_window > 0)
        dropBeforeWindow();
    m_redraw.schedule();
}

void TraceChart::dropBeforeWindow()
{
    const double from = m_latest - static_cast<double>(m_window);
    bool any = false;
    constexpr double inf = std::numeric_limits<double>::infinity();
    double low[kComponents] = {inf, inf}, high[kComponents] = {-inf, -inf};
    for (Line &line : m_lines) {
        const auto kept = std::find_if(line.points[0].begin(), line.points[0].end(),
                                       [from](const QPointF &p) { return p.x() >= from; });
        const qsizetype dropped = kept - line.points[0].begin();
        if (dropped > 0) {
            for (auto &points : line.points)
                points.remove(0, dropped);
            line.dirty = true;
        }
        for (int c = 0; c < kComponents; ++c)
            for (const QPointF &p : std::as_const(line.points[c])) {
                low[c] = std::min(low[c], p.y());
                high[c] = std::max(high[c], p.y());
            }
        any = any || !line.points[0].isEmpty();
    }
    // The y range follows what is left.
    if (any)
        for (int c = 0; c < kComponents; ++c) {
            m_low[c] = low[c];
            m_high[c] = high[c];
        }
    m_hasRange = any;
    // Marks that scrolled out go, so new segments can still be marked.
    for (auto mark = m_marks.begin(); mark != m_marks.end();) {
        if (mark->iteration >= from) {
            ++mark;
            continue;
        }
        for (int c = 0; c < kComponents; ++c) {
            m_views[c]->chart()->removeSeries(mark->series[c]);
            delete mark->series[c];
        }
        mark = m_marks.erase(mark);
    }
    for (int c = 0; c < kComponents; ++c)
        m_axisX[c]->setRange(std::max(0.0, from), std::max(static_cast<double>(m_window), m_latest));
}

void TraceChart::flush()
{
    m_redraw.cancel();
    for (Line &line : m_lines) {
        if (!line.dirty)
            continue;
        for (int c = 0; c < kComponents; ++c)
            line.series[c]->replace(line.points[c]);
        line.dirty = false;
    }
    placePinnedLines();
    if (!m_hasRange && m_pinned.empty())
        return;
    for (int c = 0; c < kComponents; ++c) {
        // The pinned lines count towards the y range, so they stay in view.
        constexpr double inf = std::numeric_limits<double>::infinity();
        double low = m_hasRange ? m_low[c] : inf, high = m_hasRange ? m_high[c] : -inf;
        for (const PinnedLine &line : m_pinned)
            for (const QPointF &p : line[c]) {
                low = std::min(low, p.y());
                high = std::max(high, p.y());
            }
        if (!(low <= high))
            continue;
        const double margin = std::max(0.05 * (high - low), 1e-3);
        m_axisY[c]->setRange(low - margin, high + margin);
        m_axisY[c]->applyNiceNumbers();
        stretchMarks(c);
    }
}

std::vector<TraceChart::PinnedLine> TraceChart::pinnableLines() const
{
    const double from = m_axisX[0]->min();
    std::vector<PinnedLine> lines;
    for (const Line &line : m_lines) {
        PinnedLine pinned;
        for (int c = 0; c < kComponents; ++c) {
            pinned[c].reserve(line.points[c].size());
            for (const QPointF &p : line.points[c])
                pinned[c].append(QPointF(p.x() - from, p.y()));
        }
        lines.push_back(std::move(pinned));
    }
    return lines;
}

void TraceChart::setPinnedLines(std::vector<PinnedLine> lines)
{
    for (auto &series : m_pinnedSeries)
        for (int c = 0; c < kComponents; ++c) {
            m_views[c]->chart()->removeSeries(series[c]);
            delete series[c];
        }
    m_pinnedSeries.clear();
    m_pinned = std::move(lines);
    for (std::size_t k = 0; k < m_pinned.size(); ++k) {
        std::array<QLineSeries *, kComponents> series{};
        for (int c = 0; c < kComponents; ++c) {
            QChart *chart = m_views[c]->chart();
            series[c] = new QLineSeries;
            series[c]->setName(tr("pinned run"));
            series[c]->setPen(QPen(pinnedColour(170), 1.0));
            chart->addSeries(series[c]);
            series[c]->attachAxis(m_axisX[c]);
            series[c]->attachAxis(m_axisY[c]);
            for (QLegendMarker *marker : chart->legend()->markers(series[c]))
                marker->setVisible(k == 0);
        }
        m_pinnedSeries.push_back(series);
    }
    for (int c = 0; c < kComponents; ++c)
        m_views[c]->chart()->legend()->setVisible(m_lines.size() > 1 || !m_marks.empty() || !m_pinned.empty());
    m_pinnedPlacedAt = -1.0;
    flush();
}

void TraceChart::placePinnedLines()
{
    const double from = m_axisX[0]->min();
    if (m_pinned.empty() || from == m_pinnedPlacedAt)
        return;
    for (std::size_t k = 0; k < m_pinned.size(); ++k)
        for (int c = 0; c < kComponents; ++c) {
            QList<QPointF> shifted;
            shifted.reserve(m_pinned[k][c].size());
            for (const QPointF &p : m_pinned[k][c])
                shifted.append(QPointF(p.x() + from, p.y()));
            m_pinnedSeries[k][c]->replace(shifted);
        }
    m_pinnedPlacedAt = from;
}

qsizetype TraceChart::pointCount(int channel) const
{
    return channel >= 0 && channel < channelCount() ? m_lines[static_cast<std::size_t>(channel)].points[0].size() : 0;
}

} // namespace ui
