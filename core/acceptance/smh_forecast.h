#pragma once
/// What SMH (exact_minibatch_tests.h) will cost, and whether it can mix, before its chain runs.
///
/// SMH (Cornish et al., "Scalable Metropolis–Hastings for exact Bayesian inference with large
/// datasets", ICML 2019, Sec. 3) accepts a move with probability
///   α = min(1, e^{a₀}) · e^{−U},   U = Σ_i max(0, −r_i/T),
/// and, when factor 0 accepts, reads the Poisson(Λ) points of its thinning until the first one
/// rejects, each drawn point rejecting with chance U/Λ (so about Λ (1 − e^{−U})/U points, and
/// the rest of the chunk the kernel reads at once: PoissonMinibatch::expectedEvaluated).
/// Where Λ > N the full-data test decides instead:
/// N points, accepted with probability min(1, e^{a₀ + Σ_i r_i/T}).
///
/// The forecast takes these over Crank–Nicolson moves around the Laplace fit, the recommended
/// proposal on tall data: θ = θ̂ + L z, θ' = θ̂ + √(1 − s²) L z + s L z' at scales s from 1 down,
/// with a₀ exact (the proxies' sum, the prior and the proposal ratio) and U, Σ r_i estimated
/// from a fixed sample of rows scaled to N (the residuals are small, so the scaled sums are
/// accurate where a scaled full log-ratio would not be). On a Gaussian target such a kernel,
/// accepting with probability α whatever the state, moves every linear functional as an AR(1)
/// with coefficient ρ = 1 − α (1 − √(1 − s²)), so it makes (1 − ρ)/(1 + ρ) effective draws an
/// iteration; full-data Metropolis with the same moves is forecast the same way, and so is the
/// scale the burn-in learns (the largest whose acceptance reaches its target).
///
/// A first-order SMH leaves each point a remainder of order ‖θ − θ̂‖², which sum to an O(d)
/// log-ratio noise: at d = 20 it must shorten its moves until they barely move (its reads do not
/// shrink with the move, since Λ bounds both ends' remainders), and the forecast says so before
/// the chain. Rows and moves are drawn with a fixed seed, so every run of the data gets the same
/// forecast.
#include <cmath>
#include <string>
#include <vector>

#include "core/acceptance/exact_minibatch_tests.h"
#include "core/models/gaussian_approximation.h"
#include "core/models/model.h"

namespace core {

/// One Crank–Nicolson scale's forecast.
struct SmhScaleForecast {
    double scale = 0.0;              ///< s
    double acceptance = 0.0;         ///< SMH's mean α
    double pointsPerIteration = 0.0; ///< SMH's mean reads (N for a fallback)
    double fallbackShare = 0.0;      ///< moves with Λ > N
    double fullDataAcceptance = 0.0; ///< full-data Metropolis' mean α with the same moves

    /// Effective draws per iteration at `acceptance`: (1 − ρ)/(1 + ρ).
    double effectiveDrawsPerIteration(double acceptanceRate) const;
    double pointsPerEffectiveDraw() const;
    double fullDataPointsPerEffectiveDraw(double population) const;
};

struct SmhForecast {
    int order = 0;             ///< the Taylor proxies' k
    double population = 0.0;   ///< N
    double adaptTarget = 0.0;  ///< the burn-in's acceptance target
    double samples = 0.0;      ///< the run's --samples (0: a run until stopped, which has no count)
    double burnIn = 0.0;       ///< the first of them, not kept
    std::vector<SmhScaleForecast> scales; ///< from 1 down, halving s²

    /// The scale the burn-in learns: the largest whose acceptance reaches the target (the
    /// smallest scale when none does). The Crank–Nicolson proposal always has a burn-in: the
    /// settings refuse it without one.
    const SmhScaleForecast &learned() const;
    /// The scale with the fewest points per effective draw.
    const SmhScaleForecast &best() const;
    /// Full-data Metropolis' fewest points per effective draw over the same scales.
    double fullDataPointsPerEffectiveDraw() const;
    /// SMH at its best scale costs at most ten times full-data Metropolis at its best.
    bool mixesWithinTenTimesFullData() const;

    /// A sentence for the front ends, before the chain runs.
    std::string summary() const;
};

/// What SMH does with one move, in expectation over its draws.
struct SmhMoveForecast {
    double acceptance = 0.0;         ///< min(1, e^{a₀}) e^{−U}, or the full-data test's where Λ > N
    double pointsRead = 0.0;         ///< min(1, e^{a₀}) × the thinning's mean reads, or N
    double fullDataAcceptance = 0.0; ///< min(1, e^{a₀ + Σ_i r_i/T})
    bool fallback = false;           ///< Λ > N
};

/// Σ_i of SMH's per-point bounds in the ℓ₁ and the margin form (NaN where the kernel does not
/// use it), one pass each. The forecast sums them itself rather than build the kernel's
/// tables, so that the chains build and time those as they do without a forecast.
struct SmhBoundTotals {
    double l1 = 0.0;
    double margin = std::nan("");
};
/// Throws std::invalid_argument where the proxies' remainders have no bound.
SmhBoundTotals smhBoundTotals(const TaylorProxies &proxies, SmhBound bound);

/// The move (from, to) with the log proposal ratio log q(from|to)/q(to|from): U and Σ_i r_i from
/// `rows` scaled to N (every row when empty: then exact).
SmhMoveForecast forecastSmhMove(const Model &residualModel, const Vector &from, const Vector &to,
                                double logProposalRatio, double temperature, SmhBound bound,
                                const SmhBoundTotals &totals, const std::vector<DataIndex> &rows);

/// The forecast for SMH on `residualModel` (the control-variate model of order k, whose
/// per-point ratios are the Taylor residuals: Model::residualProxies() is not null) at
/// `temperature` around `laplace` (the fit at the same temperature), with `bound` the kernel's
/// choice of remainder bound. Throws std::invalid_argument for a model without proxies.
SmhForecast forecastSmh(const Model &residualModel, const GaussianApproximation &laplace, double temperature,
                        SmhBound bound, double adaptTarget, double samples, double burnIn);

} // namespace core
