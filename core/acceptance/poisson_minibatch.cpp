#include "core/acceptance/poisson_minibatch.h"

#include <boost/random/poisson_distribution.hpp>

namespace core {

namespace {
constexpr std::size_t kLargestChunk = 1024;
}

std::int64_t poissonDraw(double mean, Rng &rng)
{
    if (!(mean > 0.0))
        return 0;
    // Boost's inversion below a mean of 10 and its PTRD transformed rejection above: exact, and
    // the set-up per call is a few logarithms.
    return boost::random::poisson_distribution<std::int64_t, double>(mean)(rng);
}

PoissonMinibatch::PoissonMinibatch() : m_rows(kLargestChunk), m_ratios(kLargestChunk) {}

} // namespace core
