#pragma once
/// Draws minibatch rows uniformly at random WITHOUT replacement within one test, and lets the
/// test grow its batch. Never takes contiguous slices: on sorted data those are biased.
///
/// It keeps one permutation of 0..N−1 and runs a partial Fisher–Yates shuffle from its front at
/// every test: whatever order earlier tests left, the first b positions after b swap steps are
/// a uniformly random b-subset. A test that draws b rows costs O(b) and allocates nothing.
#include <span>
#include <vector>

#include "core/models/model.h"
#include "core/random/rng.h"

namespace core {

class MinibatchSampler {
public:
    MinibatchSampler() = default;
    explicit MinibatchSampler(DataIndex populationSize) { reset(populationSize); }

    /// Sets N and (re)builds the identity permutation. Allocates; call once per dataset.
    void reset(DataIndex populationSize);
    DataIndex populationSize() const { return static_cast<DataIndex>(m_permutation.size()); }

    /// Starts a new test: the next draw begins a fresh sample without replacement.
    void beginTest() { m_drawn = 0; }
    /// Returns the permutation to the identity it had after reset(), so that the draws from here
    /// on depend only on the random stream: a chain's checkpoint (ChainSettings::checkpointEvery).
    /// The first call rebuilds all N entries; from then on the sampler notes the positions its
    /// swaps write, and a restart puts back only those (O(rows drawn since), not O(N)).
    void restart();
    /// Draws `count` more distinct rows (capped at the rows left) and returns them.
    std::span<const DataIndex> drawMore(DataIndex count, Rng &rng);
    /// Draws `count` more rows independently and uniformly, WITH replacement (capped at N draws
    /// in one test), and returns them. For tests whose variance is the with-replacement s²/b.
    std::span<const DataIndex> drawMoreWithReplacement(DataIndex count, Rng &rng);
    /// Rows drawn so far in this test.
    DataIndex drawn() const { return m_drawn; }
    /// The rows drawn without replacement so far in this test.
    std::span<const DataIndex> drawnRows() const { return {m_permutation.data(), static_cast<std::size_t>(m_drawn)}; }

private:
    std::vector<DataIndex> m_permutation;
    std::vector<DataIndex> m_independent; // rows drawn with replacement in this test
    DataIndex m_drawn = 0;
    bool m_journaling = false;            // since the first restart()
    std::vector<DataIndex> m_moved;       // positions picked by swaps since the last restart()
    DataIndex m_frontMoved = 0;           // positions [0, m_frontMoved) were swapped into

};

} // namespace core
