#include "core/random/rng.h"

#include <cmath>

namespace core {

double Rng::logistic()
{
    const double u = uniformOpen01();
    return std::log(u) - std::log1p(-u);
}

} // namespace core
