#pragma once
/// The run service: the one place that prepares a run, runs its chains, diagnoses them and
/// hands back what reports need (the shape of Stan's services layer). The CLI's run, compare
/// and bench commands and the GUI's worker are thin callers: they build a RunRequest, observe
/// it (RunObserver) and print, plot or write the RunOutcome (run_report.h).
///
/// Steps: the data (generated or loaded once and shared by every channel), the correction table
/// (when a method samples X_corr; Seita et al., "Minibatch Acceptance Test", Sec. 5), AustereMH's
/// design grid and pilot (when a method needs them; Korattikara et al., "Austerity in MCMC Land",
/// supplement Sec. D), the Laplace fit (once for every laplace-* chain), the chains (parallel where
/// asked), then per chain the summary, bulk ESS, the posterior metrics (mixture) or the classifier
/// figures (logistic regression), and per method the split R-hat.
#include "core/experiment/inputs/run_input_cache.h"
#include "core/experiment/service/run_observer.h"
#include "core/experiment/service/run_outcome.h"
#include "core/experiment/settings/run_request.h"

namespace core {

/// Runs every channel of `request` to completion or stop. A stop during the preparation or the
/// chains returns an outcome with `stopped` set (chains that had started are reported).
/// Throws std::invalid_argument for invalid settings (before any work), std::runtime_error
/// for unreadable data files (naming the file), and rethrows the first chain's failure after
/// stopping the others.
///
/// `inputs` (optional, owned by the caller) supplies the data, the mixture's exact posteriors
/// and the logistic model's Laplace fits when an earlier request on the same data settings made them, and keeps those
/// this request makes for the next; the figures are the same either way. Null: the request
/// makes its own and drops them when it returns.
RunOutcome runRequest(const RunRequest &request, RunObserver &observer, const RunControls &controls = {},
                      RunInputCache *inputs = nullptr);

/// The same without an observer.
RunOutcome runRequest(const RunRequest &request, const RunControls &controls = {});

} // namespace core
