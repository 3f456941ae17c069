#pragma once
/// The run service's control variates (control_variates.h): the posterior mode and the Taylor
/// proxies, made once per request for every order its channels ask for, and each chain's
/// figures about them. The mode's cost is reported apart
/// from the sampling, with how far the chain strayed from θ̂ and the residuals' spread.
#include <array>
#include <memory>
#include <stop_token>

#include "core/experiment/inputs/datasets.h"
#include "core/experiment/service/run_observer.h"
#include "core/models/control_variates.h"

namespace core {

/// By Taylor order (index 1 and 2; null where no channel uses it). The mode is found once, at
/// the request's temperature, and shared by both orders; each order's sums take one pass.
/// Appends a ControlVariateReport per order to outcome.controlVariates. The mode is also found,
/// into `mode`, when a channel runs TunaMH, FlyMC or zigzag+none without proxies: their chains start there and
/// FlyMC tunes its bounds there (a report of order 0). Newton starts from `start` when given
/// (the Laplace fit's mode, the same posterior's: it then converges in its first step), else
/// from the model's initial θ. Throws Cancelled when `stop` is requested, std::invalid_argument
/// when the model has no proxies.
std::array<std::shared_ptr<const ControlVariateModel>, 3> prepareControlVariates(RunOutcome &outcome,
                                                                                 const DatasetInstance &dataset,
                                                                                 RunObserver &observer,
                                                                                 std::stop_token stop, Vector &mode,
                                                                                 const Vector &start = {});

/// Fills report.maxDistanceFromAnchor, residualSd and plainRatioSd from the chain's draws.
void addControlVariateFigures(const ChainResult &chain, const ControlVariateModel &model, ChainReport &report);

} // namespace core
