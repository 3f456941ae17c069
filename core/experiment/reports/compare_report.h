#pragma once
/// What `compare` leaves behind besides the run's own files (run_report.h): the Markdown table
/// of the paper's Tables 1 and 4 (Seita et al., "Minibatch Acceptance Test" (later version), Sec.
/// 6.1, its appendix Table 4), one row per method with each figure's mean ± sd over the trials, and
/// the same figures per trial as CSV.
#include <string>

#include "core/experiment/service/run_outcome.h"

namespace core {

/// A compare's table: per method, mean ± sd over its chains (the trials) of the minibatch size,
/// the fraction of iterations reading all N, full-scan points, acceptance, the posterior
/// figures (mixture), wall time and the full-scan share of it, the speed per effective sample,
/// and with several trials each method's trials pooled.
std::string compareTableMarkdown(const RunOutcome &outcome);
/// The same figures per trial, one row per chain. Atomic: on failure it throws
/// std::runtime_error naming the path and leaves no partial file.
void writeCompareCsv(const RunOutcome &outcome, const std::string &path);

} // namespace core
