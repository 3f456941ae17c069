#pragma once
/// The run service's SMH forecast (smh_forecast.h): made before the chains of a request that runs
/// SMH with Crank–Nicolson moves around a Laplace fit, one sentence per Taylor order run, said to
/// the observer before the sampling starts and kept in RunOutcome::smhForecast. It says whether
/// the chain can mix, and how many samples it needs, before the user waits for it.
#include <array>
#include <memory>
#include <stop_token>

#include "core/experiment/inputs/laplace_fits.h"
#include "core/experiment/service/run_observer.h"
#include "core/models/control_variates.h"

namespace core {

/// `laplace`: the request's fit (null when its proposal made none: then nothing is forecast).
/// `controlVariates`: the residual models by order, as prepared for the chains. Throws
/// Cancelled when `stop` is requested; a forecast that fails is said, not thrown.
void prepareSmhForecast(RunOutcome &outcome, const std::shared_ptr<const TimedLaplaceFit> &laplace,
                        const std::array<std::shared_ptr<const ControlVariateModel>, 3> &controlVariates,
                        RunObserver &observer, std::stop_token stop);

} // namespace core
