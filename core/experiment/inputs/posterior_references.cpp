#include "core/experiment/inputs/posterior_references.h"

namespace core {

PosteriorReferences::PosteriorReferences(const Eigen::VectorXd &data,
                                         std::shared_ptr<const GaussianMixturePosterior> known)
    : m_data(data)
{
    if (known) {
        auto slot = std::make_shared<Slot>();
        const double temperature = known->temperature();
        slot->posterior = std::move(known);
        m_byTemperature[temperature] = std::move(slot);
    }
}

std::shared_ptr<const GaussianMixturePosterior> PosteriorReferences::at(double temperature, std::stop_token stop)
{
    std::shared_ptr<Slot> slot;
    {
        const std::lock_guard lock(m_mutex);
        auto &entry = m_byTemperature[temperature];
        if (!entry)
            entry = std::make_shared<Slot>();
        slot = entry;
    }
    // Two chains finishing together must not build the same second-long grid twice, but the
    // points of a temperature sweep running at once each build their own without waiting.
    const std::lock_guard build(slot->build);
    if (!slot->posterior)
        slot->posterior = std::make_shared<const GaussianMixturePosterior>(m_data, temperature, PosteriorGridSpec{},
                                                                           std::move(stop));
    return slot->posterior;
}

std::optional<PosteriorMetrics> PosteriorReferences::measureFinalSegment(const ChainResult &chain)
{
    const std::int64_t start = chain.finalSegmentStart();
    if (chain.completed <= start || chain.segments.empty())
        return std::nullopt;
    const auto posterior = at(chain.segments.back().temperature);
    if (start == 0)
        return posterior->compare(chain.samples, chain.completed);
    const Eigen::MatrixXd finalSegment = chain.samples.middleRows(start, chain.completed - start);
    return posterior->compare(finalSegment);
}

} // namespace core
