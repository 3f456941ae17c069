#pragma once
// One-weight logistic chains against their exact (tempered) posterior integrated on a grid:
// the set-up (the mode at T, the Laplace sd, the grid over ±10 of those sds), one chain of
// 121,000 iterations thinned by 30 after 1,000, and the checks every stationary test of an
// acceptance kernel makes on it:
//  - KS against the grid's CDF at p > 1e-4 (sees a shift of about 0.1 sd);
//  - the mean within 3.9 sd/√ESS of the thinned draws (α = 1e-4; 0.06–0.08 sd at the ESS
//    measured, 3,300 to 4,150);
//  - the variance by a two-sided χ² test at α = 1e-4 on the draws' ESS (at least 2,500, checked):
//    the accepted ratios lie within about ±11 % of 1, so an sd 5 % off sits at the edge and one
//    10 % off is rejected.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "core/acceptance/acceptance_test.h"
#include "core/chain/chain_runner.h"
#include "core/diagnostics/effective_sample_size.h"
#include "core/models/control_variates.h"
#include "core/models/posterior_mode.h"
#include "core/proposals/random_walk_proposal.h"
#include "tests/support/grid_posterior.h"
#include "tests/support/statistics.h"

namespace teststats {

/// The exact posterior p(θ) exp(Σ ℓ_i(θ)/T) of a one-weight model, with its mode and the Laplace
/// sd there (the proposal's scale).
struct TemperedGrid {
    TemperedGrid(const core::Model &model, double temperature)
        : temperature(temperature), mode(core::findPosteriorMode(model, temperature).mode),
          laplaceSd(1.0 / std::sqrt(-(core::makeTaylorProxies(model, mode, 2)->hessianSum()(0, 0) / temperature - 1.0))),
          exact(model, mode[0] - 10.0 * laplaceSd, mode[0] + 10.0 * laplaceSd, temperature)
    {
    }
    double temperature;
    core::Vector mode;
    double laplaceSd;
    GridPosterior exact;
};

struct GridChainFigures {
    double ksP = 0.0;
    double mean = 0.0;
    double ess = 0.0;
    VarianceCheck variance;
    double meanBatch = 0.0;     ///< points read a decision (minibatch rows; full passes not counted)
    std::size_t draws = 0;
};

/// Runs `test` with a random walk of sd `stepInSds` Laplace sds from the mode on `model` (the
/// plain model, or a control-variate one) and returns the checks' figures.
inline GridChainFigures runAgainstGrid(const core::Model &model, core::AcceptanceTest &test, const TemperedGrid &grid,
                                       std::uint64_t seed, double stepInSds = 1.5)
{
    const core::RandomWalkProposal proposal(stepInSds * grid.laplaceSd);
    core::ChainSettings settings;
    settings.samples = 121000;
    settings.seed = seed;
    settings.temperature = grid.temperature;
    settings.initialTheta = grid.mode;
    const core::ChainResult chain = core::runChain(model, proposal, test, settings);
    std::vector<double> thinned;
    for (std::int64_t t = 1000; t < chain.completed; t += 30)
        thinned.push_back(chain.samples(t, 0));
    GridChainFigures figures;
    figures.draws = thinned.size();
    figures.ksP = ksPValue(ksStatistic(thinned, [&](double x) { return grid.exact.cdf(x); }), thinned.size());
    figures.mean = std::accumulate(thinned.begin(), thinned.end(), 0.0) / static_cast<double>(thinned.size());
    figures.ess = core::effectiveSampleSize(core::ChainDraws{thinned});
    figures.variance = varianceAgainst(thinned, grid.exact.variance(), figures.ess, 1e-4);
    figures.meanBatch = std::accumulate(chain.batchSize.begin(), chain.batchSize.end(), 0.0)
                        / static_cast<double>(chain.completed);
    return figures;
}

/// The checks above, with `label` and the figures in every message (and printed with
/// --log_level=message).
inline void expectGridPosterior(const std::string &label, const GridChainFigures &figures, const TemperedGrid &grid)
{
    std::ostringstream text;
    text << label << " at T " << grid.temperature << ": KS p = " << figures.ksP << ", mean " << figures.mean << " vs "
         << grid.exact.mean() << ", variance ratio " << figures.variance.ratio << " in [" << figures.variance.lower
         << ", " << figures.variance.upper << "] (ESS " << figures.ess << "), mean batch " << figures.meanBatch;
    BOOST_TEST_MESSAGE(text.str());
    BOOST_TEST_INFO(text.str());
    BOOST_TEST(figures.ksP > 1e-4);
    BOOST_TEST(std::abs(figures.mean - grid.exact.mean())
               < zCritical(1e-4) * std::sqrt(grid.exact.variance() / figures.ess));
    BOOST_TEST(figures.variance.consistent());
    BOOST_TEST(figures.ess > 2500.0);
}

} // namespace teststats
