#include "core/experiment/service/smh_setup.h"

#include <exception>
#include <string>

#include "core/acceptance/smh_forecast.h"
#include "core/correction/cancelled.h"

namespace core {

void prepareSmhForecast(RunOutcome &outcome, const std::shared_ptr<const TimedLaplaceFit> &laplace,
                        const std::array<std::shared_ptr<const ControlVariateModel>, 3> &controlVariates,
                        RunObserver &observer, std::stop_token stop)
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
        if (stop.stop_requested())
            throw Cancelled();
        std::string sentence;
        try {
            // A run until stopped has no count of samples for the forecast to judge.
            const double samples = outcome.request.untilStopped ? 0.0 : static_cast<double>(settings.samples);
            sentence = forecastSmh(*controlVariates[order], laplace->approximation, settings.temperature,
                                   settings.smhBound, settings.adaptTarget, samples, static_cast<double>(settings.burnIn))
                           .summary();
        } catch (const Cancelled &) {
            throw;
        } catch (const std::exception &error) {
            // The forecast is advice: where it cannot be made the chain still runs, and says why.
            sentence = "SMH-" + std::to_string(order) + " forecast not made: " + error.what();
        }
        if (!outcome.smhForecast.empty())
            outcome.smhForecast += ". ";
        outcome.smhForecast += sentence;
        observer.stageStarted(RunStage::Forecast, sentence); // a sentence, said once; no progress follows
    }
}

} // namespace core
