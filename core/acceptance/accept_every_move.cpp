#include "core/acceptance/accept_every_move.h"

#include "core/proposals/stochastic_gradient_dynamics.h"

namespace core {

AcceptEveryMove::AcceptEveryMove(std::string name, DataIndex requestedBatch, bool restartable)
    : m_name(std::move(name)), m_requestedBatch(requestedBatch), m_restartable(restartable)
{
}

Decision AcceptEveryMove::decide(const TestProblem &problem, Rng &)
{
    Decision decision;
    decision.accepted = true;
    // The points this iteration read are the move's gradient rows: they stand where a test's
    // minibatch stands in every figure (points per iteration, per effective sample).
    decision.pointsUsed = gradientBatchSize(m_requestedBatch, problem.model.dataSize());
    return decision;
}

} // namespace core
