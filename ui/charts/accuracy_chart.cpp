#include "ui/charts/accuracy_chart.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QChart>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QSplitter>
#include <QStackedWidget>
#include <QValueAxis>
#include <QVBoxLayout>

#include "ui/charts/chart_style.h"

namespace ui {
namespace {

double decadeBelow(double value)
{
    return std::pow(10.0, std::floor(std::log10(std::max(value, 1.0))));
}

double decadeAbove(double value)
{
    return std::pow(10.0, std::ceil(std::log10(std::max(value, 10.0))));
}

} // namespace

AccuracyChart::AccuracyChart(QWidget *parent) : QWidget(parent)
{
    const QString titles[2] = {tr("Test accuracy against data read (Seita et al. Figure 3)"),
                               tr("Mean test log-likelihood against data read")};
    const QString yTitles[2] = {tr("test accuracy"), tr("nats per test point")};
    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->setChildrenCollapsible(false);
    for (int c = 0; c < 2; ++c) {
        auto *chart = new QChart;
        chart->setTitle(titles[c]);
        chart->legend()->setAlignment(Qt::AlignBottom);
        m_axisX[c] = new QLogValueAxis;
        m_axisX[c]->setBase(10.0);
        m_axisX[c]->setTitleText(tr("data points read by the tests, cumulative (log scale)"));
        m_axisX[c]->setLabelFormat(QStringLiteral("%.0f"));
        m_axisX[c]->setMinorTickCount(-1);
        m_axisY[c] = valueAxis(yTitles[c], c == 0 ? QStringLiteral("%.2f") : QStringLiteral("%.3g"));
        chart->addAxis(m_axisX[c], Qt::AlignBottom);
        chart->addAxis(m_axisY[c], Qt::AlignLeft);
        m_axisX[c]->setRange(10.0, 1e4);
        m_axisY[c]->setRange(c == 0 ? 0.0 : -1.0, c == 0 ? 1.0 : 0.0);
        m_views[c] = new ThemedChartView(chart);
        m_views[c]->setMinimumSize(420, 180); // on a smaller screen the tab scrolls (ResultsView)
        m_views[c]->restyle();
        splitter->addWidget(m_views[c]);
    }
    m_views[0]->setToolTip(tr("Fraction of the test rows that θ_t classifies correctly, evaluated every few samples on "
                              "the sampler's thread, against the data points the tests had read by then, minibatches "
                              "and full-data passes included (Seita et al. Sec. 6.2)."));
    m_views[1]->setToolTip(tr("Mean log p(y | x, θ_t) over the test rows; the paper's Figure 3 shows the training "
                              "log-likelihood, which tells the same story without a held-out set."));
    m_note = new QLabel(tr("Test accuracy and log-likelihood are shown for logistic-regression runs only "
                           "(Seita et al. Sec. 6.2, Figure 3). Choose a logistic-regression dataset and press Run."));
    m_note->setWordWrap(true);
    m_note->setAlignment(Qt::AlignCenter);
    m_stack = new QStackedWidget;
    m_stack->addWidget(m_note);
    m_stack->addWidget(splitter);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

}

void AccuracyChart::removeLines()
{
    for (Line &line : m_lines)
        for (int c = 0; c < 2; ++c) {
            m_views[c]->chart()->removeSeries(line.series[c]);
            delete line.series[c];
        }
    m_lines.clear();
}

void AccuracyChart::reset(const QStringList &names, const QList<QColor> &colours, bool active)
{
    m_redraw.cancel();
    removeLines();
    m_active = active;
    m_stack->setCurrentIndex(active ? 1 : 0);
    if (!active)
        return;
    m_lines.resize(static_cast<std::size_t>(names.size()));
    for (int k = 0; k < names.size(); ++k)
        for (int c = 0; c < 2; ++c)
            m_lines[static_cast<std::size_t>(k)].series[c] = addLine(
                m_views[c]->chart(), names[k], QPen(colours.value(k, seriesColour(k)), 1.6), m_axisX[c], m_axisY[c]);
    for (int c = 0; c < 2; ++c) {
        m_axisX[c]->setRange(10.0, 1e4);
        m_axisY[c]->setRange(c == 0 ? 0.0 : -1.0, c == 0 ? 1.0 : 0.0);
        m_views[c]->restyle();
    }
}

void AccuracyChart::appendPoints(int channel, const QVector<ClassifierPoint> &points)
{
    if (!m_active || channel < 0 || channel >= channelCount() || points.isEmpty())
        return;
    Line &line = m_lines[static_cast<std::size_t>(channel)];
    line.points += points;
    line.dirty = true;
    m_redraw.schedule();
}

void AccuracyChart::flush()
{
    m_redraw.cancel();
    double xLow = std::numeric_limits<double>::infinity(), xHigh = 0.0;
    double low[2] = {1.0, std::numeric_limits<double>::infinity()};
    double high[2] = {0.0, -std::numeric_limits<double>::infinity()};
    bool any = false;
    for (Line &line : m_lines) {
        QList<QPointF> xy[2];
        for (const ClassifierPoint &p : std::as_const(line.points)) {
            const double x = std::max<double>(static_cast<double>(p.dataUsed), 1.0);
            const double values[2] = {p.accuracy, p.meanLogLikelihood};
            xLow = std::min(xLow, x);
            xHigh = std::max(xHigh, x);
            for (int c = 0; c < 2; ++c) {
                if (line.dirty)
                    xy[c].append(QPointF(x, values[c]));
                if (std::isfinite(values[c])) {
                    low[c] = std::min(low[c], values[c]);
                    high[c] = std::max(high[c], values[c]);
                }
            }
            any = true;
        }
        if (line.dirty)
            for (int c = 0; c < 2; ++c)
                line.series[c]->replace(xy[c]);
        line.dirty = false;
    }
    if (!any)
        return;
    for (int c = 0; c < 2; ++c)
        m_axisX[c]->setRange(decadeBelow(xLow), decadeAbove(xHigh));
    // Accuracy: from the tenth below the lowest value up to 1, a tick every 0.1 (0.05 when
    // the range is short); log-likelihood: padded, on nice numbers.
    const double floorTenth = std::max(0.0, std::floor((low[0] - 0.02) * 10.0) / 10.0);
    const int tenths = static_cast<int>(std::lround((1.0 - floorTenth) * 10.0));
    m_axisY[0]->setRange(floorTenth, 1.0);
    m_axisY[0]->setTickCount(tenths <= 2 ? 2 * tenths + 1 : tenths + 1);
    const double pad = std::max(0.05 * (high[1] - low[1]), 1e-3);
    m_axisY[1]->setRange(low[1] - pad, high[1] + pad);
    m_axisY[1]->applyNiceNumbers();
}

qsizetype AccuracyChart::pointCount(int channel) const
{
    return channel >= 0 && channel < channelCount() ? m_lines[static_cast<std::size_t>(channel)].points.size() : 0;
}

QVector<ClassifierPoint> AccuracyChart::points(int channel) const
{
    return channel >= 0 && channel < channelCount() ? m_lines[static_cast<std::size_t>(channel)].points
                                                     : QVector<ClassifierPoint>{};
}

} // namespace ui
