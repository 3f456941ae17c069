#pragma once
/// Per-point weights with a table that draws a point in proportion to its weight, built once on
/// first use: the per-point bounds that SMH (Cornish et al. 2019, Sec. 3.2) and TunaMH (Zhang,
/// Cooper & De Sa 2020, Sec. 4) draw their Poisson minibatches by. Building reads every point
/// once (O(N)); afterwards a draw is O(1) and allocates nothing.
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "core/correction/alias_table.h"

namespace core {

struct PointWeights {
    std::vector<double> weights; ///< one per data point, ≥ 0
    double total = 0.0;          ///< Σ weights
    AliasTable table;            ///< draws i with probability weights[i] / total
    double buildSeconds = 0.0;   ///< the pass that computed the weights and the table

    /// Throws std::invalid_argument when a weight is negative or not finite, or there are none.
    /// All zero is allowed (a bound that vanishes): Σ w_i = 0 and nothing is ever drawn.
    explicit PointWeights(std::vector<double> values);
};

/// A PointWeights made by `make` the first time get() is called, from whichever thread, and
/// shared by every later caller (several chains on one model build it once). Copies share it.
class LazyPointWeights {
public:
    const PointWeights &get(const std::function<std::vector<double>()> &make) const;

private:
    struct State {
        std::once_flag once;
        std::unique_ptr<const PointWeights> weights;
    };
    std::shared_ptr<State> m_state = std::make_shared<State>();
};

} // namespace core
