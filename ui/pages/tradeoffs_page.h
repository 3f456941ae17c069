#pragma once
// The Trade-offs tab: sweeps one setting of the form over a range (core::runSweep) with the
// form's methods and settings, on a thread of its own, and plots each point as it completes
// (TradeoffsGrid). Clicking a point loads its value into the form. The rows can be saved as
// the CLI's sweep CSV.
// The sweep runs on a thread of a SweepRunner the page owns and joins.
#include <map>
#include <vector>

#include <QString>
#include <QWidget>

#include "core/experiment/sweep/sweep.h"
#include "ui/pages/chart_page.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
class QSpinBox;
QT_END_NAMESPACE

namespace ui {

class ControlPanel;
class SweepAxisRow;
class SweepRunner;
class TradeoffsGrid;

class TradeoffsPage : public QWidget, public ChartPage {
    Q_OBJECT
public:
    explicit TradeoffsPage(QWidget *parent = nullptr);
    /// Stops a running sweep and joins its thread.
    ~TradeoffsPage() override;

    // As a chart page: a sweep's figures are its own runs', so a run leaves them as they are.
    void beginRun(const RunLayout &, const PinnedRun &) override {}
    QList<NamedChart> exportViews() const override;

    /// The form whose settings and methods a sweep starts from, and into which a clicked point
    /// is loaded. Without one the page sweeps the default settings.
    void setForm(ControlPanel *form);

    /// Shows `axis` in the page's controls (setting, from, to, count, log spacing).
    void setAxis(const core::SweepAxis &axis);
    /// The axis the controls describe (not validated).
    core::SweepAxis axis() const;
    void setSamplesPerPoint(qint64 samples);
    void setTrials(int trials);

    /// The request a sweep would run now: the form's request with the page's axis, samples per
    /// point and trials (as chains).
    core::SweepRequest sweepRequest() const;

    /// Why the page's own boxes cannot be swept as shown (a box showing refused text, named by
    /// its label); empty when they can.
    QString inputProblem() const;
    /// Validates and starts a sweep, stopping any running one first. Returns false, with
    /// sweepFailed(message), when a box shows refused text or the request is invalid.
    bool startSweep();
    /// Asks a running sweep to stop; sweepFinished follows with the completed points.
    void stopSweep();
    bool isRunning() const;

    /// The rows received so far (point order), or the sweep's own outcome once it ended.
    const core::SweepOutcome &outcome() const { return m_outcome; }
    bool hasRows() const { return !m_outcome.rows.empty(); }
    TradeoffsGrid *grid() const { return m_grid; }
    QString progressText() const;
    /// What differs between the shown sweep's settings and the form's (dataset, methods, any
    /// setting but the swept one), or empty when nothing does or nothing was swept.
    QString staleNote() const;

    /// Writes the rows with core's sweep CSV writer. Returns false with `error` set on failure.
    bool saveCsv(const QString &path, QString *error) const;

public slots:
    /// Loads `value` of the swept setting (the nearest point of the sweep) into the form.
    void loadValue(double value);

signals:
    /// A point's rows arrived and are plotted.
    void pointArrived(int index, int count);
    /// The sweep ended; `stopped` when a stop cut it short.
    void sweepFinished(bool stopped);
    void sweepFailed(const QString &message);
    void statusMessage(const QString &message);

private:
    void onPointFinished(int index, int count, const std::vector<core::SweepRow> &rows,
                         const std::vector<core::SweepPooled> &pooled);
    void onSweepFinished(const core::SweepOutcome &outcome);
    void onSweepFailed(const QString &error);
    void refreshSettings();
    void refreshMarker();
    /// Marks the charts when the form no longer shows the settings they were swept with.
    void refreshStale();
    void updateButtons();
    void saveCsvFromDialog();

    ControlPanel *m_form = nullptr;
    SweepAxisRow *m_axisRow = nullptr;
    QSpinBox *m_samples = nullptr;
    QSpinBox *m_trials = nullptr;
    QPushButton *m_sweep = nullptr;
    QPushButton *m_stop = nullptr;
    QPushButton *m_save = nullptr;
    QLabel *m_progress = nullptr;
    QLabel *m_stale = nullptr; // the banner over a sweep of settings the form no longer shows
    TradeoffsGrid *m_grid = nullptr;

    SweepRunner *m_runner = nullptr;
    core::SweepOutcome m_outcome;
    struct ArrivedPoint {
        std::vector<core::SweepRow> rows;
        std::vector<core::SweepPooled> pooled;
    };
    std::map<int, ArrivedPoint> m_points; // by point index, as they arrive
    int m_pointCount = 0;
};

} // namespace ui
