#include "core/proposals/random_walk_proposal.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/validation/range_checks.h"

namespace core {

RandomWalkProposal::RandomWalkProposal(double step) : m_step(step)
{
    requireFinitePositive("step", step);
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
