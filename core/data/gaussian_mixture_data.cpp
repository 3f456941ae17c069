#include "core/data/gaussian_mixture_data.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/random/rng.h"

namespace core {

Eigen::VectorXd generateGaussianMixture(const GaussianMixtureSpec &spec)
{
    if (spec.size < 1 || spec.size > std::numeric_limits<std::int32_t>::max())
        throw std::invalid_argument("n-data must be in [1, 2147483647]; got " + std::to_string(spec.size));
    if (!(spec.noiseVariance > 0.0))
        throw std::invalid_argument("noise variance must be > 0");
    Rng rng(spec.seed ^ 0x6A09E667F3BCC909ULL); // a stream distinct from the sampler's seed
    const double noiseSd = std::sqrt(spec.noiseVariance);
    Eigen::VectorXd x(spec.size);
    for (Eigen::Index i = 0; i < x.size(); ++i) {
        const bool second = (rng() >> 63) != 0;
        x[i] = spec.theta1 + (second ? spec.theta2 : 0.0) + noiseSd * rng.normal();
    }
    return x;
}

} // namespace core
