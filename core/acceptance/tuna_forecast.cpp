#include "core/acceptance/tuna_forecast.h"

#include <algorithm>
#include <cmath>

#include "core/acceptance/forecast_rows.h"
#include "core/io/number_format.h"
#include "core/models/model_registry.h"
#include "core/random/rng.h"

namespace core {

namespace {

constexpr double kOptimalRandomWalkScale = 2.38; // Roberts, Gelman & Gilks (1997)
constexpr DataIndex kForecastRows = 10'000;
constexpr int kForecastMoves = 16;
constexpr double kSmallestChi = 1e-12;

std::string figure(double value)
{
    return formatSignificant(value, 3);
}

} // namespace

double TunaForecast::batchAt(double chiValue) const
{
    const double L = mixingLipschitz();
    return chiValue * L * L + L;
}

double TunaForecast::noiseAt(double chiValue) const
{
    const double L = mixingLipschitz();
    return L > 0.0 ? boundUse / (chiValue + 0.5 / L) : 0.0;
}

double TunaForecast::chiForMixing() const
{
    const double L = mixingLipschitz();
    return std::max(L > 0.0 ? boundUse - 0.5 / L : 0.0, kSmallestChi);
}

std::string TunaForecast::summary() const
{
    const double atChi = batchAt(chi);
    std::string text = "TunaMH forecast: a move as long as a mixing random walk's (|theta' - theta| about "
                       + figure(mixingMove) + ") has C M = " + figure(mixingLipschitz()) + "; at --tuna-chi "
                       + figure(chi) + " such a move reads "
                       + (atChi > population ? "all N points (its batch, about " + figure(atChi)
                                                   + ", exceeds N, so the full-data test decides)"
                                             : "about " + figure(atChi) + " points")
                       + ", and its log-ratio estimate has a variance of about " + figure(noiseAt(chi))
                       + " (rho^2 / (chi + 1/(2 C M)), with rho^2 = " + figure(boundUse)
                       + " the mean squared share of its bound a point's change uses)";
    if (noiseAt(chi) > 1.0)
        text += ", so such moves are rejected and the burn-in learns shorter ones that mix slowly";
    text += ". At the chi where that variance is 1 (" + figure(chiForMixing()) + "), a test of such a move reads about "
            + figure(mixingBatch()) + " points (" + figure(mixingBatch() / population) + " N)";
    if (!mixesOnFewerThanAllPoints())
        text += ": on these data TunaMH cannot mix for less than full-data Metropolis' cost (its Lipschitz "
                "bounds sum to C, which grows with N); smh, or minibatch with --control-variates taylor2, "
                "read a small batch";
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

TunaForecast forecastTuna(const Model &model, const GaussianApproximation &laplace, double temperature, double chi)
{
    requireCapability(model, ModelCapability::PointLipschitz, "TunaMH's forecast");
    TunaForecast forecast;
    forecast.population = static_cast<double>(model.dataSize());
    forecast.boundTotal = model.lipschitzWeights().total / temperature;
    forecast.chi = chi;
    const Eigen::Index d = laplace.mode.size();
    const double scale = kOptimalRandomWalkScale / std::sqrt(static_cast<double>(d));
    forecast.mixingMove = scale * laplace.covarianceFactor.norm(); // √tr(L Lᵀ) = ‖L‖_F

    Rng rng(0x70CA57);
    const DataIndex n = model.dataSize();
    const std::vector<DataIndex> rows = forecastRows(n, rng, kForecastRows);
    // ρ² of one move depends on its direction, not its length: the mean over moves drawn from
    // the walk's proposal, centred on the mode so that both ends lie where the chain spends
    // its time.
    double sum = 0.0;
    Vector z(d), half(d);
    for (int move = 0; move < kForecastMoves; ++move) {
        for (Eigen::Index j = 0; j < d; ++j)
            z[j] = rng.normal();
        half = 0.5 * scale * (laplace.covarianceFactor * z);
        sum += tunaBoundUse(model, laplace.mode - half, laplace.mode + half, rows);
    }
    forecast.boundUse = sum / kForecastMoves;
    return forecast;
}

} // namespace core
