#include "core/experiment/service/tuna_setup.h"

#include <stdexcept>
#include <string>

#include "core/acceptance/tuna_forecast.h"
#include "core/correction/cancelled.h"
#include "core/io/number_format.h"

namespace core {

namespace {

// Why the forecast cannot be made for `model` (empty when it can): it needs per-point Lipschitz
// bounds, and a Laplace fit unless one is given.
std::string whyNoForecast(const Model &model, bool fitGiven)
{
    const CapabilitySet offered = model.capabilities();
    std::string why = "'";
    why.append(model.name()).append("' has no ");
    if (!offered.has(ModelCapability::PointLipschitz))
        return why.append("per-point Lipschitz bounds");
    if (!fitGiven && !offered.has(ModelCapability::LaplaceFit))
        return why.append("Laplace fit");
    return {};
}

} // namespace

void prepareTunaForecast(RunOutcome &outcome, const PreparedData &prepared,
                         const std::shared_ptr<const TimedLaplaceFit> &laplace, RunObserver &observer,
                         std::stop_token stop)
{
    RunConfig &config = outcome.request.config;
    bool runsTuna = false;
    for (int channel = 0; channel < outcome.request.channelCount(); ++channel)
        runsTuna = runsTuna || outcome.request.channelConfig(channel).method == TestMethod::Tuna;
    const Model &model = *prepared.dataset.model;
    if (!runsTuna || !model.capabilities().has(ModelCapability::PointLipschitz))
        return; // without the bounds TunaMH is refused before the data are made
    const bool chooseChi = config.tunaChi == 0.0;
    std::string whyNot = whyNoForecast(model, laplace != nullptr);
    TunaForecast forecast;
    if (whyNot.empty()) {
        try {
            if (!laplace) {
                observer.stageStarted(RunStage::LaplaceFit, "Fitting the Laplace approximation for TunaMH's forecast "
                                                            "(Newton steps over the " + std::to_string(outcome.dataSize)
                                                            + " points)");
                observer.preparationProgress(RunStage::LaplaceFit, -1.0);
            }
            const GaussianApproximation fit =
                fitForForecast(model, laplace, prepared.laplaceFits.get(), config.temperature, stop);
            forecast = forecastTuna(model, fit, config.temperature, chooseChi ? 1.0 : config.tunaChi, config.adaptTarget);
        } catch (const Cancelled &) {
            throw;
        } catch (const std::exception &error) {
            whyNot = error.what(); // a fit that fails (a singular Hessian) costs the forecast, not the run
        }
    }
    if (!whyNot.empty()) {
        // Said, not silent: the chain runs at the authors' χ where the forecast's cannot be had.
        if (chooseChi)
            config.tunaChi = RunConfig{}.tunaChi;
        outcome.tunaForecast = "TunaMH forecast not made: " + whyNot
                               + (chooseChi ? "; chi is the authors' " + formatSignificant(config.tunaChi, 3) + " instead"
                                            : std::string());
    } else {
        if (chooseChi) {
            config.tunaChi = forecast.chosenChi();
            forecast.chi = config.tunaChi;
        }
        outcome.tunaForecast = forecast.summary();
        if (chooseChi)
            outcome.tunaForecast += ". Chi " + formatSignificant(config.tunaChi, 3)
                                    + " was taken from this forecast (--tuna-chi 0): "
                                    + (forecast.ownKernelBeatsFullData()
                                           ? "its own kernel at its best"
                                           : "moves of scale 1 take the full-data test, the cheapest chain TunaMH "
                                             "can run on these data");
    }
    observer.stageStarted(RunStage::Forecast, outcome.tunaForecast); // a sentence, said once; no progress follows
}

TunaForecast forecastForKernel(const Model &model, const std::shared_ptr<const TimedLaplaceFit> &laplace,
                               double temperature, double adaptTarget, std::stop_token stop)
{
    if (const std::string whyNot = whyNoForecast(model, laplace != nullptr); !whyNot.empty())
        throw std::invalid_argument("TunaMH's chi is left to its forecast, which cannot be made here: " + whyNot);
    return forecastTuna(model, fitForForecast(model, laplace, nullptr, temperature, std::move(stop)), temperature, 1.0,
                        adaptTarget);
}

} // namespace core
