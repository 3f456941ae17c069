#pragma once
// Trace plots of θ₁ and θ₂ against the iteration, one line per chain, in two stacked charts.
//
// Each line keeps at most kMaxPointsPerSeries points: when a line fills up, every second
// point is dropped and from then on only every second incoming sample is kept, so a line is
// always an evenly thinned view of the whole chain and one replace() costs at most ~5k points.
// Only lines that received samples are replaced at a redraw, and none while the traces tab is
// hidden: they catch up when it is shown (or when flush() is called for an export).
#include <algorithm>
#include <array>
#include <vector>

#include <QColor>
#include <QList>
#include <QPointF>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include "ui/charts/deferred_redraw.h"

QT_BEGIN_NAMESPACE
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace ui {

class ThemedChartView;

class TraceChart : public QWidget {
    Q_OBJECT
public:
    static constexpr qsizetype kMaxPointsPerSeries = 5000;
    static constexpr int kFlushIntervalMs = 100;
    static constexpr int kComponents = 2;

    explicit TraceChart(QWidget *parent = nullptr);

    /// Starts over with one line per channel in each chart; the x axes span `iterations`.
    void reset(const QStringList &names, const QList<QColor> &colours, qint64 iterations);
    /// Shows the θ₂ chart only for models with two or more parameters.
    void setDimension(int dimension);
    int dimension() const { return m_dimension; }
    /// A run until stopped: show only the latest `iterations` iterations, the x axis moving
    /// with them; 0 shows the whole run (the default). Call after reset().
    void setWindow(qint64 iterations) { m_window = std::max<qint64>(iterations, 0); }
    /// Adds samples of `channel`: samples[j] is θ after iteration firstIteration + j·stride.
    void appendSamples(int channel, const QVector<QPointF> &samples, qint64 firstIteration, int stride);
    /// Draws a vertical line at `iteration` in both charts: a chain segment begins there, where
    /// the burn-in ends (`burnInEnd`, dotted: the adapted proposal is frozen there) or because
    /// the temperature or step changed during the run (dashed). Only the first mark of each kind
    /// has a legend entry. At most kMaxSegmentMarks are drawn (the status strip names each change).
    void addSegmentMark(qint64 iteration, bool burnInEnd = false);
    int segmentMarkCount() const { return static_cast<int>(m_marks.size()); }
    static constexpr int kMaxSegmentMarks = 100;
    /// Names the θ components of the two charts (titles and y axes).
    void setComponentNames(const QStringList &names);
    /// Redraws now, e.g. before an export.
    void flush();

    /// One chain's drawn trace in each chart, x counted from the first iteration shown.
    using PinnedLine = std::array<QList<QPointF>, kComponents>;
    /// The drawn lines, to pin them.
    std::vector<PinnedLine> pinnableLines() const;
    /// A pinned run: its lines drawn faintly from the left end of the x axis, so that the
    /// pinned and the current run line up iteration for iteration (a moving window's pin moves
    /// with it). Kept across reset(); an empty list removes the pin.
    void setPinnedLines(std::vector<PinnedLine> lines);
    int pinnedLineCount() const { return static_cast<int>(m_pinned.size()); }

    int channelCount() const { return static_cast<int>(m_lines.size()); }
    /// Points drawn by the channel's line in each chart.
    qsizetype pointCount(int channel) const;
    /// The chart of component 0 (θ₁) or 1 (θ₂).
    ThemedChartView *view(int component) const { return m_views[component]; }

private:
    struct Line {
        QList<QPointF> points[kComponents];
        QLineSeries *series[kComponents] = {nullptr, nullptr};
        qint64 received = 0; // samples offered so far
        int keepEvery = 1;   // of those, every keepEvery-th is kept
        bool dirty = false;
    };

    void removeLines();
    void dropBeforeWindow();
    void stretchMarks(int component);
    void placePinnedLines();

    struct Mark {
        double iteration = 0.0;
        bool burnInEnd = false;
        QLineSeries *series[kComponents] = {nullptr, nullptr};
    };
    std::vector<Mark> m_marks;

    ThemedChartView *m_views[kComponents] = {nullptr, nullptr};
    QValueAxis *m_axisX[kComponents] = {nullptr, nullptr};
    QValueAxis *m_axisY[kComponents] = {nullptr, nullptr};
    double m_low[kComponents] = {0.0, 0.0};
    double m_high[kComponents] = {0.0, 0.0};
    bool m_hasRange = false;
    qint64 m_window = 0;          // > 0: only the latest iterations are shown
    double m_latest = 0.0;        // the latest iteration received
    int m_dimension = kComponents;
    std::vector<Line> m_lines;
    std::vector<PinnedLine> m_pinned;
    std::vector<std::array<QLineSeries *, kComponents>> m_pinnedSeries; // owned by the charts
    double m_pinnedPlacedAt = -1.0; // the x axis' left end the pinned lines were drawn from
    DeferredRedraw m_redraw{this, kFlushIntervalMs, [this] { flush(); }};
};

} // namespace ui
