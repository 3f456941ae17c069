#pragma once
// Repeats one acceptance test on a fixed proposal and reports how often it accepted, with the
// Monte Carlo tolerance to compare that frequency with an exact probability; the exact sum of a
// move's log-likelihood ratios, and random moves.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "core/acceptance/acceptance_test.h"
#include "core/random/rng.h"

namespace teststats {

/// 4.9 standard errors: about 1e-6 per comparison, so a whole suite of comparisons fails by
/// chance with probability well under 1e-4.
constexpr double kZ = 4.9;

/// How one acceptance test decided one fixed move over many repetitions.
struct AcceptanceOutcome {
    double rate = 0.0;          ///< accepted / repetitions
    double meanPoints = 0.0;    ///< points read a decision
    double meanFullScan = 0.0;  ///< points of full passes a decision (bounds, moments)
    std::int64_t violations = 0;///< bound violations seen (the exact kernels)
    int fallbacks = 0;          ///< decisions the full-data test made instead
};

/// Runs `test` `repetitions` times on `problem`.
inline AcceptanceOutcome repeatDecision(core::AcceptanceTest &test, const core::TestProblem &problem, core::Rng &rng,
                                        int repetitions)
{
    AcceptanceOutcome outcome;
    int accepted = 0;
    for (int r = 0; r < repetitions; ++r) {
        const core::Decision decision = test.decide(problem, rng);
        accepted += decision.accepted;
        outcome.meanPoints += static_cast<double>(decision.pointsUsed) / repetitions;
        outcome.meanFullScan += static_cast<double>(decision.fullScanPoints) / repetitions;
        outcome.violations += decision.boundViolations;
        outcome.fallbacks += decision.fullDataFallback;
    }
    outcome.rate = static_cast<double>(accepted) / repetitions;
    return outcome;
}

/// Runs `test` `repetitions` times on θ = 0 → θ' = 1 of a one-parameter `model`.
inline AcceptanceOutcome measureAcceptance(core::AcceptanceTest &test, const core::Model &model, double temperature,
                                           double logPriorProposal, std::uint64_t seed, int repetitions)
{
    core::Rng rng(seed);
    const core::Vector theta = core::Vector::Zero(1), thetaPrime = core::Vector::Ones(1);
    return repeatDecision(test, core::TestProblem{model, theta, thetaPrime, temperature, logPriorProposal}, rng,
                          repetitions);
}

/// Σ_i ℓ_i(θ') − ℓ_i(θ) over every row, untempered.
inline double fullSum(const core::Model &model, const core::Vector &from, const core::Vector &to)
{
    std::vector<double> values(static_cast<std::size_t>(model.dataSize()));
    model.logLikelihoodRatiosRange(from, to, 0, values);
    return std::accumulate(values.begin(), values.end(), 0.0);
}

/// `at` with independent N(0, scale²) added to each coordinate.
inline core::Vector perturbed(const core::Vector &at, double scale, core::Rng &rng)
{
    core::Vector out = at;
    for (Eigen::Index j = 0; j < out.size(); ++j)
        out[j] += scale * rng.normal();
    return out;
}

/// kZ binomial standard errors of a frequency near p over `repetitions`, plus `extra` (a
/// method's own error allowance).
inline double acceptanceTolerance(double p, double extra, int repetitions)
{
    return kZ * std::sqrt(std::max(p * (1.0 - p), 1e-4) / repetitions) + extra;
}

} // namespace teststats
