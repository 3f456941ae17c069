#include "core/experiment/service/tuna_setup.h"

#include <cstdio>
#include <stdexcept>
#include <string>

#include "core/acceptance/tuna_forecast.h"

namespace core {

namespace {

std::string shortNumber(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
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
    if (!runsTuna)
        return;
    const Model &model = *prepared.dataset.model;
    const bool chooseChi = config.tunaChi == 0.0;
    if (!prepared.laplaceFits || !model.capabilities().has(ModelCapability::PointLipschitz)) {
        if (chooseChi)
            throw std::invalid_argument("--tuna-chi 0 chooses chi from TunaMH's forecast, which needs the model's "
                                        "per-point Lipschitz bounds and its Laplace fit; '" + model.name()
                                        + "' lacks one: give --tuna-chi > 0");
        return; // the chain's own set-up says what is missing
    }
    std::shared_ptr<const TimedLaplaceFit> fit = laplace;
    if (!fit) {
        observer.stageStarted(RunStage::LaplaceFit, "Fitting the Laplace approximation for TunaMH's forecast (Newton "
                                                    "steps over the " + std::to_string(outcome.dataSize) + " points)");
        observer.preparationProgress(RunStage::LaplaceFit, -1.0);
        fit = prepared.laplaceFits->at(config.temperature, stop);
    }
    TunaForecast forecast = forecastTuna(model, fit->approximation, config.temperature, chooseChi ? 1.0 : config.tunaChi);
    if (chooseChi) {
        config.tunaChi = forecast.chiForMixing();
        forecast.chi = config.tunaChi;
    }
    outcome.tunaForecast = forecast.summary()
                           + (chooseChi ? "; --tuna-chi 0: chi = " + shortNumber(config.tunaChi) + " from this forecast"
                                        : std::string());
    observer.stageStarted(RunStage::Forecast, outcome.tunaForecast); // a sentence, said once; no progress follows
}

} // namespace core
