#pragma once
/// Walker's alias method (Vose's construction) for O(1) draws from a finite distribution.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/random/rng.h"

namespace core {

/// A table that draws index i with probability weights[i] / sum(weights) in constant time:
/// one uniform cell index and one uniform coin per draw, no search and no allocation.
/// Built with Vose's numerically stable variant of Walker's method (M. D. Vose, "A linear
/// algorithm for generating random numbers with a given distribution", IEEE TSE 17(9), 1991).
class AliasTable {
public:
    AliasTable() = default;

    /// Builds the table in O(n). Zero weights are allowed and are never drawn.
    /// Throws std::invalid_argument if `weights` is empty, has a negative or non-finite entry,
    /// or sums to zero.
    explicit AliasTable(const std::vector<double> &weights);

    /// Number of cells (= number of weights given).
    std::size_t size() const { return m_cells.size(); }
    bool empty() const { return m_cells.empty(); }

    /// Probability that draw() returns `index`, as represented by the table (the sum of the
    /// cell's own share and the shares other cells alias to it). For tests and diagnostics: O(n).
    double probability(std::size_t index) const;

    /// One draw in O(1). Precondition: !empty().
    std::size_t draw(Rng &rng) const
    {
        const std::size_t cell = static_cast<std::size_t>(rng.uniformIndex(m_cells.size()));
        const Cell &c = m_cells[cell];
        return rng.uniform01() < c.keep ? cell : c.alias;
    }

private:
    struct Cell {
        double keep = 1.0;       ///< probability of keeping this cell's own index
        std::size_t alias = 0;   ///< index returned otherwise
    };
    std::vector<Cell> m_cells;
};

} // namespace core
