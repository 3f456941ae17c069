#include "core/data/worst_case_data.h"

#include <limits>
#include <stdexcept>
#include <string>

#include "core/random/rng.h"

namespace core {

Eigen::VectorXd generateWorstCaseGaussian(std::int64_t size, std::uint64_t seed)
{
    if (size < 1 || size > std::numeric_limits<std::int32_t>::max())
        throw std::invalid_argument("n-data must be in [1, 2147483647]; got " + std::to_string(size));
    Rng rng(seed ^ 0xBB67AE8584CAA73BULL); // a stream distinct from the sampler's and the mixture's
    Eigen::VectorXd x(size);
    for (Eigen::Index i = 0; i < x.size(); ++i)
        x[i] = 0.5 + rng.normal();
    return x;
}

} // namespace core
