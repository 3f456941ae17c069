#include "core/models/point_weights.h"

#include <chrono>
#include <numeric>

namespace core {

PointWeights::PointWeights(std::vector<double> values)
    : weights(std::move(values)), table(weights)
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
