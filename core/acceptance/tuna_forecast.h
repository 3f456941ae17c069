#pragma once
/// What TunaMH (exact_minibatch_tests.h) will cost on a model before its chain runs, and the χ
/// that, with the step its burn-in learns, reads the fewest points per effective draw.
///
/// TunaMH (Zhang, Cooper & De Sa, "Asymptotically optimal exact minibatch Metropolis–Hastings",
/// NeurIPS 2020, Algorithm 1) draws B ~ Poisson(λ + L) points for a move of length M, with
/// L = C M, C = Σ c_i/T the per-point Lipschitz bounds summed, and λ = χ L². Its estimate of the
/// log acceptance ratio is a sum of the log-factors of the points it keeps. With
/// r_i = ℓ_i(θ') − ℓ_i(θ) and M_i = c_i M/T, a point is drawn with probability M_i/L and kept
/// with probability about (λ + L/2)/(λ + L), so about Poisson(λ + L/2) points are kept, each
/// adding about L r_i/(T M_i (λ + L/2)); the sum's variance is then
///   σ² ≈ L² ρ²/(λ + L/2) = ρ²/(χ + 1/(2L)),   ρ² = Σ_i (M_i/L) (r_i/(T M_i))²,
/// where ρ² ∈ [0, 1] is the c-weighted mean squared share of its bound that a point's change
/// uses. Where the batch's mean λ + L would exceed N, the full-data test decides instead.
///
/// The step and χ are chosen together. The forecast takes the recommended proposal on tall
/// data, Crank–Nicolson moves around the Laplace fit (crank_nicolson_proposal.h), at scales s
/// from 1 down, and treats the fit's Gaussian as the posterior: full-data Metropolis then
/// accepts every such move, and TunaMH rejects only through its estimate's noise. An estimate
/// with Gaussian noise of variance σ² whose exponential is unbiased is accepted with
/// probability 2Φ(−σ/2) (the mean of min(1, e^Z) for Z ~ N(−σ²/2, σ²)); measured on tall
/// logistic data at N = 5·10⁴, d = 10, TunaMH's acceptance stayed within 0.05 of it at scales
/// 0.1 to 1 and σ² from 0.5 to 8. The burn-in starts at s = 1 and shortens the moves while
/// their acceptance is below its target, so with a fixed χ it settles at the largest scale
/// whose acceptance reaches the target (a move that falls back to the full-data test is
/// accepted). There, such a kernel moves every linear functional as an AR(1) with coefficient
/// 1 − α(1 − √(1 − s²)), which gives its effective draws per iteration (as SMH's forecast,
/// smh_forecast.h). For each scale, the χ whose noise puts that scale's acceptance at the
/// target is the one at which the burn-in settles there; the forecast picks, over the scales,
/// the one with the fewest points per effective draw, and compares it with full-data
/// Metropolis, which accepts every move at scale 1 and so needs N points per effective draw.
///
/// On a posterior that concentrates, L² grows like N (C like N, M like N^−½), so the own
/// kernel's cost per effective draw is a fixed multiple of N, set by the data's shape: where it
/// exceeds N, the χ chosen makes moves of scale 1 fall back to the full-data test, and the
/// chain is full-data Metropolis', the cheapest chain TunaMH can run there. ρ² is measured over
/// each scale's moves on up to 10,000 rows and 16 moves drawn with a fixed seed, so that the
/// forecast, and a χ chosen from it, are the same on every run of the data.
#include <optional>
#include <string>
#include <vector>

#include "core/models/gaussian_approximation.h"
#include "core/models/model.h"

namespace core {

/// Crank–Nicolson moves of one scale, and TunaMH's batch and noise on them.
struct TunaScaleForecast {
    double scale = 0.0;     ///< s
    double move = 0.0;      ///< M: the root mean square ‖θ' − θ‖
    double lipschitz = 0.0; ///< L = C M
    double boundUse = 0.0;  ///< ρ² over such moves

    /// The expected batch χ L² + L (before the cap at N).
    double batchAt(double chi) const { return chi * lipschitz * lipschitz + lipschitz; }
    /// The variance of the log-ratio estimate: ρ²/(χ + 1/(2L)).
    double noiseAt(double chi) const { return lipschitz > 0.0 ? boundUse / (chi + 0.5 / lipschitz) : 0.0; }
};

/// A TunaMH chain at one χ once its burn-in has learned its scale.
struct TunaChainForecast {
    double chi = 0.0;
    double scale = 0.0;              ///< the scale the burn-in settles at
    bool fallsBack = false;          ///< its moves' batch exceeds N: the full-data test decides
    double acceptance = 0.0;         ///< 2Φ(−σ/2), or 1 for a fallback
    double pointsPerIteration = 0.0; ///< χ L² + L, or N for a fallback
    double effectiveDrawsPerIteration = 0.0;
    double pointsPerEffectiveDraw() const { return pointsPerIteration / effectiveDrawsPerIteration; }
};

struct TunaForecast {
    double population = 0.0;  ///< N
    double boundTotal = 0.0;  ///< C = Σ c_i / T
    double adaptTarget = 0.0; ///< the burn-in's acceptance target
    double chi = 0.0;         ///< the χ the forecast is asked about
    std::vector<TunaScaleForecast> scales; ///< from 1 down, halving s²

    /// The chain at `chiValue`: the largest scale whose acceptance reaches the target (the
    /// smallest scale when none does).
    TunaChainForecast chainAt(double chiValue) const;
    /// The χ the forecast weighs: for each scale the one whose noise there gives the target
    /// acceptance (the burn-in then settles at that scale), and a grid in steps of 2^¼.
    std::vector<double> candidateChis() const;
    /// TunaMH's own kernel at its best as the burn-in will run it: of the candidate χ, the one
    /// whose chain (chainAt) reads the fewest points per effective draw without falling back;
    /// none where every such chain falls back (the burn-in starts at scale 1, and where a move
    /// of scale 1 falls back it is accepted, so the burn-in stays there).
    std::optional<TunaChainForecast> bestOwnKernel() const;
    /// The own kernel's least cost at any fixed scale and candidate χ whose batch stays below N,
    /// whether or not a burn-in would settle there: what TunaMH's kernel itself can do on the
    /// data (none where its batch exceeds N at every scale).
    std::optional<TunaChainForecast> ownKernelFloor() const;
    /// Full-data Metropolis with the same moves: every move of scale 1 accepted, N points an
    /// effective draw.
    double fullDataPointsPerEffectiveDraw() const { return population; }
    /// The own kernel at its best reads fewer points per effective draw than full-data Metropolis.
    bool ownKernelBeatsFullData() const;
    /// The χ with the fewest points per effective draw: the own kernel's best where it beats
    /// full-data Metropolis; else one at which moves of scale 1 fall back to the full-data test
    /// (a batch of at least 2N) while the shorter moves the burn-in tries on its way keep a
    /// noise of at most 1 (χ ≥ ρ²).
    double chosenChi() const;

    /// A sentence for the front ends, before the chain runs, about the chain at `chi`.
    std::string summary() const;
};

/// ρ² for one move (from, to) over `rows` (all rows when empty): the c-weighted mean of
/// (r_i/(T M_i))², the same at every temperature (0 where the bounds sum to 0 or the move is 0).
double tunaBoundUse(const Model &model, const Vector &from, const Vector &to, const std::vector<DataIndex> &rows);

/// The acceptance 2Φ(−σ/2) of a move whose log-ratio estimate has noise variance `noise`.
double tunaAcceptanceForNoise(double noise);

/// The forecast for `model` at `temperature` around its Laplace fit `laplace` (the fit at the
/// same temperature), for a burn-in steering toward `adaptTarget` ∈ (0, 1). Needs
/// ModelCapability::PointLipschitz.
TunaForecast forecastTuna(const Model &model, const GaussianApproximation &laplace, double temperature, double chi,
                          double adaptTarget);

} // namespace core
