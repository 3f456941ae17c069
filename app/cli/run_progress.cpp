#include "app/cli/run_progress.h"

#include <cstdio>
#include <numeric>

#include "app/cli/commands.h"

namespace cli {

RunProgress::RunProgress(std::string label) : m_label(std::move(label)) {}

RunProgress::~RunProgress()
{
    finish();
}

void RunProgress::finish()
{
    const std::lock_guard lock(m_mutex);
    if (m_bar)
        m_bar->finish();
    m_bar.reset();
}

void RunProgress::stageStarted(core::RunStage stage, const std::string &message)
{
    pollInterrupt();
    finish();
    const std::lock_guard lock(m_mutex);
    if (stage == core::RunStage::Diagnostics)
        return;
    std::fprintf(stderr, "%s\n", message.c_str());
    if (stage == core::RunStage::Forecast) // a sentence made at once: nothing to wait for
        return;
    const char *label = stage == core::RunStage::Sampling ? m_label.c_str()
                        : stage == core::RunStage::Data   ? "data"
                        : stage == core::RunStage::Correction ? "correction"
                        : stage == core::RunStage::AustereDesign ? "austere design"
                        : stage == core::RunStage::ControlVariates ? "posterior mode"
                        : stage == core::RunStage::LaplaceFit ? "laplace fit"
                                                                 : "austere pilot";
    m_bar = std::make_unique<ProgressBar>(label);
}

void RunProgress::preparationProgress(core::RunStage, double fraction)
{
    pollInterrupt();
    const std::lock_guard lock(m_mutex);
    if (m_bar && fraction >= 0.0)
        m_bar->update(static_cast<std::int64_t>(fraction * 1000.0), 1000);
}

void RunProgress::dataReady(const core::DatasetInstance &dataset, const core::RunOutcome &outcome)
{
    if (dataset.classifier)
        std::fprintf(stderr, "data: %s\n", outcome.datasetDescription.c_str());
    const std::lock_guard lock(m_mutex);
    const int channels = outcome.request.channelCount();
    m_done.assign(static_cast<std::size_t>(channels), 0);
    m_total = static_cast<std::int64_t>(channels) * outcome.config().samples;
}

void RunProgress::chainProgress(int channel, const core::ChainResult &, std::int64_t, std::int64_t last)
{
    pollInterrupt();
    const std::lock_guard lock(m_mutex);
    if (static_cast<std::size_t>(channel) < m_done.size())
        m_done[static_cast<std::size_t>(channel)] = last;
    if (m_bar)
        m_bar->update(std::accumulate(m_done.begin(), m_done.end(), std::int64_t{0}), m_total);
}

} // namespace cli
