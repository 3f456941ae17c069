#pragma once
/// The lp__ column of a samples file: the tempered log posterior log p0(θ) + Σ_i log p(x_i|θ)/T
/// (unnormalised) at every completed row, each row at the temperature it was sampled at (an
/// annealing burn-in's T₀, or a live change's new T; see ChainSegment).
#include <stop_token>
#include <vector>

#include "core/chain/chain_runner.h"
#include "core/diagnostics/gmm_posterior.h"
#include "core/models/model.h"

namespace core {

/// From the binned exact posterior of the mixture: O(1) per row.
std::vector<double> logPosteriorColumn(const ChainResult &chain, const GaussianMixturePosterior &binned);

/// From the model itself: one full pass over the data per distinct θ (a rejected proposal
/// repeats the previous row's value), spread over the machine's cores. Empty when `stop`
/// is requested before it is done.
std::vector<double> logPosteriorColumn(const ChainResult &chain, const Model &model, std::stop_token stop = {});

/// Data points that logPosteriorColumn(chain, model) reads: N per distinct θ.
double logPosteriorColumnCost(const ChainResult &chain, const Model &model);
/// Above this many points (about five seconds on two cores) a samples file leaves lp__ out
/// rather than make a run of tall data wait minutes for a column nobody asked for: 20,000
/// draws at N = 10⁶ would read 2·10¹⁰ points, a hundred times the sampling's own reads.
inline constexpr double kLogPosteriorColumnBudget = 2e9;

} // namespace core
