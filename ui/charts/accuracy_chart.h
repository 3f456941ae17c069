#pragma once
// The logistic-regression figures of Seita et al. Sec. 6.2, Figure 3: test accuracy and mean
// test log-likelihood of each sample θ_t against the cumulative number of data points the
// tests have read, one line per channel, in two stacked charts with a logarithmic x axis.
// The points are computed on the chains' threads (see SnapshotBuilder) and arrive in
// snapshots; lines are redrawn in batches, and not while the tab is hidden. For other models
// the tab shows a note instead.
#include <vector>

#include <QColor>
#include <QList>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include "ui/charts/deferred_redraw.h"
#include "ui/run/sampler_worker.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QStackedWidget;
class QValueAxis;
QT_END_NAMESPACE

namespace ui {

class ThemedChartView;

class AccuracyChart : public QWidget {
    Q_OBJECT
public:
    static constexpr int kFlushIntervalMs = 100;

    explicit AccuracyChart(QWidget *parent = nullptr);

    /// Starts over with one line per channel; `active` is false for models without a test
    /// set, and the tab then shows a note.
    void reset(const QStringList &names, const QList<QColor> &colours, bool active);
    /// Adds evaluated points of `channel` (in iteration order).
    void appendPoints(int channel, const QVector<ClassifierPoint> &points);
    /// Redraws now, e.g. before an export.
    void flush();

    bool isActive() const { return m_active; }
    int channelCount() const { return static_cast<int>(m_lines.size()); }
    /// Points received for the channel so far.
    qsizetype pointCount(int channel) const;
    /// All points received for the channel.
    QVector<ClassifierPoint> points(int channel) const;
    ThemedChartView *accuracyView() const { return m_views[0]; }
    ThemedChartView *logLikelihoodView() const { return m_views[1]; }

private:
    struct Line {
        QVector<ClassifierPoint> points;
        QLineSeries *series[2] = {nullptr, nullptr};
        bool dirty = false;
    };

    void removeLines();

    QStackedWidget *m_stack = nullptr;
    QLabel *m_note = nullptr;
    ThemedChartView *m_views[2] = {nullptr, nullptr};
    QLogValueAxis *m_axisX[2] = {nullptr, nullptr};
    QValueAxis *m_axisY[2] = {nullptr, nullptr};
    std::vector<Line> m_lines;
    bool m_active = false;
    DeferredRedraw m_redraw{this, kFlushIntervalMs, [this] { flush(); }};
};

} // namespace ui
