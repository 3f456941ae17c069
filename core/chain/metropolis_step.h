#pragma once
/// One Metropolis–Hastings iteration, the chain loop's core with nothing around it: propose
/// θ′ from θ, ask the acceptance test, move. Pacing, pauses, live changes, laps, checkpoints
/// and resumption are layers around it (chain_runner.cpp).
#include <cstdint>

#include "core/acceptance/acceptance_test.h"
#include "core/models/model.h"
#include "core/proposals/random_walk_proposal.h"
#include "core/random/rng.h"

namespace core {

struct ChainResult;

/// Where a chain is: θ, its log prior, and room for the candidate (no allocation per step).
struct ChainState {
    Vector current;
    double currentLogPrior = 0.0;
    Vector candidate;
};

struct StepOutcome {
    bool accepted = false;
    Decision decision; ///< what the test read and found; empty when θ′ left the prior's support
};

/// One iteration at `temperature`: θ′ ~ q(· | θ); outside the prior's support it is rejected
/// and nothing is read; otherwise the test decides, and a move without a test (Zig-Zag, the
/// stochastic-gradient dynamics) counts its own reads and bound violations.
StepOutcome metropolisStep(const Model &model, const Proposal &proposal, AcceptanceTest &test, ChainState &state,
                           double temperature, Rng &rng);

/// Writes iteration t's row, its test's figures and the running totals into `result`.
void recordIteration(ChainResult &result, std::int64_t t, const Vector &theta, const StepOutcome &step);

} // namespace core
