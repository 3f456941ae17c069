#include "core/experiment/service/gradient_setup.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "core/acceptance/forecast_rows.h"
#include "core/correction/cancelled.h"
#include "core/experiment/reports/mixing_check.h"
#include "core/io/number_format.h"
#include "core/proposals/gradient_dynamics_forecast.h"
#include "core/random/rng.h"

namespace core {

namespace {

constexpr int kControlVariateDraws = 16;
// The bulk ESS's reading of the iterations per effective draw is said where it exceeds the
// forecast's by more than a fifth (a chain's own ESS scatters by about that much).
constexpr double kTruncationShown = 1.2;
constexpr double kSdTolerance = 0.1; // the spread within 10 % of the posterior's
// A step left to the forecast is taken only where an effective draw costs at most this many
// times N, full-data Metropolis' cost of about one effective draw per iteration.
constexpr double kMostTimesFullData = 10.0;
// ... and where the run's draws make the effective draws a mixed chain needs (mixing_check.h).
constexpr double kLeastEffectiveDraws = kMixedEssPerChainAtLeast;

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

// One method entry's forecast: its sentence, and the step it takes when the request leaves the
// step to the forecast (0 where it keeps config.step).
struct GradientChoice {
    std::string sentence;
    double chosenStep = 0.0;
};

std::string percent(double fraction)
{
    return figure(100.0 * fraction) + " %";
}

GradientChoice forecastFor(const RunConfig &config, const Model &model, const GaussianApproximation &fit)
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
    // The draws after the burn-in: the chain's length for the bulk ESS's reading.
    const std::int64_t keptCount = std::max<std::int64_t>(1, config.samples - config.burnIn);
    const double keptDraws = static_cast<double>(keptCount);
    const auto forecastAt = [&](double step) {
        return forecastGradientDynamics(dynamics, precision, noise, step, config.sghmcFriction, keptCount);
    };
    const bool chooses = config.sgStepBias > 0.0;
    const double tolerance = chooses ? config.sgStepBias : kSdTolerance;
    const std::optional<double> within =
        largestStepWithin(dynamics, precision, noise, config.sghmcFriction, tolerance, 16.0 * config.step);
    const std::optional<GradientDynamicsForecast> atWithin =
        within ? std::optional(forecastAt(*within)) : std::nullopt;
    // Those draws over the iterations an effective draw takes at that step.
    const double withinDraws = atWithin ? keptDraws / atWithin->autocorrelation : 0.0;
    const bool affordable = atWithin && cost(*atWithin) <= kMostTimesFullData * n;
    GradientChoice choice;
    if (chooses && affordable && withinDraws >= kLeastEffectiveDraws)
        choice.chosenStep = *within;
    const double step = choice.chosenStep > 0.0 ? choice.chosenStep : config.step;

    std::string &text = choice.sentence;
    text = methodTitle(config, controlVariates) + " forecast (the Laplace fit's Gaussian as the posterior; "
           "the gradient's noise from " + std::to_string(batch) + " of the rows"
           + (controlVariates ? ", less their values at the mode," : "") + " as at the fit): at step " + figure(step);
    if (choice.chosenStep > 0.0)
        text += ", the largest whose sds stay within " + percent(tolerance)
                + " of the posterior's (taken from this forecast: --sg-step-bias " + figure(tolerance) + "),";
    if (config.sgDecay > 0.0)
        text += " (its first; the schedule shrinks it)";
    // At a chosen step its forecast is the one already made.
    const GradientDynamicsForecast atStep = choice.chosenStep > 0.0 ? *atWithin : forecastAt(step);
    if (!atStep.stable)
        text += " the dynamics diverge: the step is too long for the posterior's narrowest direction";
    else
        text += " the chain's sds come out about " + figure(atStep.sdRatio)
                + " times the posterior's (its worst coordinate), and an effective draw takes about "
                + figure(atStep.autocorrelation) + " iterations, " + figure(cost(atStep)) + " points ("
                + figure(cost(atStep) / n) + " times full-data Metropolis' N)";
    // The bulk ESS counts the same draws differently where the autocorrelations swing negative:
    // said here, so that the diagnostics' figure is not read as the forecast's error.
    if (const std::optional<double> truncated = atStep.bulkEssAutocorrelation;
        truncated && *truncated > kTruncationShown * atStep.autocorrelation)
        text += "; the bulk ESS will count one every " + figure(*truncated)
                + " iterations, since its truncated sum leaves out the negative autocorrelations of moves "
                  "that swing back (SGHMC's momentum at a long step)";
    if (choice.chosenStep > 0.0)
        return choice;
    if (!within) {
        text += "; no step keeps its sds within " + percent(tolerance) + " of the posterior's";
        return choice;
    }
    const double ratio = cost(*atWithin) / n;
    text += "; sds within " + percent(tolerance) + " of the posterior's need a step of at most " + figure(*within)
            + ", where an effective draw takes about " + figure(cost(*atWithin)) + " points (" + figure(ratio)
            + " times full-data Metropolis')";
    if (!affordable)
        text += ": within that bias it cannot come within ten times full-data Metropolis' cost on these data"
                + std::string(controlVariates ? "" : "; sgld+taylor1 (control variates) reads far fewer")
                + ", and smh is exact";
    else if (chooses)
        // Affordable, but not in this run's draws: said, and the step kept, rather than a chain
        // that cannot mix in the draws it has.
        text += ", but this run's " + figure(keptDraws) + " draws after the burn-in would make about "
                + figure(withinDraws) + " effective draws there, under the "
                + std::to_string(static_cast<int>(kLeastEffectiveDraws)) + " a chain needs (about "
                + figure(std::ceil(kLeastEffectiveDraws * atWithin->autocorrelation * static_cast<double>(config.samples)
                                   / keptDraws))
                + " --samples would do, with the burn-in the same share of them); the run keeps step "
                + figure(config.step);
    return choice;
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
    std::vector<double> steps(request.methods.size(), 0.0);
    try {
        if (!model.hasGradient())
            throw std::invalid_argument("'" + model.name() + "' has no gradients");
        if (!laplace && !model.capabilities().has(ModelCapability::LaplaceFit))
            throw std::invalid_argument("'" + model.name() + "' has no Laplace fit");
        const GaussianApproximation fit =
            fitForForecast(model, laplace, prepared.laplaceFits.get(), request.config.temperature, stop);
        for (std::size_t index = 0; index < request.methods.size(); ++index)
            if (movesByGradients(request.methods[index])) {
                GradientChoice choice = forecastFor(request.methodConfig(index), model, fit);
                sentences.push_back(std::move(choice.sentence));
                steps[index] = choice.chosenStep;
            }
    } catch (const Cancelled &) {
        throw;
    } catch (const std::exception &error) {
        sentences.assign(1, "SGLD and SGHMC forecast not made: " + std::string(error.what()));
    }
    std::string joined;
    for (const std::string &sentence : sentences)
        joined += (joined.empty() ? "" : ". ") + sentence;
    outcome.gradientForecast = joined;
    if (std::any_of(steps.begin(), steps.end(), [](double step) { return step > 0.0; }))
        outcome.request.methodSteps = std::move(steps);
    observer.stageStarted(RunStage::Forecast, joined); // a sentence, said once; no progress follows
}

} // namespace core
