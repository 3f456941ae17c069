#pragma once
// The run service's observer in the desktop app: turns the service's calls (stages, progress,
// data ready, chain progress, chain finished) into SamplerWorker's queued signals, with the
// snapshots thinned for the charts (SnapshotBuilder) and the heat map of the mixture's target.
// Chains call it from their own threads: each channel has its own SnapshotBuilder, created
// before any chain starts, so they share nothing but the (thread-safe) signal emission.
#include <chrono>
#include <cstdint>
#include <stop_token>
#include <string>
#include <vector>

#include "core/experiment/service/run_observer.h"
#include "ui/run/run_messages.h"
#include "ui/run/snapshot_builder.h"

namespace ui {

class SamplerWorker;

class WorkerObserver : public core::RunObserver {
public:
    using Clock = std::chrono::steady_clock;
    /// Snapshots and preparation progress reach the GUI no more often than this per running
    /// chain; with several chains at once the interval grows so the total stays about 25 a second.
    static constexpr auto kProgressInterval = std::chrono::milliseconds(40);

    WorkerObserver(SamplerWorker &worker, const RunRequest &request, std::stop_token stop);

    void stageStarted(core::RunStage stage, const std::string &message) override;
    void preparationProgress(core::RunStage stage, double fraction) override;
    void dataReady(const core::DatasetInstance &dataset, const RunOutcome &outcome) override;
    void chainStarted(int channel, const core::RunConfig &settings) override;
    void chainProgress(int channel, const core::ChainResult &result, std::int64_t, std::int64_t last) override;
    void chainFinished(const ChainReport &report) override;
    void chainLapEnded(int channel, const core::ChainResult &lap) override;
    void kernelChangeRefused(int channel, const std::string &problem) override;
    /// The live classifier evaluations the snapshots made, into the outcome's reports.
    void addClassifierCounts(RunOutcome &outcome) const;

private:
    SamplerWorker &m_worker;
    const RunRequest &m_request;
    const std::stop_token m_stop;
    std::vector<SnapshotBuilder> m_builders;
    Clock::time_point m_lastProgress = Clock::now();
};

} // namespace ui
