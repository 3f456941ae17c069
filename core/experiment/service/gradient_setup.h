#pragma once
/// The run service's forecast for the methods without an accept step, SGLD and SGHMC
/// (gradient_dynamics_forecast.h): made before the chains of a request that runs one of them on
/// a model with gradients and a Laplace fit, one sentence per method entry, said to the observer
/// before the sampling starts and kept in RunOutcome::gradientForecast. It says how far the
/// chain's spread will be from the posterior's at the run's step, what an effective draw will
/// cost, and the step that keeps the spread within 10 %. Where the request leaves the step to it
/// (RunConfig::sgStepBias), it takes that step for the entry (RunRequest::methodSteps) when it
/// is affordable and the run's draws mix at it, and says so; otherwise it says what stands in
/// the way and the run keeps its step.
#include <memory>
#include <stop_token>

#include "core/experiment/inputs/laplace_fits.h"
#include "core/experiment/inputs/run_input_cache.h"
#include "core/experiment/service/run_observer.h"

namespace core {

/// `laplace`: the request's fit when its proposal made one (else one is made here, or taken from
/// the data's kept fits). Throws Cancelled when `stop` is requested; a forecast that cannot be
/// made (no gradients, no fit, a fit that fails) is said, not thrown.
void prepareGradientForecast(RunOutcome &outcome, const PreparedData &prepared,
                             const std::shared_ptr<const TimedLaplaceFit> &laplace, RunObserver &observer,
                             std::stop_token stop);

} // namespace core
