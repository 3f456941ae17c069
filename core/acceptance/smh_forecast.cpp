#include "core/acceptance/smh_forecast.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "core/acceptance/forecast_rows.h"
#include "core/io/number_format.h"
#include "core/random/rng.h"

namespace core {

namespace {

constexpr DataIndex kForecastRows = 10'000;
constexpr int kForecastMoves = 16;
constexpr int kForecastScales = 25; // s² = 1, 1/2, …, 2^−24
constexpr double kTenTimes = 10.0;
// Effective draws forecast for a typical weight that leave the slowest of twenty at the 100 a
// mixed chain needs (Vehtari et al. 2021): the forecast treats every weight alike, and the
// slowest fell to a third to four fifths of the median at d = 20 (SMH-1 on tall-logreg).
constexpr double kMixedDraws = 400.0;

// Two significant digits, without an exponent between 100 and 10¹²: "860 points", "18000
// samples" read better than 8.6e+02 and 1.8e+04.
std::string figure(double value)
{
    if (!(value >= 99.5 && value < 1e12))
        return formatSignificant(value, 2);
    const double unit = std::pow(10.0, std::floor(std::log10(value)) - 1.0);
    return std::to_string(std::llround(std::round(value / unit) * unit));
}

} // namespace

double SmhScaleForecast::effectiveDrawsPerIteration(double acceptanceRate) const
{
    return crankNicolsonEffectiveDraws(acceptanceRate, scale);
}

double SmhScaleForecast::pointsPerEffectiveDraw() const
{
    const double perIteration = effectiveDrawsPerIteration(acceptance);
    return perIteration > 0.0 ? pointsPerIteration / perIteration : HUGE_VAL;
}

double SmhScaleForecast::fullDataPointsPerEffectiveDraw(double population) const
{
    const double perIteration = effectiveDrawsPerIteration(fullDataAcceptance);
    return perIteration > 0.0 ? population / perIteration : HUGE_VAL;
}

const SmhScaleForecast &SmhForecast::learned() const
{
    for (const SmhScaleForecast &at : scales)
        if (at.acceptance >= adaptTarget)
            return at;
    return scales.back();
}

const SmhScaleForecast &SmhForecast::best() const
{
    return *std::min_element(scales.begin(), scales.end(), [](const auto &a, const auto &b) {
        return a.pointsPerEffectiveDraw() < b.pointsPerEffectiveDraw();
    });
}

double SmhForecast::fullDataPointsPerEffectiveDraw() const
{
    double fewest = HUGE_VAL;
    for (const SmhScaleForecast &at : scales)
        fewest = std::min(fewest, at.fullDataPointsPerEffectiveDraw(population));
    return fewest;
}

bool SmhForecast::mixesWithinTenTimesFullData() const
{
    const double cheapest = best().pointsPerEffectiveDraw();
    return std::isfinite(cheapest) && cheapest <= kTenTimes * fullDataPointsPerEffectiveDraw();
}

std::string SmhForecast::summary() const
{
    const std::string name = "SMH-" + std::to_string(order);
    const SmhScaleForecast &first = scales.front();
    const SmhScaleForecast &at = learned();
    const double perIteration = at.effectiveDrawsPerIteration(at.acceptance);
    std::string text = name + " forecast (Crank-Nicolson moves around the Laplace fit): at scale 1 a move is accepted "
                       "with probability about " + figure(first.acceptance) + " and a test reads about "
                       + figure(first.pointsPerIteration) + " points; the burn-in, steering toward an acceptance of "
                       + figure(adaptTarget) + ", will learn a scale of about " + figure(at.scale);
    if (!(perIteration > 0.0))
        return text + ", where no move is accepted: " + name + " cannot mix here";
    text += ", where a test reads about " + figure(at.pointsPerIteration) + " points and the chain needs about "
            + figure(1.0 / perIteration) + " iterations an effective draw (" + figure(at.pointsPerEffectiveDraw())
            + " points, against full-data Metropolis' " + figure(fullDataPointsPerEffectiveDraw()) + " at its best scale)";
    // A run until stopped has no count of samples to judge.
    const double kept = samples - burnIn;
    const double draws = kept * perIteration;
    if (kept > 0.0)
        text += ", so the " + figure(kept) + " draws after the burn-in give about " + figure(draws)
                + " effective draws of a typical weight";
    const SmhScaleForecast &cheapest = best();
    if (!mixesWithinTenTimesFullData()) {
        text += ": " + name + " cannot mix here for less than ten times full-data Metropolis' cost at any scale";
        if (std::isfinite(cheapest.pointsPerEffectiveDraw()))
            text += " (at its best, scale " + figure(cheapest.scale) + ", it needs about "
                    + figure(cheapest.pointsPerEffectiveDraw()) + " points an effective draw)";
        if (order == 1)
            text += "; smh with --control-variates taylor2 leaves each point a third-order remainder instead";
        return text;
    }
    if (at.pointsPerEffectiveDraw() > kTenTimes * fullDataPointsPerEffectiveDraw()) {
        // The target steers the burn-in to a scale that costs more than the full-data test; the
        // cheapest scale accepts less often, and a target at its acceptance (one the settings
        // take: in (0, 1)) steers there.
        text += "; that is more than ten times full-data Metropolis' cost, where scale " + figure(cheapest.scale)
                + " (acceptance about " + figure(cheapest.acceptance);
        if (cheapest.acceptance > 0.005 && cheapest.acceptance < 0.95)
            text += ", --adapt-target " + figure(cheapest.acceptance);
        return text + ") needs about " + figure(cheapest.pointsPerEffectiveDraw()) + " points an effective draw";
    }
    if (kept > 0.0 && draws < kMixedDraws)
        text += ": too few for a mixed chain; --samples " + figure(burnIn + kMixedDraws / perIteration) + " gives about "
                + figure(kMixedDraws);
    return text;
}

SmhBoundTotals smhBoundTotals(const TaylorProxies &proxies, SmhBound bound)
{
    SmhBoundTotals totals;
    const std::optional<std::vector<double>> l1 = proxies.pointDerivativeBounds();
    if (!l1)
        throw std::invalid_argument("these Taylor proxies' remainders have no bound, which SMH needs");
    totals.l1 = std::accumulate(l1->begin(), l1->end(), 0.0);
    if (bound == SmhBound::Auto && proxies.hasMarginBounds()) {
        const std::vector<double> margin = proxies.pointMarginBounds();
        totals.margin = std::accumulate(margin.begin(), margin.end(), 0.0);
    }
    return totals;
}

SmhMoveForecast forecastSmhMove(const Model &residualModel, const Vector &from, const Vector &to,
                                double logProposalRatio, double temperature, SmhBound bound,
                                const SmhBoundTotals &totals, const std::vector<DataIndex> &rows)
{
    const TaylorProxies *proxies = residualModel.residualProxies();
    if (!proxies)
        throw std::invalid_argument("SMH's forecast needs the model's Taylor proxies (control variates taylor1 or taylor2)");
    const double population = static_cast<double>(residualModel.dataSize());
    const std::vector<DataIndex> all = rows.empty() ? allRows(residualModel.dataSize()) : std::vector<DataIndex>{};
    const std::vector<DataIndex> *chosen = rows.empty() ? &all : &rows;
    std::vector<double> residuals(chosen->size());
    residualModel.logLikelihoodRatios(from, to, *chosen, residuals);
    double rejecting = 0.0, total = 0.0;
    for (double r : residuals) {
        total += r;
        rejecting += std::max(0.0, -r);
    }
    const double toPopulation = population / static_cast<double>(chosen->size()) / temperature;
    rejecting *= toPopulation; // U
    total *= toPopulation;     // Σ_i r_i / T
    const double a0 = residualModel.logPrior(to) - residualModel.logPrior(from) + logProposalRatio
                      + residualModel.exactLogLikelihoodRatioPart(from, to) / temperature;
    const double rate = smhPoissonRate(*proxies, from, to, temperature, bound, totals.l1, totals.margin); // Λ

    SmhMoveForecast move;
    move.fullDataAcceptance = std::min(1.0, std::exp(a0 + total));
    if (!(rate <= population)) {
        move.fallback = true;
        move.acceptance = move.fullDataAcceptance;
        move.pointsRead = population;
        return move;
    }
    const double factorZero = std::min(1.0, std::exp(a0));
    move.acceptance = factorZero * std::exp(-rejecting);
    // The thinning stops at its first rejection, each drawn point rejecting with chance U/Λ
    // (Λ (1 − e^{−U})/U points on average), but reads in chunks: the kernel's count.
    move.pointsRead = factorZero * PoissonMinibatch::expectedEvaluated(rate, rate > 0.0 ? rejecting / rate : 0.0);
    return move;
}

SmhForecast forecastSmh(const Model &residualModel, const GaussianApproximation &laplace, double temperature,
                        SmhBound bound, double adaptTarget, double samples, double burnIn)
{
    const TaylorProxies *proxies = residualModel.residualProxies();
    if (!proxies)
        throw std::invalid_argument("SMH's forecast needs the model's Taylor proxies (control variates taylor1 or taylor2)");
    SmhForecast forecast;
    forecast.order = proxies->order();
    forecast.population = static_cast<double>(residualModel.dataSize());
    forecast.adaptTarget = adaptTarget;
    forecast.samples = samples;
    forecast.burnIn = burnIn;

    const SmhBoundTotals totals = smhBoundTotals(*proxies, bound);
    Rng rng(0x5C0A57);
    const DataIndex n = residualModel.dataSize();
    // Every row of a small data set, listed once here rather than by each of the 400 moves.
    const std::vector<DataIndex> rows = forecastRows(n, rng, kForecastRows);

    // The same pairs (z, z') at every scale, so that the acceptance falls smoothly with s.
    const Eigen::Index d = laplace.mode.size();
    std::vector<Vector> starts, innovations;
    for (int move = 0; move < kForecastMoves; ++move) {
        Vector z(d), w(d);
        for (Eigen::Index j = 0; j < d; ++j)
            z[j] = rng.normal();
        for (Eigen::Index j = 0; j < d; ++j)
            w[j] = rng.normal();
        starts.push_back(std::move(z));
        innovations.push_back(std::move(w));
    }

    Vector landing(d);
    for (int k = 0; k < kForecastScales; ++k) {
        SmhScaleForecast at;
        at.scale = std::sqrt(std::ldexp(1.0, -k));
        const double keep = std::sqrt(1.0 - at.scale * at.scale);
        for (int move = 0; move < kForecastMoves; ++move) {
            const Vector &z = starts[static_cast<std::size_t>(move)];
            landing = keep * z + at.scale * innovations[static_cast<std::size_t>(move)];
            // Crank–Nicolson is reversible for N(θ̂, LLᵀ): q(θ|θ')/q(θ'|θ) = N(θ)/N(θ').
            const double proposalRatio = 0.5 * (landing.squaredNorm() - z.squaredNorm());
            const SmhMoveForecast one = forecastSmhMove(
                residualModel, laplace.mode + laplace.covarianceFactor * z,
                laplace.mode + laplace.covarianceFactor * landing, proposalRatio, temperature, bound, totals, rows);
            at.acceptance += one.acceptance;
            at.pointsPerIteration += one.pointsRead;
            at.fallbackShare += one.fallback ? 1.0 : 0.0;
            at.fullDataAcceptance += one.fullDataAcceptance;
        }
        at.acceptance /= kForecastMoves;
        at.pointsPerIteration /= kForecastMoves;
        at.fallbackShare /= kForecastMoves;
        at.fullDataAcceptance /= kForecastMoves;
        forecast.scales.push_back(at);
    }
    return forecast;
}

} // namespace core
