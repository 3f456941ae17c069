#include "core/acceptance/tuna_forecast.h"

#include <algorithm>
#include <cmath>

#include <boost/math/distributions/normal.hpp>

#include "core/acceptance/forecast_rows.h"
#include "core/io/number_format.h"
#include "core/models/model_registry.h"
#include "core/random/rng.h"

namespace core {

namespace {

constexpr DataIndex kForecastRows = 10'000;
constexpr int kForecastMoves = 16;
constexpr int kScales = 25; // s = 1 … 2^−12, halving s²
constexpr double kSmallestChi = 1e-12;
// Where the own kernel loses, χ makes the batch of a move of scale 1 at least this many N, so
// that moves around that length fall back to the full-data test.
constexpr double kFallbackBatchMultiple = 2.0;

std::string figure(double value)
{
    return formatSignificant(value, 3);
}

// The noise variance σ² whose acceptance 2Φ(−σ/2) is `acceptance`.
double noiseForAcceptance(double acceptance)
{
    const double sigma = -2.0 * boost::math::quantile(boost::math::normal(), 0.5 * acceptance);
    return sigma * sigma;
}

// The chain at one scale and χ: the own kernel's batch and acceptance, or the full-data test's
// N points and (the fit's Gaussian as the posterior) an accepted move where the batch exceeds N.
TunaChainForecast chainAtScale(const TunaScaleForecast &at, double chi, double population)
{
    TunaChainForecast chain;
    chain.chi = chi;
    chain.scale = at.scale;
    const double batch = at.batchAt(chi);
    chain.fallsBack = batch > population;
    chain.acceptance = chain.fallsBack ? 1.0 : tunaAcceptanceForNoise(at.noiseAt(chi));
    chain.pointsPerIteration = chain.fallsBack ? population : batch;
    chain.effectiveDrawsPerIteration = crankNicolsonEffectiveDraws(chain.acceptance, at.scale);
    return chain;
}

} // namespace

double tunaAcceptanceForNoise(double noise)
{
    return 2.0 * boost::math::cdf(boost::math::normal(), -0.5 * std::sqrt(std::max(0.0, noise)));
}

TunaChainForecast TunaForecast::chainAt(double chiValue) const
{
    TunaChainForecast chain;
    for (const TunaScaleForecast &at : scales) {
        chain = chainAtScale(at, chiValue, population);
        if (chain.acceptance >= adaptTarget)
            break; // the burn-in, shortening the moves from scale 1, stops here
    }
    return chain;
}

std::vector<double> TunaForecast::candidateChis() const
{
    std::vector<double> chis;
    // The χ at which the burn-in settles exactly at one scale: its noise there gives the target
    // acceptance.
    const double targetNoise = noiseForAcceptance(adaptTarget);
    for (const TunaScaleForecast &at : scales)
        chis.push_back(std::max(at.boundUse / targetNoise - 0.5 / at.lipschitz, kSmallestChi));
    // And a grid in steps of 2^¼ over 2⁻²⁴ … 2⁴ times ρ² of scale 1.
    const double rho2 = std::max(scales.front().boundUse, kSmallestChi);
    for (int step = -96; step <= 16; ++step)
        chis.push_back(rho2 * std::exp2(0.25 * step));
    return chis;
}

std::optional<TunaChainForecast> TunaForecast::bestOwnKernel() const
{
    std::optional<TunaChainForecast> best;
    for (double chiValue : candidateChis()) {
        const TunaChainForecast chain = chainAt(chiValue);
        if (!chain.fallsBack && (!best || chain.pointsPerEffectiveDraw() < best->pointsPerEffectiveDraw()))
            best = chain;
    }
    return best;
}

std::optional<TunaChainForecast> TunaForecast::ownKernelFloor() const
{
    std::optional<TunaChainForecast> best;
    for (double chiValue : candidateChis()) {
        for (const TunaScaleForecast &at : scales) {
            const TunaChainForecast chain = chainAtScale(at, chiValue, population);
            if (!chain.fallsBack && (!best || chain.pointsPerEffectiveDraw() < best->pointsPerEffectiveDraw()))
                best = chain; // the own kernel's, not the full-data test's
        }
    }
    return best;
}

namespace {

bool beatsFullData(const std::optional<TunaChainForecast> &own, double fullData)
{
    return own && own->pointsPerEffectiveDraw() < fullData;
}

} // namespace

bool TunaForecast::ownKernelBeatsFullData() const
{
    return beatsFullData(bestOwnKernel(), fullDataPointsPerEffectiveDraw());
}

double TunaForecast::chosenChi() const
{
    if (const std::optional<TunaChainForecast> own = bestOwnKernel(); beatsFullData(own, fullDataPointsPerEffectiveDraw()))
        return own->chi;
    const TunaScaleForecast &one = scales.front();
    const double L = one.lipschitz;
    const double fallbackChi = L > 0.0 ? (kFallbackBatchMultiple * population - L) / (L * L) : 0.0;
    return std::max({one.boundUse, fallbackChi, kSmallestChi});
}

std::string TunaForecast::summary() const
{
    const TunaChainForecast chain = chainAt(chi);
    const double full = fullDataPointsPerEffectiveDraw();
    std::string text = "TunaMH forecast (Crank-Nicolson moves around the Laplace fit, their scale learned in the "
                       "burn-in toward an acceptance of " + figure(adaptTarget)
                       + "; log-ratio noise rho^2 / (chi + 1/(2 C M)), rho^2 = " + figure(scales.front().boundUse)
                       + "): at --tuna-chi " + figure(chi) + " the burn-in will learn a scale of about "
                       + figure(chain.scale) + ", where ";
    if (chain.fallsBack)
        text += "a move's batch exceeds N, so the full-data test decides";
    else
        text += "a test reads about " + figure(chain.pointsPerIteration) + " points and accepts about "
                + figure(chain.acceptance);
    text += ": about " + figure(chain.pointsPerEffectiveDraw()) + " points per effective draw ("
            + figure(chain.pointsPerEffectiveDraw() / full) + " times full-data Metropolis')";
    const std::optional<TunaChainForecast> own = ownKernelFloor();
    if (!own)
        return text + ". Its own kernel's batch exceeds N at every scale: the full-data test always decides";
    const double ratio = own->pointsPerEffectiveDraw() / full;
    text += ". Its own kernel at its best, at any fixed scale and chi (chi " + figure(own->chi) + ", scale "
            + figure(own->scale) + ": a batch of about " + figure(own->pointsPerIteration) + ", acceptance "
            + figure(own->acceptance) + "), needs about " + figure(own->pointsPerEffectiveDraw()) + " ("
            + figure(ratio) + " times)";
    if (ratio > 1.0)
        text += std::string(": on these data TunaMH cannot mix for less than full-data Metropolis' cost")
                + (ratio > 10.0 ? ", nor within ten times it" : "")
                + " (its Lipschitz bounds sum to C, which grows with N); smh, or minibatch with --control-variates "
                  "taylor2, read a small batch";
    return text;
}

double tunaBoundUse(const Model &model, const Vector &from, const Vector &to, const std::vector<DataIndex> &rows)
{
    const PointWeights &lipschitz = model.lipschitzWeights();
    const double move = (to - from).norm();
    const std::vector<DataIndex> all = rows.empty() ? allRows(model.dataSize()) : std::vector<DataIndex>{};
    const std::vector<DataIndex> *chosen = rows.empty() ? &all : &rows;
    std::vector<double> ratios(chosen->size());
    model.logLikelihoodRatios(from, to, *chosen, ratios);
    // Σ_i (M_i/L)(r_i/(T M_i))² = Σ_i r_i²/(c_i M²) / Σ_i c_i: the temperature cancels (the
    // bound c_i/T against the change r_i/T).
    double weighted = 0.0, total = 0.0;
    for (std::size_t k = 0; k < chosen->size(); ++k) {
        const double c = lipschitz.weights[static_cast<std::size_t>((*chosen)[k])];
        total += c;
        if (c > 0.0)
            weighted += ratios[k] * ratios[k] / c;
    }
    if (!(total > 0.0) || !(move > 0.0))
        return 0.0;
    return weighted / (total * move * move);
}

TunaForecast forecastTuna(const Model &model, const GaussianApproximation &laplace, double temperature, double chi,
                          double adaptTarget)
{
    requireCapability(model, ModelCapability::PointLipschitz, "TunaMH's forecast");
    TunaForecast forecast;
    forecast.population = static_cast<double>(model.dataSize());
    forecast.boundTotal = model.lipschitzWeights().total / temperature;
    forecast.adaptTarget = adaptTarget;
    forecast.chi = chi;
    const Eigen::Index d = laplace.mode.size();
    const double factorNorm2 = laplace.covarianceFactor.squaredNorm(); // tr(L Lᵀ)

    Rng rng(0x70CA57);
    const std::vector<DataIndex> rows = forecastRows(model.dataSize(), rng, kForecastRows);
    Vector z(d), fresh(d), from(d), to(d);
    double scale2 = 1.0;
    for (int k = 0; k < kScales; ++k, scale2 *= 0.5) {
        TunaScaleForecast at;
        at.scale = std::sqrt(scale2);
        const double keep = std::sqrt(1.0 - scale2);
        // E‖θ' − θ‖² = ‖(√(1 − s²) − 1) L z + s L z'‖² averaged: (2 − 2√(1 − s²)) tr(L Lᵀ).
        at.move = std::sqrt((2.0 - 2.0 * keep) * factorNorm2);
        at.lipschitz = forecast.boundTotal * at.move;
        // ρ² over moves of the chain's own kind: θ from the fit's Gaussian, where the chain
        // spends its time, and θ' its Crank–Nicolson successor.
        double sum = 0.0;
        for (int move = 0; move < kForecastMoves; ++move) {
            for (Eigen::Index j = 0; j < d; ++j) {
                z[j] = rng.normal();
                fresh[j] = rng.normal();
            }
            from = laplace.mode + laplace.covarianceFactor * z;
            to = laplace.mode + keep * (laplace.covarianceFactor * z) + at.scale * (laplace.covarianceFactor * fresh);
            sum += tunaBoundUse(model, from, to, rows);
        }
        at.boundUse = sum / kForecastMoves;
        forecast.scales.push_back(at);
    }
    return forecast;
}

} // namespace core
