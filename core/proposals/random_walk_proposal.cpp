#include "core/proposals/random_walk_proposal.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace core {

RandomWalkProposal::RandomWalkProposal(double step) : m_step(step)
{
    if (!(step > 0.0) || !std::isfinite(step))
        throw std::invalid_argument("step must be finite and > 0; got " + std::to_string(step));
}

void RandomWalkProposal::propose(const Vector &from, Vector &to, double, Rng &rng) const
{
    for (Eigen::Index k = 0; k < from.size(); ++k)
        to[k] = from[k] + m_step * rng.normal();
}

std::unique_ptr<Proposal> RandomWalkProposal::withStep(double step) const
{
    return std::make_unique<RandomWalkProposal>(step);
}

} // namespace core
