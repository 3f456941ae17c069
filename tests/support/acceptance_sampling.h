#pragma once
// Repeats one acceptance test on a fixed proposal and reports how often it accepted, with the
// Monte Carlo tolerance to compare that frequency with an exact probability.
#include <algorithm>
#include <cmath>

#include "core/acceptance/acceptance_test.h"

namespace teststats {

/// 4.9 standard errors: about 1e-6 per comparison, so a whole suite of comparisons fails by
/// chance with probability well under 1e-4.
constexpr double kZ = 4.9;

struct AcceptanceOutcome {
    double rate = 0.0;
    double meanPoints = 0.0;
    double meanFullScan = 0.0;
    int fallbacks = 0;
};

/// Runs `test` `repetitions` times on θ = 0 → θ' = 1 of `model`.
inline AcceptanceOutcome measureAcceptance(core::AcceptanceTest &test, const core::Model &model, double temperature,
                                           double logPriorProposal, std::uint64_t seed, int repetitions)
{
    core::Rng rng(seed);
    const core::Vector theta = core::Vector::Zero(1), thetaPrime = core::Vector::Ones(1);
    const core::TestProblem problem{model, theta, thetaPrime, temperature, logPriorProposal};
    AcceptanceOutcome outcome;
    int accepted = 0;
    for (int r = 0; r < repetitions; ++r) {
        const core::Decision decision = test.decide(problem, rng);
        accepted += decision.accepted;
        outcome.meanPoints += static_cast<double>(decision.pointsUsed) / repetitions;
        outcome.meanFullScan += static_cast<double>(decision.fullScanPoints) / repetitions;
        outcome.fallbacks += decision.fullDataFallback;
    }
    outcome.rate = static_cast<double>(accepted) / repetitions;
    return outcome;
}

/// kZ binomial standard errors of a frequency near p over `repetitions`, plus `extra` (a
/// method's own error allowance).
inline double acceptanceTolerance(double p, double extra, int repetitions)
{
    return kZ * std::sqrt(std::max(p * (1.0 - p), 1e-4) / repetitions) + extra;
}

} // namespace teststats
