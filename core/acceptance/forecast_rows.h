#pragma once
/// What the pre-run forecasts (TunaMH's, SMH's) share: the rows they read, a fixed sample, so
/// that a forecast costs the same at N = 10⁴ as at 10⁷ and says the same for the same data; and
/// the effective draws of Crank–Nicolson moves accepted at a given rate.
#include <vector>

#include "core/models/model.h"
#include "core/random/rng.h"

namespace core {

/// Every row of a data set of at most `limit` rows, listed once; else `limit` rows drawn
/// uniformly with replacement from `rng`.
std::vector<DataIndex> forecastRows(DataIndex dataSize, Rng &rng, DataIndex limit = 10'000);

/// Every row 0 … dataSize − 1.
std::vector<DataIndex> allRows(DataIndex dataSize);

/// Effective draws per iteration of Crank–Nicolson moves of scale s accepted with probability α
/// whatever the state: on a Gaussian target every linear functional is then an AR(1) with
/// coefficient ρ = 1 − α(1 − √(1 − s²)), which makes (1 − ρ)/(1 + ρ) effective draws an iteration.
double crankNicolsonEffectiveDraws(double acceptance, double scale);

} // namespace core
