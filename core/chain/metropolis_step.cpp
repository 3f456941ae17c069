#include "core/chain/metropolis_step.h"

#include <cmath>

#include "core/chain/chain_runner.h"

namespace core {

StepOutcome metropolisStep(const Model &model, const Proposal &proposal, AcceptanceTest &test, ChainState &state,
                           double temperature, Rng &rng)
{
    StepOutcome outcome;
    proposal.propose(state.current, state.candidate, temperature, rng);
    const double candidateLogPrior = model.logPrior(state.candidate);
    if (!std::isfinite(candidateLogPrior)) // outside the prior's support: reject, read nothing
        return outcome;
    const double proposalRatio = test.readsProposalRatio() ? proposal.logProposalRatio(state.current, state.candidate)
                                                           : 0.0;
    const TestProblem problem{model, state.current, state.candidate, temperature,
                              candidateLogPrior - state.currentLogPrior + proposalRatio};
    outcome.decision = test.decide(problem, rng);
    outcome.accepted = outcome.decision.accepted;
    if (!test.readsProposalRatio()) { // a move without a test: its own reads and bounds count
        const Proposal::MoveCost cost = proposal.lastMoveCost();
        if (cost.pointsRead >= 0)
            outcome.decision.pointsUsed = cost.pointsRead;
        outcome.decision.boundViolations += cost.boundViolations;
    }
    if (outcome.accepted) {
        state.current.swap(state.candidate);
        state.currentLogPrior = candidateLogPrior;
    }
    return outcome;
}

void recordIteration(ChainResult &result, std::int64_t t, const Vector &theta, const StepOutcome &step)
{
    const Decision &decision = step.decision;
    const auto row = static_cast<std::size_t>(t);
    result.samples.row(t) = theta.transpose();
    result.batchSize[row] = decision.pointsUsed;
    result.fullScanPoints[row] = decision.fullScanPoints;
    result.accepted[row] = step.accepted ? 1 : 0;
    result.fullDataFallback[row] = decision.fullDataFallback ? 1 : 0;
    result.fullScanSeconds += decision.fullScanSeconds;
    result.boundViolations += decision.boundViolations;
    if (decision.brightPoints >= 0 || !result.brightPoints.empty()) {
        if (result.brightPoints.empty())
            result.brightPoints.assign(result.batchSize.size(), 0); // once, at FlyMC's first test
        // An iteration that ran no test (θ′ outside the prior's support) keeps the count.
        result.brightPoints[row] = decision.brightPoints >= 0 ? decision.brightPoints
                                   : row > 0                  ? result.brightPoints[row - 1]
                                                              : 0;
    }
    result.completed = t + 1;
}

} // namespace core
