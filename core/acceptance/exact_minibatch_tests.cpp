#include "core/acceptance/exact_minibatch_tests.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/acceptance/full_data_tests.h"
#include "core/models/control_variates.h"
#include "core/validation/range_checks.h"

namespace core {
namespace {

// Both kernels' switch to the exact test: Metropolis' decision on all N points, marked as a
// fallback, on top of what the decision already counts (a table's pass).
void fallBackToMetropolis(const TestProblem &problem, Rng &rng, Decision &decision)
{
    const Decision full = MetropolisTest().decide(problem, rng);
    decision.deltaEstimate = full.deltaEstimate;
    decision.accepted = full.accepted;
    decision.pointsUsed += full.pointsUsed;
    decision.fullDataFallback = true;
}

// The table's pass is charged to the first decision that uses it (a chain waits for it there);
// SMH's two tables are two passes.
void chargeTablePass(const PointWeights &weights, const PointWeights *&seen, DataIndex n, Decision &decision)
{
    if (seen == &weights)
        return;
    seen = &weights;
    decision.fullScanPoints += n;
    decision.fullScanSeconds += weights.buildSeconds;
}

// Rounding in the residual kernel (float features, log-sum-exp) may put a ratio a few ulps past
// a bound that is exact in real arithmetic; only larger excesses count as violations.
constexpr double kBoundSlack = 1e-9;

} // namespace

namespace {

// The remainder bound's move factors (‖θ − θ̂‖^{k+1} + ‖θ' − θ̂‖^{k+1}) / ((k+1)! T) of the ℓ₁ and
// the margin (ℓ₂) forms: φ_i is a table's weight times one of them (Sec. 3.2).
struct SmhMoveScales {
    double l1 = 0.0;
    double margin = 0.0;
};

SmhMoveScales smhMoveScales(const TaylorProxies &proxies, const Vector &from, const Vector &to, double temperature,
                            bool withMargin)
{
    const int power = proxies.order() + 1;
    const double denominator = (power == 2 ? 2.0 : 6.0) * temperature; // (k+1)! T
    // Norms of expressions: reductions, no temporary vector.
    SmhMoveScales scales;
    scales.l1 = (std::pow((from - proxies.anchor()).lpNorm<1>(), power) + std::pow((to - proxies.anchor()).lpNorm<1>(), power))
                / denominator;
    if (withMargin)
        scales.margin =
            (std::pow((from - proxies.anchor()).norm(), power) + std::pow((to - proxies.anchor()).norm(), power))
            / denominator;
    return scales;
}

} // namespace

SmhFactorBounds smhFactorBounds(const TaylorProxies &proxies, const Vector &from, const Vector &to, double temperature,
                                SmhBound bound)
{
    const bool withMargin = bound == SmhBound::Auto && proxies.hasMarginBounds();
    const SmhMoveScales scales = smhMoveScales(proxies, from, to, temperature, withMargin);
    SmhFactorBounds chosen{&proxies.derivativeBoundWeights(), scales.l1, false};
    if (withMargin) {
        // The margin form φ_i = V_i (‖θ − θ̂‖₂^{k+1} + ‖θ' − θ̂‖₂^{k+1}) / ((k+1)! T) where its Λ is
        // the smaller. Both scales are sums of the two ends' terms, so the choice is the same
        // for (θ, θ') as for (θ', θ) (floating-point addition commutes): each move is decided by
        // one valid factorisation, chosen symmetrically, and detailed balance holds.
        const PointWeights &margin = proxies.marginBoundWeights();
        if (margin.total * scales.margin < chosen.weights->total * chosen.scale)
            chosen = {&margin, scales.margin, true};
    }
    return chosen;
}

double smhPoissonRate(const TaylorProxies &proxies, const Vector &from, const Vector &to, double temperature,
                      SmhBound bound, double l1Total, double marginTotal)
{
    const bool withMargin = bound == SmhBound::Auto && proxies.hasMarginBounds();
    const SmhMoveScales scales = smhMoveScales(proxies, from, to, temperature, withMargin);
    const double l1Rate = l1Total * scales.l1;
    return withMargin ? std::min(l1Rate, marginTotal * scales.margin) : l1Rate;
}

Decision ScalableMetropolisTest::decide(const TestProblem &problem, Rng &rng)
{
    const TaylorProxies *residualProxies = problem.model.residualProxies();
    if (!residualProxies)
        throw std::invalid_argument("smh needs control variates (taylor1 or taylor2): its factors are the "
                                    "residuals of the Taylor proxies");
    const TaylorProxies &proxies = *residualProxies;
    const PointWeights &l1Bounds = proxies.derivativeBoundWeights();
    Decision decision;
    decision.looks = 1;
    chargeTablePass(l1Bounds, m_seenTable, problem.model.dataSize(), decision);

    if (m_bound == SmhBound::Auto && proxies.hasMarginBounds())
        chargeTablePass(proxies.marginBoundWeights(), m_seenMarginTable, problem.model.dataSize(), decision);
    const SmhFactorBounds chosen =
        smhFactorBounds(proxies, problem.current, problem.proposed, problem.temperature, m_bound);
    const PointWeights &bounds = *chosen.weights;
    const double scale = chosen.scale;
    const double rate = bounds.total * scale;
    const double a0 = problem.exactPart();
    if (!(rate <= static_cast<double>(problem.model.dataSize()))) {
        fallBackToMetropolis(problem, rng, decision); // Λ > N: Δ = a₀ + Σ_i r_i / T on all points
        return decision;
    }
    decision.deltaEstimate = a0;
    if (!(std::log(rng.uniformOpen01()) < a0))
        return decision; // factor 0 rejected: no point read
    bool rejected = false;
    decision.pointsUsed = m_batch.run(problem.model, problem.current, problem.proposed, bounds, rate, rng,
                                      [&](DataIndex i, double residual) {
                                          const double u = std::max(0.0, -residual / problem.temperature);
                                          const double phi = bounds.weights[static_cast<std::size_t>(i)] * scale;
                                          if (u > phi * (1.0 + kBoundSlack) + kBoundSlack)
                                              ++decision.boundViolations;
                                          rejected = rng.uniform01() * phi < u;
                                          return !rejected;
                                      });
    decision.accepted = !rejected;
    return decision;
}

TunaTest::TunaTest(double chi, bool capAtN) : m_chi(chi), m_capAtN(capAtN)
{
    requireFinitePositive("tuna-chi", chi);
}

Decision TunaTest::decide(const TestProblem &problem, Rng &rng)
{
    const Model &model = problem.model;
    const PointWeights &lipschitz = model.lipschitzWeights();
    Decision decision;
    decision.looks = 1;
    chargeTablePass(lipschitz, m_seenTable, model.dataSize(), decision);

    const double T = problem.temperature;
    const double M = (problem.proposed - problem.current).norm();
    const double C = lipschitz.total / T;
    const double L = C * M;
    const double lambda = m_chi * L * L;
    if (m_capAtN && !(lambda + L <= static_cast<double>(model.dataSize()))) {
        // A Poisson batch of mean above N: the full-data Metropolis test instead. λ + L depends
        // on the move through M = ‖θ − θ'‖₂ alone, so the switch is symmetric in (θ, θ') and
        // keeps detailed balance (as SMH's, Cornish et al. 2019 Sec. 3.2); without it a long
        // move at a large χ reads many times N.
        fallBackToMetropolis(problem, rng, decision);
        return decision;
    }
    double logRatio = problem.exactPart();
    if (L > 0.0) {
        decision.pointsUsed = m_batch.run(
            model, problem.current, problem.proposed, lipschitz, lambda + L, rng, [&](DataIndex i, double ratio) {
                // ratio = ℓ_i(θ') − ℓ_i(θ), so φ_i = ½(M_i − ratio/T).
                const double Mi = lipschitz.weights[static_cast<std::size_t>(i)] / T * M;
                double phi = 0.5 * (Mi - ratio / T);
                if (phi < -kBoundSlack * (1.0 + Mi) || phi > Mi * (1.0 + kBoundSlack) + kBoundSlack)
                    ++decision.boundViolations;
                phi = std::clamp(phi, 0.0, Mi);
                const double phiPrime = Mi - phi;
                const double base = lambda * Mi;
                if (rng.uniform01() * (base + L * Mi) < base + L * phi)
                    logRatio += std::log1p(L * phiPrime / base) - std::log1p(L * phi / base);
                return true;
            });
    }
    decision.deltaEstimate = logRatio;
    decision.accepted = std::log(rng.uniformOpen01()) < logRatio;
    return decision;
}

} // namespace core
