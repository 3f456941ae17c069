#pragma once
/// What TunaMH (exact_minibatch_tests.h) will cost on a model before its chain runs, and the χ
/// at which its moves can be as long as a mixing random walk's.
///
/// TunaMH (Zhang, Cooper & De Sa, "Asymptotically optimal exact minibatch Metropolis–Hastings",
/// NeurIPS 2020, Algorithm 1) draws B ~ Poisson(λ + L) points for a move of length M, with
/// L = C M, C = Σ c_i/T the per-point Lipschitz bounds summed, and λ = χ L². Its estimate of the
/// log acceptance ratio is a sum of the log-factors of the points it keeps. With
/// r_i = ℓ_i(θ') − ℓ_i(θ) and M_i = c_i M/T, a point is drawn with probability M_i/L and kept
/// with probability about (λ + L/2)/(λ + L), so about Poisson(λ + L/2) points are kept, each
/// adding about L r_i/(T M_i (λ + L/2)); the sum's variance is then
///   Var ≈ L² ρ²/(λ + L/2) = ρ²/(χ + 1/(2L)),   ρ² = Σ_i (M_i/L) (r_i/(T M_i))²,
/// where ρ² ∈ [0, 1] is the c-weighted mean squared share of its bound that a point's change
/// uses (|r_i|/T ≤ M_i): 1 where the bounds are tight, small where they are loose. A log-ratio
/// whose noise has a variance well above 1 rejects nearly every move, so the burn-in learns a
/// move short enough for L to be small; a move that mixes needs χ ≳ ρ² − 1/(2L), and then reads
///   B* = χ L² + L ≈ ρ² L² + L/2
/// points. On a posterior that concentrates, L² grows like N (C like N, M like N^−½), so B* is a
/// fixed multiple of N: where B* > N TunaMH cannot mix for less than full-data Metropolis'
/// cost, and its test falls back to the full-data one on such moves (TunaTest's cap at N).
///
/// The move that mixes is the random walk's at its optimal scale, 2.38/√d times the Laplace
/// approximation's factor (Roberts, Gelman & Gilks 1997): E‖δ‖² = 2.38² tr(H⁻¹)/d. ρ² is
/// measured over such moves at the mode, on up to 10,000 rows and 16 moves drawn with a fixed
/// seed, so that the forecast, and a χ chosen from it, are the same on every run of the data.
#include <string>
#include <vector>

#include "core/models/gaussian_approximation.h"
#include "core/models/model.h"

namespace core {

struct TunaForecast {
    double population = 0.0;   ///< N
    double boundTotal = 0.0;   ///< C = Σ c_i / T
    double mixingMove = 0.0;   ///< M: the root mean square length of a mixing move
    double boundUse = 0.0;     ///< ρ² over such moves
    double chi = 0.0;          ///< the χ the forecast is asked about

    double mixingLipschitz() const { return boundTotal * mixingMove; } ///< L at M
    /// The expected batch χ L² + L of a mixing move at χ (before the cap at N).
    double batchAt(double chi) const;
    /// The variance of the log-ratio estimate of such a move at χ: ρ²/(χ + 1/(2L)).
    double noiseAt(double chi) const;
    /// The χ at which that variance is 1: ρ² − 1/(2L), and at least 1e-12 (where even χ → 0
    /// leaves a variance below 1, the smallest χ reads the fewest points).
    double chiForMixing() const;
    /// B* = the batch of a mixing move at chiForMixing().
    double mixingBatch() const { return batchAt(chiForMixing()); }
    /// B* ≤ N: some χ lets TunaMH move as far as a mixing random walk on fewer than N points.
    bool mixesOnFewerThanAllPoints() const { return mixingBatch() <= population; }

    /// A sentence for the front ends, before the chain runs.
    std::string summary() const;
};

/// ρ² for one move (from, to) over `rows` (all rows when empty): the c-weighted mean of
/// (r_i/(T M_i))², the same at every temperature (0 where the bounds sum to 0 or the move is 0).
double tunaBoundUse(const Model &model, const Vector &from, const Vector &to, const std::vector<DataIndex> &rows);

/// The forecast for `model` at `temperature` around its Laplace fit `laplace` (the fit at the
/// same temperature). Needs ModelCapability::PointLipschitz.
TunaForecast forecastTuna(const Model &model, const GaussianApproximation &laplace, double temperature, double chi);

} // namespace core
