#include "core/experiment/posterior_references.h"

namespace core {

PosteriorReferences::PosteriorReferences(const Eigen::VectorXd &data,
                                         std::shared_ptr<const GaussianMixturePosterior> known)
    : m_data(data)
{
    if (known)
        m_byTemperature[known->temperature()] = std::move(known);
}

std::shared_ptr<const GaussianMixturePosterior> PosteriorReferences::at(double temperature)
{
    // One lock for the build too: two chains finishing together must not build the same
    // second-long grid twice.
    const std::lock_guard lock(m_mutex);
    auto &slot = m_byTemperature[temperature];
    if (!slot)
        slot = std::make_shared<const GaussianMixturePosterior>(m_data, temperature);
    return slot;
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
