#include "core/acceptance/accept_every_move.h"

namespace core {

AcceptEveryMove::AcceptEveryMove(std::string name, bool restartable) : m_name(std::move(name)), m_restartable(restartable)
{
}

Decision AcceptEveryMove::decide(const TestProblem &, Rng &)
{
    Decision decision;
    decision.accepted = true;
    // Nothing is read here: the chain counts the move's own reads (readsProposalRatio() is false).
    decision.pointsUsed = 0;
    return decision;
}

} // namespace core
