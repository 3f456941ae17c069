#include "core/experiment/service/gradient_setup.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "core/acceptance/forecast_rows.h"
#include "core/correction/cancelled.h"
#include "core/io/number_format.h"
#include "core/proposals/gradient_dynamics_forecast.h"
#include "core/random/rng.h"

namespace core {

namespace {

constexpr int kControlVariateDraws = 16;
constexpr double kSdTolerance = 0.1; // the spread within 10 % of the posterior's

std::string figure(double value)
{
    return formatSignificant(value, 3);
}

// The covariance over `rows` of the per-row gradients at θ, less those at `anchor` when given
// (the control variates' differences), untempered.
Eigen::MatrixXd rowGradientCovariance(const Model &model, const Vector &theta, const Vector *anchor,
                                      const std::vector<DataIndex> &rows)
{
    const Eigen::Index d = model.dimension();
    Eigen::MatrixXd gradients(static_cast<Eigen::Index>(rows.size()), d);
    Vector at(d), there(d);
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const std::span<const DataIndex> one(&rows[k], 1);
        model.sumGradLogLikelihood(theta, one, at);
        if (anchor) {
            model.sumGradLogLikelihood(*anchor, one, there);
            at -= there;
        }
        gradients.row(static_cast<Eigen::Index>(k)) = at.transpose();
    }
    const Eigen::MatrixXd centred = gradients.rowwise() - gradients.colwise().mean();
    return centred.transpose() * centred / std::max<double>(1.0, static_cast<double>(rows.size()) - 1.0);
}

// V, the covariance of the minibatch gradient's noise: (N²/B)(1 − B/N) Cov_i(∇ℓ_i) / T², over
// the forecasts' 10,000 rows (forecast_rows.h), at
// the mode, or for control variates averaged over draws from the fit, where the chain spends
// its time (their noise vanishes at the mode itself).
Eigen::MatrixXd gradientNoise(const Model &model, const GaussianApproximation &fit, bool controlVariates,
                              DataIndex batch, double temperature)
{
    Rng rng(0x56D7);
    const std::vector<DataIndex> rows = forecastRows(model.dataSize(), rng);
    Eigen::MatrixXd covariance;
    if (!controlVariates) {
        covariance = rowGradientCovariance(model, fit.mode, nullptr, rows);
    } else {
        covariance = Eigen::MatrixXd::Zero(model.dimension(), model.dimension());
        Vector z(model.dimension());
        for (int draw = 0; draw < kControlVariateDraws; ++draw) {
            for (Eigen::Index j = 0; j < z.size(); ++j)
                z[j] = rng.normal();
            covariance += rowGradientCovariance(model, fit.mode + fit.covarianceFactor * z, &fit.mode, rows);
        }
        covariance /= kControlVariateDraws;
    }
    const double n = static_cast<double>(model.dataSize()), b = static_cast<double>(batch);
    return (n * n / b) * (1.0 - b / n) * covariance / (temperature * temperature);
}

std::string methodTitle(const RunConfig &config, bool controlVariates)
{
    const std::string name = config.method == TestMethod::Sghmc ? "SGHMC" : "SGLD";
    return controlVariates ? name + "-CV" : name;
}

// One method entry's sentence.
std::string forecastSentence(const RunConfig &config, const Model &model, const GaussianApproximation &fit)
{
    const bool controlVariates = resolvedControlVariates(config) != ControlVariates::None;
    const DataIndex batch = gradBatchFor(config, model.dataSize());
    const GradientDynamics dynamics =
        config.method == TestMethod::Sghmc ? GradientDynamics::Hamiltonian : GradientDynamics::Langevin;
    // H = Σ⁻¹ from the fit's factor: Σ = L Lᵀ.
    const Eigen::MatrixXd factorInverse =
        fit.covarianceFactor.triangularView<Eigen::Lower>().solve(Eigen::MatrixXd::Identity(fit.mode.size(), fit.mode.size()));
    const Eigen::MatrixXd precision = factorInverse.transpose() * factorInverse;
    const Eigen::MatrixXd noise = gradientNoise(model, fit, controlVariates, batch, config.temperature);
    const double n = static_cast<double>(model.dataSize());
    const auto cost = [&](const GradientDynamicsForecast &at) { return static_cast<double>(batch) * at.autocorrelation; };

    std::string text = methodTitle(config, controlVariates) + " forecast (the Laplace fit's Gaussian as the posterior; "
                       "the gradient's noise from " + std::to_string(batch) + " of the rows"
                       + (controlVariates ? ", less their values at the mode," : "") + " as at the fit): at step "
                       + figure(config.step);
    if (config.sgDecay > 0.0)
        text += " (its first; the schedule shrinks it)";
    const GradientDynamicsForecast atStep =
        forecastGradientDynamics(dynamics, precision, noise, config.step, config.sghmcFriction);
    if (!atStep.stable)
        text += " the dynamics diverge: the step is too long for the posterior's narrowest direction";
    else
        text += " the chain's sds come out about " + figure(atStep.sdRatio)
                + " times the posterior's (its worst coordinate), and an effective draw takes about "
                + figure(atStep.autocorrelation) + " iterations, " + figure(cost(atStep)) + " points ("
                + figure(cost(atStep) / n) + " times full-data Metropolis' N)";
    const std::optional<double> within =
        largestStepWithin(dynamics, precision, noise, config.sghmcFriction, kSdTolerance, 16.0 * config.step);
    if (!within)
        return text + "; no step keeps its sds within 10 % of the posterior's";
    const GradientDynamicsForecast atWithin =
        forecastGradientDynamics(dynamics, precision, noise, *within, config.sghmcFriction);
    const double ratio = cost(atWithin) / n;
    text += "; sds within 10 % of the posterior's need a step of at most " + figure(*within)
            + ", where an effective draw takes about " + figure(cost(atWithin)) + " points (" + figure(ratio)
            + " times full-data Metropolis')";
    if (ratio > 10.0)
        text += ": within that bias it cannot come within ten times full-data Metropolis' cost on these data"
                + std::string(controlVariates ? "" : "; sgld+taylor1 (control variates) reads far fewer")
                + ", and smh is exact";
    return text;
}

bool movesByGradients(TestMethod method)
{
    return method == TestMethod::Sgld || method == TestMethod::Sghmc;
}

} // namespace

void prepareGradientForecast(RunOutcome &outcome, const PreparedData &prepared,
                             const std::shared_ptr<const TimedLaplaceFit> &laplace, RunObserver &observer,
                             std::stop_token stop)
{
    const RunRequest &request = outcome.request;
    if (std::none_of(request.methods.begin(), request.methods.end(), movesByGradients))
        return;
    const Model &model = *prepared.dataset.model;
    std::vector<std::string> sentences;
    try {
        if (!model.hasGradient())
            throw std::invalid_argument("'" + model.name() + "' has no gradients");
        if (!laplace && !model.capabilities().has(ModelCapability::LaplaceFit))
            throw std::invalid_argument("'" + model.name() + "' has no Laplace fit");
        const GaussianApproximation fit =
            fitForForecast(model, laplace, prepared.laplaceFits.get(), request.config.temperature, stop);
        for (std::size_t index = 0; index < request.methods.size(); ++index)
            if (movesByGradients(request.methods[index]))
                sentences.push_back(forecastSentence(request.methodConfig(index), model, fit));
    } catch (const Cancelled &) {
        throw;
    } catch (const std::exception &error) {
        sentences.assign(1, "SGLD and SGHMC forecast not made: " + std::string(error.what()));
    }
    std::string joined;
    for (const std::string &sentence : sentences)
        joined += (joined.empty() ? "" : ". ") + sentence;
    outcome.gradientForecast = joined;
    observer.stageStarted(RunStage::Forecast, joined); // a sentence, said once; no progress follows
}

} // namespace core
