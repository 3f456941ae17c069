#include "ui/charts/batch_size_histogram.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include <QAreaSeries>
#include <QChart>
#include <QFontMetrics>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>

#include "ui/charts/pinned_samples.h"

namespace ui {
namespace {

// The y axis starts below one iteration, and empty bins drop to exactly that floor: the
// outline then runs along the plot's bottom edge and never outside the plot, which matters
// for SVG exports (the SVG writer does not clip to the plot area).
constexpr double kAxisFloor = 0.7;
constexpr double kFloorCount = kAxisFloor;

// The smallest power of ten ≥ value (a power of ten maps to itself despite rounding).
double decadeAbove(double value)
{
    return std::pow(10.0, std::ceil(std::log10(std::max(value, 1.0)) - 1e-9));
}

// The largest power of ten ≤ value.
double decadeBelow(double value)
{
    return std::pow(10.0, std::floor(std::log10(std::max(value, 1e-300)) + 1e-9));
}

// Iterations per bin [e_k, e_{k+1}) of `edges`, times `scale`.
std::vector<double> binnedCounts(const std::map<qint64, qint64> &counts, const std::vector<double> &edges, double scale)
{
    const std::size_t bins = edges.size() - 1;
    std::vector<double> binned(bins, 0.0);
    for (const auto &[size, count] : counts) {
        // The bin whose upper edge is the first one above the size.
        const auto upper = std::upper_bound(edges.begin(), edges.end(), static_cast<double>(size));
        const auto bin = static_cast<std::size_t>(
            std::clamp<std::ptrdiff_t>(upper - edges.begin() - 1, 0, static_cast<std::ptrdiff_t>(bins) - 1));
        binned[bin] += static_cast<double>(count) * scale;
    }
    return binned;
}

// A step outline over the non-empty bins (first to last): up and down at every edge, along the
// top of every bin, on the floor where a bin is empty. `highest` grows to the tallest bin.
QList<QPointF> stepOutline(const std::vector<double> &edges, const std::vector<double> &binned, double &highest)
{
    std::size_t firstBin = 0, lastBin = binned.size();
    while (firstBin < lastBin && binned[firstBin] <= 0.0)
        ++firstBin;
    while (lastBin > firstBin && binned[lastBin - 1] <= 0.0)
        --lastBin;
    QList<QPointF> outline;
    if (firstBin == lastBin)
        return outline;
    outline.reserve(static_cast<qsizetype>(2 * (lastBin - firstBin) + 2));
    outline.append(QPointF(edges[firstBin], kFloorCount));
    for (std::size_t b = firstBin; b < lastBin; ++b) {
        const double height = binned[b] > 0.0 ? std::max(binned[b], kFloorCount) : kFloorCount;
        outline.append(QPointF(edges[b], height));
        outline.append(QPointF(edges[b + 1], height));
        highest = std::max(highest, binned[b]);
    }
    outline.append(QPointF(edges[lastBin], kFloorCount));
    return outline;
}

} // namespace

std::vector<double> logBinEdges(const std::vector<qint64> &distinctSizes, int perDecade)
{
    std::vector<double> edges;
    if (distinctSizes.empty())
        return edges;
    const double ratio = std::pow(10.0, 1.0 / std::max(perDecade, 1));
    const double lo = distinctSizes.front(), hi = distinctSizes.back();
    if (distinctSizes.size() == 1) {
        // One size (a full-data test): one bin a tenth of a decade wide, centred on it.
        const double half = std::sqrt(ratio);
        return {lo / half, lo * half};
    }
    double gap = std::numeric_limits<double>::infinity();
    for (std::size_t k = 1; k < distinctSizes.size(); ++k)
        gap = std::min(gap, static_cast<double>(distinctSizes[k] - distinctSizes[k - 1]));
    // Bins start at the smallest size and their edges sit on the lattice lo + k·gap that
    // fixed-step batch growth produces, so every bin holds a whole number of possible sizes
    // and that number never shrinks from one bin to the next: no comb of alternating counts.
    double edge = lo;
    edges.push_back(edge);
    while (edge <= hi) {
        const double wanted = std::max(edge * ratio, edge + gap);
        edge = lo + std::ceil((wanted - lo) / gap - 1e-9) * gap;
        edges.push_back(edge);
    }
    return edges;
}

BatchSizeHistogram::BatchSizeHistogram(QWidget *parent) : ThemedChartView(new QChart, parent)
{
    chart()->setTitle(tr("Minibatch sizes"));
    chart()->legend()->setAlignment(Qt::AlignBottom);
    m_axisX = new QLogValueAxis;
    m_axisX->setBase(10.0);
    m_axisX->setLabelFormat(QStringLiteral("%.0f"));
    m_axisX->setMinorTickCount(8);
    m_axisX->setTitleText(tr("minibatch size b (data points read by one test, log scale)"));
    m_axisY = new QLogValueAxis;
    m_axisY->setBase(10.0);
    m_axisY->setLabelFormat(QStringLiteral("%.0f"));
    m_axisY->setMinorTickCount(8);
    m_axisY->setTitleText(tr("iterations per bin (log scale)"));
    chart()->addAxis(m_axisX, Qt::AlignBottom);
    chart()->addAxis(m_axisY, Qt::AlignLeft);
    m_axisX->setRange(10.0, 1e6);
    m_axisY->setRange(kAxisFloor, 1e3);
    setMinimumSize(280, 180);
    restyle();

    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(kFlushIntervalMs);
    connect(&m_flushTimer, &QTimer::timeout, this, &BatchSizeHistogram::flush);
    connect(chart(), &QChart::plotAreaChanged, this, &BatchSizeHistogram::placeLabels);
}

void BatchSizeHistogram::removeSeries()
{
    for (Series &s : m_series) {
        chart()->removeSeries(s.area);
        chart()->removeSeries(s.meanLine);
        delete s.area; // and with it upper and floorLine, its children
        delete s.meanLine;
        delete s.label;
    }
    m_series.clear();
}

void BatchSizeHistogram::reset(const QStringList &names, qint64 dataSize)
{
    m_flushTimer.stop();
    removeSeries();
    m_edges.clear();
    m_dataSize = dataSize;
    m_window = 0;
    setCompact(m_compact);
    for (int k = 0; k < names.size(); ++k) {
        Series s;
        s.name = names[k];
        const QColor colour = seriesColour(k);
        s.upper = new QLineSeries;
        s.floorLine = new QLineSeries;
        s.area = new QAreaSeries(s.upper, s.floorLine);
        s.area->setName(s.name);
        s.area->setPen(QPen(colour, 1.6));
        s.area->setBrush(withAlpha(colour, 70));
        chart()->addSeries(s.area);
        // QAreaSeries leaves its boundary lines to the caller (and addSeries moved the area
        // itself under the chart): make them the area's children so they go with it.
        s.upper->setParent(s.area);
        s.floorLine->setParent(s.area);
        s.area->attachAxis(m_axisX);
        s.area->attachAxis(m_axisY);
        s.meanLine = new QLineSeries;
        QPen dashed(colour, 1.6, Qt::DashLine);
        s.meanLine->setPen(dashed);
        chart()->addSeries(s.meanLine);
        s.meanLine->attachAxis(m_axisX);
        s.meanLine->attachAxis(m_axisY);
        for (QLegendMarker *marker : chart()->legend()->markers(s.meanLine))
            marker->setVisible(false);
        s.label = new QGraphicsSimpleTextItem(chart());
        s.label->setBrush(colour);
        s.label->setZValue(10.0);
        s.label->hide();
        m_series.push_back(std::move(s));
    }
    m_axisX->setRange(10.0, std::max<double>(decadeAbove(static_cast<double>(dataSize)), 100.0));
    m_axisY->setRange(kAxisFloor, 1e3);
    restyle();
}

void BatchSizeHistogram::setDataSize(qint64 dataSize)
{
    if (dataSize == m_dataSize)
        return;
    m_dataSize = dataSize;
    setCompact(m_compact); // the title names N
    if (m_edges.empty())
        m_axisX->setRange(10.0, std::max<double>(decadeAbove(static_cast<double>(dataSize)), 100.0));
    if (!m_flushTimer.isActive())
        m_flushTimer.start();
}

void BatchSizeHistogram::setCompact(bool compact)
{
    m_compact = compact;
    m_axisX->setTitleText(compact ? tr("minibatch size b") : tr("minibatch size b (data points read by one test, log scale)"));
    // "1e+06" is narrower than "1000000" in a small cell, and a label every second decade
    // leaves room for them at 1024 pixels (every decade was elided to "1e…").
    m_axisX->setLabelFormat(compact ? QStringLiteral("%g") : QStringLiteral("%.0f"));
    m_axisX->setBase(compact ? 100.0 : 10.0);
    m_axisY->setTitleText(compact ? tr("iterations") : tr("iterations per bin (log scale)"));
    chart()->setTitle(compact ? tr("Minibatch sizes (log–log)")
                              : tr("Minibatch sizes per test, log–log (N = %L1)").arg(m_dataSize));
}

void BatchSizeHistogram::setExportLayout(bool exporting)
{
    // An exported chart stands alone: full titles and legend entries with the means.
    const bool compact = m_compact;
    setCompact(!exporting && compact);
    m_compact = compact;
    flush();
}

void BatchSizeHistogram::appendBatchSizes(int series, const QVector<qint64> &sizes)
{
    if (series < 0 || series >= seriesCount() || sizes.isEmpty())
        return;
    Series &s = m_series[static_cast<std::size_t>(series)];
    for (const qint64 size : sizes) {
        ++s.counts[size];
        s.sum += size;
        if (m_window > 0)
            s.recent.push_back(size);
    }
    s.total += sizes.size();
    while (m_window > 0 && static_cast<qint64>(s.recent.size()) > m_window) {
        const qint64 old = s.recent.front();
        s.recent.pop_front();
        if (const auto entry = s.counts.find(old); entry != s.counts.end() && --entry->second == 0)
            s.counts.erase(entry);
        s.sum -= old;
        --s.total;
    }
    if (!m_flushTimer.isActive())
        m_flushTimer.start();
}

void BatchSizeHistogram::flush()
{
    m_flushTimer.stop();
    std::set<qint64> distinct;
    for (const Series &s : m_series)
        for (const auto &entry : s.counts)
            distinct.insert(entry.first);
    for (const SizeCounts &pinned : m_pinned)
        for (const auto &entry : pinned)
            distinct.insert(entry.first);
    m_edges = logBinEdges(std::vector<qint64>(distinct.begin(), distinct.end()));
    if (m_edges.empty())
        return;
    double highest = 1.0;
    for (Series &s : m_series) {
        const QList<QPointF> outline = stepOutline(m_edges, binnedCounts(s.counts, m_edges, 1.0), highest);
        s.upper->replace(outline);
        s.floorLine->replace(outline.isEmpty() ? QList<QPointF>{}
                                               : QList<QPointF>{outline.front(), outline.back()});
    }
    for (std::size_t k = 0; k < m_pinned.size(); ++k) {
        qint64 pinnedTotal = 0;
        for (const auto &entry : m_pinned[k])
            pinnedTotal += entry.second;
        const qint64 shownTotal = k < m_series.size() ? m_series[k].total : 0;
        const double scale = shownTotal > 0 && pinnedTotal > 0 ? static_cast<double>(shownTotal) / pinnedTotal : 1.0;
        m_pinnedLines[k]->replace(stepOutline(m_edges, binnedCounts(m_pinned[k], m_edges, scale), highest));
    }
    const double yMax = decadeAbove(highest * 1.5);
    m_axisY->setRange(kAxisFloor, yMax);
    // Up to N (the most a test can read) or the last bin's edge, without a mostly empty
    // extra decade when the last bin just passes a power of ten.
    m_axisX->setRange(std::min(10.0, decadeBelow(m_edges.front())),
                      std::max(m_edges.back(), decadeAbove(static_cast<double>(m_dataSize))));
    const bool shortLegend = m_compact || !fullLegendFits();
    for (Series &s : m_series) {
        const double m = mean(static_cast<int>(&s - m_series.data()));
        if (std::isnan(m)) {
            s.meanLine->clear();
            s.label->hide();
            s.area->setName(s.name);
            continue;
        }
        s.meanLine->replace(QList<QPointF>{{m, kAxisFloor}, {m, yMax}});
        s.label->setText(m_compact && m >= 10'000 ? tr("mean %L1 k").arg(m / 1000.0, 0, 'f', 1)
                                                  : tr("mean %L1").arg(m, 0, 'f', m < 1000 ? 1 : 0));
        s.label->show();
        // Compact or narrow charts keep the legend short (a narrow legend would cut every entry
        // mid-word); the mean is labelled on the chart anyway.
        s.area->setName(shortLegend ? s.name : tr("%1 (mean %L2)").arg(s.name).arg(m, 0, 'f', m < 1000 ? 1 : 0));
    }
    placeLabels();
    emit redrawn();
}

bool BatchSizeHistogram::fullLegendFits() const
{
    // Each entry is its text, a marker and spacing; "(mean 17,217.0)" is the widest a mean gets
    // below 10⁶ with one decimal.
    const QFontMetrics metrics(chart()->legend()->font());
    const int perEntry = metrics.horizontalAdvance(QStringLiteral(" (mean 17,217.0)")) + 3 * metrics.height();
    int needed = 0;
    for (const Series &s : m_series)
        needed += metrics.horizontalAdvance(s.name) + perEntry;
    return needed <= width() - 2 * metrics.height();
}

void BatchSizeHistogram::resizeEvent(QResizeEvent *event)
{
    ThemedChartView::resizeEvent(event);
    // The legend's entries follow the width (fullLegendFits); redraw at the flush's pace.
    if (!m_series.empty() && !m_flushTimer.isActive())
        m_flushTimer.start();
}

void BatchSizeHistogram::placeLabels()
{
    if (m_series.empty())
        return;
    const QRectF plot = chart()->plotArea();
    // The labels' own height, not the view's font: the chart draws them in its larger font, so
    // rows a view-font line apart overlapped.
    double lineHeight = QFontMetrics(font()).height();
    for (const Series &s : m_series)
        lineHeight = std::max(lineHeight, s.label->boundingRect().height() + 2.0);
    for (std::size_t k = 0; k < m_series.size(); ++k) {
        Series &s = m_series[k];
        if (!s.label->isVisible())
            continue;
        const double m = mean(static_cast<int>(k));
        const QPointF top = chart()->mapToPosition(QPointF(m, m_axisY->max()), s.meanLine);
        const QRectF box = s.label->boundingRect();
        // Right of the line, stacked so that the labels of nearby means do not overlap;
        // flipped to the left near the right edge.
        double x = top.x() + 4.0;
        if (x + box.width() > plot.right())
            x = top.x() - 4.0 - box.width();
        s.label->setPos(x, plot.top() + 4.0 + static_cast<double>(k) * lineHeight);
    }
}

std::vector<BatchSizeHistogram::SizeCounts> BatchSizeHistogram::pinnableCounts() const
{
    std::vector<SizeCounts> counts;
    for (const Series &s : m_series)
        counts.push_back(s.counts);
    return counts;
}

void BatchSizeHistogram::setPinnedCounts(std::vector<SizeCounts> pinned)
{
    for (QLineSeries *line : m_pinnedLines) {
        chart()->removeSeries(line);
        delete line;
    }
    m_pinnedLines.clear();
    m_pinned = std::move(pinned);
    for (std::size_t k = 0; k < m_pinned.size(); ++k) {
        auto *line = new QLineSeries;
        line->setName(tr("pinned run"));
        line->setPen(QPen(pinnedColour(200), 1.4));
        chart()->addSeries(line);
        line->attachAxis(m_axisX);
        line->attachAxis(m_axisY);
        // One legend entry names the pin, however many methods it has.
        for (QLegendMarker *marker : chart()->legend()->markers(line))
            marker->setVisible(k == 0);
        m_pinnedLines.push_back(line);
    }
    restyle();
    flush();
}

qint64 BatchSizeHistogram::count(int series) const
{
    return series >= 0 && series < seriesCount() ? m_series[static_cast<std::size_t>(series)].total : 0;
}

double BatchSizeHistogram::mean(int series) const
{
    if (series < 0 || series >= seriesCount() || m_series[static_cast<std::size_t>(series)].total == 0)
        return std::nan("");
    const Series &s = m_series[static_cast<std::size_t>(series)];
    return s.sum / static_cast<double>(s.total);
}

QString BatchSizeHistogram::meanLabel(int series) const
{
    if (series < 0 || series >= seriesCount())
        return {};
    const Series &s = m_series[static_cast<std::size_t>(series)];
    return s.label->isVisible() ? s.label->text() : QString();
}

} // namespace ui
