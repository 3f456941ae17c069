#pragma once
// FlyMC's bright points against the iteration (Maclaurin & Adams 2014, Sec. 3), with the points
// each iteration reads, two lines per FlyMC chain. The θ-move reads the bright points at θ′
// (their likelihoods at θ are kept from the iteration before); the z-update reads a likelihood for every dark point it proposes bright (q_db·N of them
// on average) and for none of the bright ones. With bounds tight at the posterior mode few
// points stay bright, so the reads settle near q_db·N: the picture shows where an exact
// kernel's data go. Shown under the traces when a run has FlyMC chains. Every iteration counts:
// a point is the mean over a bin of iterations, the bins doubling whenever a line would pass
// kMaxPoints, so a line always covers the whole run evenly.
#include <vector>

#include <QColor>
#include <QLineSeries>
#include <QPointF>
#include <QStringList> // and QList, which QVector names in Qt 6
#include <QValueAxis>

#include "ui/charts/chart_style.h"
#include "ui/charts/deferred_redraw.h"

namespace ui {

class BrightPointsChart : public ThemedChartView {
    Q_OBJECT
public:
    static constexpr int kFlushIntervalMs = 200;
    /// Points a line keeps; beyond, neighbouring points are merged in pairs.
    static constexpr qsizetype kMaxPoints = 2000;

    explicit BrightPointsChart(QWidget *parent = nullptr);

    /// Starts over with one line per channel; `flymc[k]` says whether channel k runs FlyMC
    /// (the others get no line). The x axis spans `iterations` (0: a run until stopped, which
    /// follows the latest). Hidden when no channel does.
    void reset(const QStringList &names, const QList<QColor> &colours, const std::vector<bool> &flymc,
               qint64 iterations);
    /// Iterations firstIteration, firstIteration + 1, … of `channel`: the points bright after
    /// each and the points each read (two lists of the same length).
    void appendCounts(int channel, qint64 firstIteration, const QList<qint64> &brightPoints,
                      const QList<qint64> &pointsRead);
    /// Whether some channel runs FlyMC.
    bool isActive() const { return m_active; }
    /// Points received and kept for `channel` (0 for a channel without a line).
    qsizetype pointCount(int channel) const;
    /// The drawn (last iteration of a bin, mean bright points over it) of `channel`.
    QList<QPointF> points(int channel) const;
    /// The drawn (last iteration of a bin, mean points read per iteration over it) of `channel`.
    QList<QPointF> readPoints(int channel) const;
    /// Iterations per point now (1 until a line has filled up once).
    qint64 binSize(int channel) const;
    /// Redraws now, e.g. before an export.
    void flush();

private:
    struct Line {
        QLineSeries *series = nullptr; // null for a channel that does not run FlyMC
        QLineSeries *readSeries = nullptr;
        QList<QPointF> points;
        QList<QPointF> read;
        qint64 bin = 1;          // iterations per point
        qint64 inBin = 0;        // iterations in the open bin
        double brightSum = 0.0;  // over the open bin
        double readSum = 0.0;
        bool dirty = false;
    };
    /// Merges neighbouring points in pairs and doubles the bin.
    static void halve(Line &line);

    void removeLines();

    QValueAxis *m_axisX = nullptr;
    QValueAxis *m_axisY = nullptr;
    std::vector<Line> m_lines;
    qint64 m_iterations = 0;
    bool m_active = false;
    DeferredRedraw m_redraw{this, kFlushIntervalMs, [this] { flush(); }};
};

} // namespace ui
