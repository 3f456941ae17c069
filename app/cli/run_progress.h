#pragma once
// What the CLI shows while the run service works: each step's sentence on stderr and one
// progress bar, for the preparation step under way or for all chains together. It also turns
// Ctrl-C into a stop request from inside the service's callbacks.
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "app/cli/progress_bar.h"
#include "core/experiment/service/run_observer.h"

namespace cli {

class RunProgress : public core::RunObserver {
public:
    /// `label` names the sampling bar ("minibatch", "compare").
    explicit RunProgress(std::string label);
    ~RunProgress() override;

    void stageStarted(core::RunStage stage, const std::string &message) override;
    void preparationProgress(core::RunStage stage, double fraction) override;
    void dataReady(const core::DatasetInstance &dataset, const core::RunOutcome &outcome) override;
    void chainProgress(int channel, const core::ChainResult &result, std::int64_t first, std::int64_t last) override;
    /// Clears the bar.
    void finish();

private:
    std::string m_label;
    std::mutex m_mutex; // parallel chains report from their own threads
    std::unique_ptr<ProgressBar> m_bar;
    std::vector<std::int64_t> m_done; // per channel
    std::int64_t m_total = 0;
};

} // namespace cli
