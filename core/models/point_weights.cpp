#include "core/models/point_weights.h"

#include <algorithm>
#include <chrono>
#include <numeric>

namespace core {
namespace {

// Weights that are all zero (a linear model's second-order Taylor remainders, which vanish)
// make a rate Σ w_i · scale of 0, so nothing is ever drawn: the table is then uniform, never
// used, and the weights' own checks (negative, not finite, none) still apply.
AliasTable tableOf(const std::vector<double> &weights)
{
    const bool allZero = !weights.empty() && std::all_of(weights.begin(), weights.end(), [](double w) { return w == 0.0; });
    return allZero ? AliasTable(std::vector<double>(weights.size(), 1.0)) : AliasTable(weights);
}

} // namespace

PointWeights::PointWeights(std::vector<double> values)
    : weights(std::move(values)), table(tableOf(weights))
{
    // Long double: N up to 2³¹ weights of very different sizes.
    total = static_cast<double>(std::accumulate(weights.begin(), weights.end(), 0.0L));
}

const PointWeights &LazyPointWeights::get(const std::function<std::vector<double>()> &make) const
{
    std::call_once(m_state->once, [&] {
        const auto start = std::chrono::steady_clock::now();
        auto weights = std::make_unique<PointWeights>(make());
        weights->buildSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        m_state->weights = std::move(weights);
    });
    return *m_state->weights;
}

} // namespace core
