#include "core/experiment/service/smh_setup.h"

#include <string>

#include "core/acceptance/smh_forecast.h"

namespace core {

void prepareSmhForecast(RunOutcome &outcome, const std::shared_ptr<const TimedLaplaceFit> &laplace,
                        const std::array<std::shared_ptr<const ControlVariateModel>, 3> &controlVariates,
                        RunObserver &observer)
{
    // The forecast's moves are the Crank–Nicolson ones around this fit; other proposals move
    // differently, and a request without the fit has nothing to centre them on.
    if (!laplace || outcome.request.config.proposal != ProposalKind::LaplaceCrankNicolson)
        return;
    std::array<bool, 3> said{};
    for (int channel = 0; channel < outcome.request.channelCount(); ++channel) {
        const RunConfig settings = outcome.request.channelConfig(channel);
        if (settings.method != TestMethod::Scalable)
            continue;
        const auto order = static_cast<std::size_t>(controlVariateOrder(settings));
        if (said[order] || !controlVariates[order])
            continue; // SMH without proxies is refused before the data are made
        said[order] = true;
        const SmhForecast forecast =
            forecastSmh(*controlVariates[order], laplace->approximation, settings.temperature, settings.smhBound,
                        settings.adaptTarget, static_cast<double>(settings.samples), static_cast<double>(settings.burnIn));
        if (!outcome.smhForecast.empty())
            outcome.smhForecast += ". ";
        const std::string sentence = forecast.summary();
        outcome.smhForecast += sentence;
        observer.stageStarted(RunStage::Forecast, sentence); // a sentence, said once; no progress follows
    }
}

} // namespace core
