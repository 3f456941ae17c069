#include "core/acceptance/poisson_minibatch.h"

#include <algorithm>
#include <cmath>

#include <boost/math/special_functions/gamma.hpp>
#include <boost/random/poisson_distribution.hpp>

namespace core {

namespace {
// E[min(n, m)] for n ~ Poisson(λ): Σ_{j<m} j p_j + m P(n ≥ m), and Σ_{j<m} j p_j = λ P(n ≤ m − 2).
double meanCappedAt(double rate, std::int64_t m)
{
    if (m <= 0)
        return 0.0;
    const auto count = static_cast<double>(m);
    const double atMostMMinus2 = m >= 2 ? boost::math::gamma_q(count - 1.0, rate) : 0.0; // P(n ≤ m − 2)
    return rate * atMostMMinus2 + count * boost::math::gamma_p(count, rate);             // P(n ≥ m)
}
} // namespace

std::int64_t poissonDraw(double mean, Rng &rng)
{
    if (!(mean > 0.0))
        return 0;
    // Boost's inversion below a mean of 10 and its PTRD transformed rejection above: exact, and
    // the set-up per call is a few logarithms.
    return boost::random::poisson_distribution<std::int64_t, double>(mean)(rng);
}

PoissonMinibatch::PoissonMinibatch() : m_rows(kLargestChunk), m_ratios(kLargestChunk) {}

double PoissonMinibatch::expectedEvaluated(double rate, double stopChance)
{
    if (!(rate > 0.0))
        return 0.0;
    // Point k is evaluated when n ≥ k and no point of an earlier chunk stopped the walk:
    // P = P(n ≥ k) (1 − q)^{B}, B the points of the chunks before k's. Summed chunk by chunk
    // until the Poisson count or the chance of going on is spent.
    const double logGoOn = std::log1p(-std::clamp(stopChance, 0.0, 1.0));
    const double beyond = rate + 12.0 * std::sqrt(rate) + 30.0;
    double total = 0.0;
    std::int64_t before = 0;
    std::size_t chunk = kFirstChunk;
    while (static_cast<double>(before) < beyond) {
        const double reach = std::exp(static_cast<double>(before) * logGoOn);
        if (reach < 1e-15)
            break;
        const std::int64_t end = before + static_cast<std::int64_t>(chunk);
        total += reach * (meanCappedAt(rate, end) - meanCappedAt(rate, before));
        before = end;
        chunk = std::min(2 * chunk, kLargestChunk);
    }
    return total;
}

} // namespace core
