#pragma once
/// The run service's TunaMH forecast (tuna_forecast.h): made before the chains of a request that
/// runs TunaMH on a model with per-point Lipschitz bounds and a Laplace fit, said to the
/// observer before the sampling starts, and kept in RunOutcome::tunaForecast. A request whose χ
/// is 0 (the recommended preset on tall data) gets the forecast's χ, the one that with the scale
/// the burn-in learns reads the fewest points per effective draw (TunaForecast::chosenChi),
/// written into outcome.request so that every channel, header and summary shows the χ that ran.
#include <memory>
#include <stop_token>

#include "core/acceptance/tuna_forecast.h"
#include "core/experiment/inputs/laplace_fits.h"
#include "core/experiment/inputs/run_input_cache.h"
#include "core/experiment/service/run_observer.h"

namespace core {

/// `laplace`: the request's fit when its proposal made one (else it is made here when needed).
/// Where the forecast cannot be made (no Laplace fit, or one that fails), RunOutcome::tunaForecast
/// says why, and a χ of 0 becomes the authors' 1e-5. Throws Cancelled when `stop` is requested.
void prepareTunaForecast(RunOutcome &outcome, const PreparedData &prepared,
                         const std::shared_ptr<const TimedLaplaceFit> &laplace, RunObserver &observer,
                         std::stop_token stop);

/// The forecast for a running chain that switches to TunaMH with χ = 0 (a live kernel
/// change in the app): around `laplace` when given (the request's fit at `temperature`), else
/// around a fit made here. Throws std::invalid_argument, which refuses the change, when the
/// model lacks per-point Lipschitz bounds or a Laplace fit.
TunaForecast forecastForKernel(const Model &model, const std::shared_ptr<const TimedLaplaceFit> &laplace,
                               double temperature, double adaptTarget, std::stop_token stop);

} // namespace core
