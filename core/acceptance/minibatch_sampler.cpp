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
    m_independent.resize(static_cast<std::size_t>(populationSize));
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
    }
    m_drawn = last;
    return {m_permutation.data() + first, static_cast<std::size_t>(last - first)};
}

std::span<const DataIndex> MinibatchSampler::drawMoreWithReplacement(DataIndex count, Rng &rng)
{
    const DataIndex n = populationSize();
    const DataIndex first = m_drawn;
    const DataIndex last = std::min<DataIndex>(n, first + std::max<DataIndex>(count, 0));
    for (DataIndex position = first; position < last; ++position)
        m_independent[static_cast<std::size_t>(position)] = static_cast<DataIndex>(rng.uniformIndex(static_cast<std::uint64_t>(n)));
    m_drawn = last;
    return {m_independent.data() + first, static_cast<std::size_t>(last - first)};
}

} // namespace core
