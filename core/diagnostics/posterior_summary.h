#pragma once
/// Per-parameter posterior summaries of one or several chains, as CmdStan's stansummary and
/// ArviZ's summary report them: mean, sd, Monte Carlo standard errors, quantiles, bulk and
/// tail ESS and split R-hat (Vehtari, Gelman, Simpson, Carpenter & Bürkner 2021; estimator
/// details in effective_sample_size.h).
#include "core/diagnostics/effective_sample_size.h"

namespace core {

/// Monte Carlo standard error of the posterior mean: sd / sqrt(ESS of the mean), sd over all
/// draws with divisor S − 1. Throws like effectiveSampleSize.
double mcseMean(const ChainDraws &chains);

/// Monte Carlo standard error of the quantile at `prob` (Vehtari et al. 2021, Sec. 4.3):
/// half the distance between the order statistics at the Beta(ESS_q·p + 1, ESS_q·(1 − p) + 1)
/// quantiles 0.1587 and 0.8413 (±1 sd of a normal), ESS_q the quantile ESS. Throws
/// std::domain_error unless 0 < prob < 1, otherwise like effectiveSampleSize.
double mcseQuantile(const ChainDraws &chains, double prob);

struct ParameterSummary {
    double mean = 0.0;
    double sd = 0.0;       ///< over all draws, divisor S − 1
    double mcseMean = 0.0;
    double q5 = 0.0, q50 = 0.0, q95 = 0.0; ///< type-7 quantiles of all draws
    double essBulk = 0.0;
    double essTail = 0.0;
    double rhat = 0.0;     ///< rank-normalised split R-hat, max of bulk and folded
};

/// Everything above for one parameter. Throws like effectiveSampleSize.
ParameterSummary summarizeParameter(const ChainDraws &chains);

} // namespace core
