#pragma once
// The worker object that runs requests on a QThread: an adapter between the
// Qt-free run service (core/experiment/service/run_service.h) and the window. It is moved to its thread
// by the owner; startRequest() runs a whole request inside that thread's event loop, and the
// service's observer calls become queued signals whose arguments are copies (run_messages.h),
// so the GUI never touches the sampler's state and the sampler never waits for the GUI. Its
// own additions are the GUI's: snapshots thinned for the charts, the live classifier curve and
// the posterior heat map.
#include <memory>
#include <mutex>
#include <stop_token>
#include <thread>

#include <QObject>
#include <QString>
#include <QStringList>

#include "core/chain/live_tuning.h"
#include "core/chain/pause_gate.h"
#include "core/experiment/inputs/run_input_cache.h"
#include "core/experiment/service/live_kernel.h"
#include "ui/charts/live_heat_map.h"
#include "ui/run/run_messages.h"

namespace ui {

class SamplerWorker : public QObject {
    Q_OBJECT
public:
    /// Plotted samples per chain at most; longer runs are thinned evenly (see RunSnapshot).
    static constexpr qint64 kMaxPlottedSamples = 50'000;
    /// A run until stopped: plotted samples per second per chain at most; a faster chain is
    /// thinned (its statistics still count every iteration).
    static constexpr qint64 kMaxPlottedPerSecond = 20'000;
    /// A run until stopped: plotted samples in a chain's moving window at most. The whole
    /// window is laid out again at every redraw, so it is kept small; a larger window is
    /// thinned evenly.
    static constexpr qint64 kMaxWindowPoints = 5'000;
    /// Classifier evaluations per chain at most: the evaluation stride is traceStride or,
    /// for longer runs, samples / kMaxClassifierPoints.
    static constexpr qint64 kMaxClassifierPoints = 2000;

    explicit SamplerWorker(QObject *parent = nullptr);
    ~SamplerWorker() override;

    /// Thread-safe. Stops the run in progress, or the next one if none has started yet (so a
    /// stop that races with a queued start is not lost). Each run re-arms the stop afterwards.
    void requestStop();
    /// Thread-safe: pause the running chains, let them run on, or let one more iteration
    /// through while paused. A stop also ends a pause.
    void pause() { m_pause.pause(); }
    void resume() { m_pause.resume(); }
    void step() { m_pause.step(1); }
    bool isPaused() const { return m_pause.paused(); }
    /// Thread-safe: change the temperature or proposal step of the running chains from their
    /// next iteration on; each change starts a new chain segment (core::LiveTuning). A new
    /// temperature also re-renders the posterior heat map, off the calling thread. Throws
    /// std::invalid_argument for values that are not finite and > 0.
    void setLiveTemperature(double temperature);
    void setLiveStep(double step);
    /// Thread-safe: a run until stopped switches to the acceptance test of `config` (method,
    /// σ, λ, m, …) at its chains' next lap, as a new segment (core::LiveKernel). Throws
    /// std::invalid_argument for invalid settings.
    void setLiveKernel(const core::RunConfig &config) { m_kernel.set(config); }
    /// Thread-safe: at most `iterationsPerSecond` iterations per second per chain (0: full
    /// speed), for the current run and the next ones.
    void setPace(double iterationsPerSecond) { m_pause.setPace(iterationsPerSecond); }
    /// Thread-safe. Forgets earlier stop and live-tuning requests. The owner calls it just
    /// before queuing a start(), so that a stop meant for a run that has just finished (its
    /// finished() still on the way) cannot cancel the new one.
    void discardStopRequests();

public slots:
    /// Runs every channel of `request` through core::runRequest to completion, stop or
    /// failure. Blocks the calling (worker) thread. Emits finished() or runFailed() exactly once.
    void startRequest(const ui::RunRequest &request);
    /// One method, one chain.
    void start(const core::RunConfig &config);

signals:
    void statusMessage(const QString &message);
    /// Progress of the preparation steps before the chains (fraction in [0, 1]; < 0 = busy);
    /// `stage` is the core::RunStage it belongs to, as an int.
    void preparationProgress(double fraction, int stage);
    void posteriorImageReady(const ui::PosteriorImage &image);
    /// Which two θ components the snapshots' samples are (before the first snapshot), named
    /// for axis titles: "θ₁", "θ₂" for the mixture; for logistic regression the two most
    /// discriminative weights, e.g. "weight of pixel (14, 12)".
    void plottedComponentsChosen(const QStringList &names);
    /// Channel `channel` runs at `step`, the step SGLD's or SGHMC's forecast took for its method
    /// entry (RunConfig::sgStepBias), not the form's; sent as the chain starts.
    void forecastStepTaken(int channel, double step);
    void snapshot(const ui::RunSnapshot &snapshot);
    void finished(const ui::RunOutcome &outcome);
    void runFailed(const QString &message);

private:
    friend class WorkerObserver; // the core::RunObserver that emits the signals above

    /// The temperature a run's heat map should show now: the latest live one, else `configured`.
    double liveTemperature(double configured) const;

    std::mutex m_stopMutex;
    core::PauseGate m_pause;
    core::LiveTuning m_tuning;
    core::LiveKernel m_kernel;
    std::stop_source m_stop;
    LiveHeatMap m_heatMap; // re-renders after a live temperature change
    /// The last run's data, with the mixture's exact posteriors and the Laplace fits made for
    /// them: the next Run on the same data (a changed step, σ or method) starts from them.
    core::RunInputCache m_inputs{1};
};

} // namespace ui
