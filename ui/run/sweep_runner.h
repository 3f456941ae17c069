#pragma once
// Runs a sweep (core::runSweep) on a std::jthread it owns and reports on the thread it lives
// on (the GUI thread): each finished point's rows and pooled trials, then the outcome or the failure. The
// observer copies a point's rows into a queued call on the runner, which outlives the thread
// because start(), stopAndJoin() and the destructor join it first. Calls still queued from an
// earlier sweep carry its generation number and are dropped, so a new sweep never shows an
// old one's points.
#include <optional>
#include <thread>
#include <vector>

#include <QObject>
#include <QString>

#include "core/experiment/sweep/sweep.h"

namespace ui {

class SweepRunner : public QObject {
    Q_OBJECT
public:
    explicit SweepRunner(QObject *parent = nullptr);
    /// Requests a stop and joins the thread.
    ~SweepRunner() override;

    /// Stops and joins any sweep, then runs `request` (already validated) on a new thread.
    void start(const core::SweepRequest &request);
    /// Asks the sweep to stop; finished() follows with the completed points.
    void requestStop();
    /// Asks the sweep to stop and waits for its thread; nothing of it is reported afterwards.
    void stopAndJoin();
    bool isRunning() const { return m_running; }

signals:
    /// `pooled`: each method's trials pooled (empty for one trial per point).
    void pointFinished(int index, int count, const std::vector<core::SweepRow> &rows,
                       const std::vector<core::SweepPooled> &pooled);
    void finished(const core::SweepOutcome &outcome);
    void failed(const QString &message);

private:
    void deliverPoint(unsigned generation, int index, int count, const std::vector<core::SweepRow> &rows,
                      const std::vector<core::SweepPooled> &pooled);
    void deliverEnd(unsigned generation, const std::optional<core::SweepOutcome> &outcome, const QString &error);

    std::jthread m_thread;
    unsigned m_generation = 0;
    bool m_running = false;
};

} // namespace ui
