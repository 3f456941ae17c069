#include "core/acceptance/minibatch_sampler.h"

#include <algorithm>
#include <array>
#include <bit>
#include <numeric>
#include <stdexcept>
#include <string>

namespace core {

void MinibatchSampler::reset(DataIndex populationSize, DataIndex largestPermutation)
{
    if (populationSize < 1)
        throw std::invalid_argument("minibatch sampler needs a population of at least one row");
    if (largestPermutation > kLargestPermutation)
        throw std::invalid_argument("a minibatch sampler's permutation array holds at most 2147483647 rows; asked for "
                                    + std::to_string(largestPermutation));
    m_population = populationSize;
    m_permutation.clear();
    if (populationSize <= largestPermutation) {
        m_permutation.resize(static_cast<std::size_t>(populationSize));
        std::iota(m_permutation.begin(), m_permutation.end(), std::int32_t{0});
    }
    m_permutation.shrink_to_fit();
    m_rows.clear(); // grows with the largest batch: not N entries up front
    m_drawn = 0;
    m_journaling = false;
    m_moved.clear();
    m_frontMoved = 0;
    m_slotPosition.clear();
    m_slotEntry.clear();
    m_slotTest.clear();
    m_slotsUsed = 0;
    m_slotShift = 64;
    ++m_test;
}

void MinibatchSampler::beginTest()
{
    m_drawn = 0;
    if (!keepsPermutation()) { // every test starts from the identity: an empty table
        ++m_test;
        m_slotsUsed = 0;
    }
}

void MinibatchSampler::restart()
{
    if (m_population == 0)
        return;
    if (!keepsPermutation()) {
        beginTest();
        return;
    }
    if (!m_journaling) {
        std::iota(m_permutation.begin(), m_permutation.end(), std::int32_t{0});
        m_journaling = true;
        m_moved.reserve(4096);
    } else {
        // Only positions a swap wrote can differ from the identity: the front ones and those
        // the swaps picked.
        for (DataIndex position = 0; position < m_frontMoved; ++position)
            m_permutation[static_cast<std::size_t>(position)] = static_cast<std::int32_t>(position);
        for (const DataIndex position : m_moved)
            m_permutation[static_cast<std::size_t>(position)] = static_cast<std::int32_t>(position);
    }
    m_moved.clear();
    m_frontMoved = 0;
    m_drawn = 0;
}

void MinibatchSampler::growRows(DataIndex last)
{
    if (m_rows.size() < static_cast<std::size_t>(last)) // grows a few times, then never
        m_rows.resize(std::min<std::size_t>(static_cast<std::size_t>(m_population),
                                            std::max<std::size_t>(static_cast<std::size_t>(last), 2 * m_rows.size())));
}

std::size_t MinibatchSampler::slotOf(DataIndex position) const
{
    // Fibonacci hashing: the top bits of the product spread consecutive positions apart.
    return static_cast<std::size_t>((static_cast<std::uint64_t>(position) * 0x9E3779B97F4A7C15ull) >> m_slotShift);
}

DataIndex MinibatchSampler::movedEntry(DataIndex position) const
{
    if (m_slotTest.empty())
        return position;
    const std::size_t mask = m_slotTest.size() - 1;
    for (std::size_t slot = slotOf(position);; slot = (slot + 1) & mask) {
        if (m_slotTest[slot] != m_test)
            return position; // not moved in this test: the identity's entry
        if (m_slotPosition[slot] == position)
            return m_slotEntry[slot];
    }
}

void MinibatchSampler::setMovedEntry(DataIndex position, DataIndex entry)
{
    if (2 * (m_slotsUsed + 1) > m_slotTest.size()) { // at most half full: short probe runs
        const std::size_t capacity = std::max<std::size_t>(1024, 2 * m_slotTest.size());
        std::vector<DataIndex> positions(capacity), entries(capacity);
        std::vector<std::uint64_t> tests(capacity, 0);
        std::swap(positions, m_slotPosition);
        std::swap(entries, m_slotEntry);
        std::swap(tests, m_slotTest);
        m_slotShift = 64 - std::countr_zero(capacity);
        m_slotsUsed = 0;
        for (std::size_t slot = 0; slot < tests.size(); ++slot)
            if (tests[slot] == m_test)
                setMovedEntry(positions[slot], entries[slot]);
    }
    const std::size_t mask = m_slotTest.size() - 1;
    for (std::size_t slot = slotOf(position);; slot = (slot + 1) & mask) {
        if (m_slotTest[slot] != m_test) {
            m_slotTest[slot] = m_test;
            m_slotPosition[slot] = position;
            m_slotEntry[slot] = entry;
            ++m_slotsUsed;
            return;
        }
        if (m_slotPosition[slot] == position) {
            m_slotEntry[slot] = entry;
            return;
        }
    }
}

std::span<const DataIndex> MinibatchSampler::drawMore(DataIndex count, Rng &rng)
{
    const DataIndex n = m_population;
    const DataIndex first = m_drawn;
    const DataIndex last = std::min<DataIndex>(n, first + std::max<DataIndex>(count, 0));
    growRows(last);
    if (keepsPermutation()) {
        // The picks depend on the stream alone, not on the permutation's entries: a chunk of them
        // is drawn first and their entries fetched while the swaps of the chunk run. Swapped one
        // by one, each waits on its own cache miss (the perf profile of `bench`: the draw took
        // more time than the log-likelihood ratios). The draws are the same either way.
        constexpr DataIndex kChunk = 32;
        std::array<DataIndex, kChunk> picks{};
        for (DataIndex chunkFirst = first; chunkFirst < last; chunkFirst += kChunk) {
            const DataIndex chunkSize = std::min(kChunk, last - chunkFirst);
            for (DataIndex k = 0; k < chunkSize; ++k) {
                const DataIndex position = chunkFirst + k;
                const auto pick = position + static_cast<DataIndex>(rng.uniformIndex(static_cast<std::uint64_t>(n - position)));
                picks[static_cast<std::size_t>(k)] = pick;
                __builtin_prefetch(m_permutation.data() + pick, 1);
            }
            for (DataIndex k = 0; k < chunkSize; ++k) {
                const auto position = static_cast<std::size_t>(chunkFirst + k);
                const auto pick = static_cast<std::size_t>(picks[static_cast<std::size_t>(k)]);
                std::swap(m_permutation[position], m_permutation[pick]);
                m_rows[position] = m_permutation[position];
            }
            if (m_journaling)
                m_moved.insert(m_moved.end(), picks.begin(), picks.begin() + chunkSize);
        }
        if (m_journaling)
            m_frontMoved = std::max(m_frontMoved, last);
    } else {
        // The same swaps on the identity stored sparsely. A position before this one is never
        // picked again, so only the picked position's new entry needs keeping.
        for (DataIndex position = first; position < last; ++position) {
            const auto pick = position + static_cast<DataIndex>(rng.uniformIndex(static_cast<std::uint64_t>(n - position)));
            const DataIndex picked = movedEntry(pick);
            if (pick != position)
                setMovedEntry(pick, movedEntry(position));
            m_rows[static_cast<std::size_t>(position)] = picked;
        }
    }
    m_drawn = last;
    return {m_rows.data() + first, static_cast<std::size_t>(last - first)};
}

std::span<const DataIndex> MinibatchSampler::drawMoreWithReplacement(DataIndex count, Rng &rng)
{
    const DataIndex n = m_population;
    const DataIndex first = m_drawn;
    const DataIndex last = std::min<DataIndex>(n, first + std::max<DataIndex>(count, 0));
    growRows(last);
    for (DataIndex position = first; position < last; ++position)
        m_rows[static_cast<std::size_t>(position)] = static_cast<DataIndex>(rng.uniformIndex(static_cast<std::uint64_t>(n)));
    m_drawn = last;
    return {m_rows.data() + first, static_cast<std::size_t>(last - first)};
}

} // namespace core
