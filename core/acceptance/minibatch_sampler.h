#pragma once
/// Draws minibatch rows uniformly at random WITHOUT replacement within one test, and lets the
/// test grow its batch. Never takes contiguous slices: on sorted data those are biased.
///
/// Every test runs a partial Fisher–Yates shuffle from the front of a permutation of 0..N−1:
/// whatever order the permutation starts in, the first b positions after b swap steps are a
/// uniformly random b-subset. How the permutation is held depends on N:
/// - up to kLargestPermutation rows, as an array of 4 bytes a row that keeps the order earlier
///   tests left (the draws every figure in the docs was measured with);
/// - above it (data read in place from a file of billions of rows), as the identity plus a small
///   hash table of the positions this test's swaps wrote: O(b) memory, where an array would take
///   8 bytes a row (17.6 GB at N = 2.2·10⁹), and each test starts again from the identity.
/// A test that draws b rows costs O(b) and, once the buffers have grown to the largest batch,
/// allocates nothing.
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/models/model.h"
#include "core/random/rng.h"

namespace core {

class MinibatchSampler {
public:
    /// The largest population held as a 4-byte permutation array.
    static constexpr DataIndex kLargestPermutation = std::numeric_limits<std::int32_t>::max();

    MinibatchSampler() = default;
    explicit MinibatchSampler(DataIndex populationSize, DataIndex largestPermutation = kLargestPermutation)
    {
        reset(populationSize, largestPermutation);
    }

    /// Sets N and (re)builds the identity permutation. Allocates; call once per dataset.
    /// `largestPermutation` lowers the size above which the hash table is used (for tests).
    void reset(DataIndex populationSize, DataIndex largestPermutation = kLargestPermutation);
    DataIndex populationSize() const { return m_population; }
    /// True when the permutation is an array (N ≤ the limit given to reset()).
    bool keepsPermutation() const { return !m_permutation.empty(); }

    /// Starts a new test: the next draw begins a fresh sample without replacement.
    void beginTest();
    /// Returns the permutation to the identity it had after reset(), so that the draws from here
    /// on depend only on the random stream: a chain's checkpoint (ChainSettings::checkpointEvery).
    /// The first call rebuilds all N entries; from then on the sampler notes the positions its
    /// swaps write, and a restart puts back only those (O(rows drawn since), not O(N)).
    void restart();
    /// Draws `count` more distinct rows (capped at the rows left) and returns them. The returned
    /// rows stay valid until the next draw (the buffer grows with the largest batch);
    /// drawnRows() has all of this test's.
    std::span<const DataIndex> drawMore(DataIndex count, Rng &rng);
    /// Draws `count` more rows independently and uniformly, WITH replacement (capped at N draws
    /// in one test), and returns them. For tests whose variance is the with-replacement s²/b.
    std::span<const DataIndex> drawMoreWithReplacement(DataIndex count, Rng &rng);
    /// Rows drawn so far in this test.
    DataIndex drawn() const { return m_drawn; }
    /// The rows drawn without replacement so far in this test.
    std::span<const DataIndex> drawnRows() const { return {m_rows.data(), static_cast<std::size_t>(m_drawn)}; }

private:
    void growRows(DataIndex last);
    // The hash table of the positions whose entry differs from the identity in this test.
    DataIndex movedEntry(DataIndex position) const;
    void setMovedEntry(DataIndex position, DataIndex entry);
    std::size_t slotOf(DataIndex position) const;

    DataIndex m_population = 0;
    std::vector<std::int32_t> m_permutation; // empty above the array limit
    std::vector<DataIndex> m_rows;           // this test's rows, in draw order
    DataIndex m_drawn = 0;
    bool m_journaling = false;               // since the first restart()
    std::vector<DataIndex> m_moved;          // positions picked by swaps since the last restart()
    DataIndex m_frontMoved = 0;              // positions [0, m_frontMoved) were swapped into

    std::vector<DataIndex> m_slotPosition, m_slotEntry;
    std::vector<std::uint64_t> m_slotTest;   // a slot is used in this test when it holds m_test
    std::uint64_t m_test = 1;
    std::size_t m_slotsUsed = 0;
    int m_slotShift = 64;
};

} // namespace core
