#include "core/acceptance/minibatch_sampler.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace core {

void MinibatchSampler::reset(DataIndex populationSize)
{
    if (populationSize < 1)
        throw std::invalid_argument("minibatch sampler needs a population of at least one row");
    m_permutation.resize(static_cast<std::size_t>(populationSize));
    std::iota(m_permutation.begin(), m_permutation.end(), DataIndex{0});
    m_independent.clear(); // grows with the largest with-replacement batch: not N entries up front
    m_drawn = 0;
    m_journaling = false;
    m_moved.clear();
    m_frontMoved = 0;
}

void MinibatchSampler::restart()
{
    if (m_permutation.empty())
        return;
    if (!m_journaling) {
        std::iota(m_permutation.begin(), m_permutation.end(), DataIndex{0});
        m_journaling = true;
        m_moved.reserve(4096);
    } else {
        // Only positions a swap wrote can differ from the identity: the front ones and those
        // the swaps picked.
        for (DataIndex position = 0; position < m_frontMoved; ++position)
            m_permutation[static_cast<std::size_t>(position)] = position;
        for (const DataIndex position : m_moved)
            m_permutation[static_cast<std::size_t>(position)] = position;
    }
    m_moved.clear();
    m_frontMoved = 0;
    m_drawn = 0;
}

std::span<const DataIndex> MinibatchSampler::drawMore(DataIndex count, Rng &rng)
{
    const DataIndex n = populationSize();
    const DataIndex first = m_drawn;
    const DataIndex last = std::min<DataIndex>(n, first + std::max<DataIndex>(count, 0));
    for (DataIndex position = first; position < last; ++position) {
        const auto pick = position + static_cast<DataIndex>(rng.uniformIndex(static_cast<std::uint64_t>(n - position)));
        std::swap(m_permutation[position], m_permutation[pick]);
        if (m_journaling)
            m_moved.push_back(pick);
    }
    if (m_journaling)
        m_frontMoved = std::max(m_frontMoved, last);
    m_drawn = last;
    return {m_permutation.data() + first, static_cast<std::size_t>(last - first)};
}

std::span<const DataIndex> MinibatchSampler::drawMoreWithReplacement(DataIndex count, Rng &rng)
{
    const DataIndex n = populationSize();
    const DataIndex first = m_drawn;
    const DataIndex last = std::min<DataIndex>(n, first + std::max<DataIndex>(count, 0));
    if (m_independent.size() < static_cast<std::size_t>(last)) // grows a few times, then never
        m_independent.resize(std::min<std::size_t>(static_cast<std::size_t>(n),
                                                   std::max<std::size_t>(static_cast<std::size_t>(last), 2 * m_independent.size())));
    for (DataIndex position = first; position < last; ++position)
        m_independent[static_cast<std::size_t>(position)] = static_cast<DataIndex>(rng.uniformIndex(static_cast<std::uint64_t>(n)));
    m_drawn = last;
    return {m_independent.data() + first, static_cast<std::size_t>(last - first)};
}

} // namespace core
