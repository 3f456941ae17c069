#pragma once
/// A model's collapsible lower bound (ModelCapability::CollapsibleLowerBound): for every point a
/// bound 0 < B_i(θ) ≤ p(x_i | θ), tuned once at an anchor θ̂, whose product over all N points is a
/// closed form in θ. Firefly Monte Carlo (Maclaurin & Adams, "Firefly Monte Carlo: exact MCMC
/// with subsets of data", UAI 2014, Sec. 3.1) runs on Π_i B_i(θ) and reads only the points where
/// the bound is loose; the bound's family is the model's business, the sampler's only the two
/// functions below.
#include "core/models/model.h"

namespace core {

class CollapsibleLowerBound {
public:
    virtual ~CollapsibleLowerBound() = default;
    /// Σ_i log B_i(θ) over all N points, up to a constant that does not depend on θ, untempered:
    /// reads no data and allocates nothing.
    virtual double logProduct(const Vector &theta) const = 0;
    /// log p(x_i | θ) − log B_i(θ) ≥ 0 for point i, untempered (0 where the bound is exact, and
    /// clamped there: rounding may not make it negative). Reads one row, allocates nothing.
    virtual double logGap(DataIndex i, const Vector &theta) const = 0;
};

} // namespace core
