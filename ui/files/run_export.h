#pragma once
// The window's side of the run report (core/experiment/reports/run_report.h): the same writers as the
// CLI's, with Qt paths and "mh-explorer" as the program. Both are atomic: on failure they
// throw std::runtime_error naming the path and leave no partial file.
//
// Writing 10⁶ rows takes about a second, so the window calls these on a worker thread; they
// only read the immutable RunOutcome.
#include <QString>
#include <QStringList>

#include "ui/run/run_messages.h"

namespace ui {

/// The program name written into sample files and summaries from the window.
inline constexpr const char *kProgramName = "mh-explorer";

/// Writes every chain's CSV (one file per chain when there are several, named
/// "<path stem>-<method>-chain<k>.<suffix>"). Returns the paths written. Throws
/// std::runtime_error (path and reason) on the first failure, or std::invalid_argument when the
/// outcome has no chains.
QStringList writeRunSamples(const RunOutcome &outcome, const QString &path);

/// Writes the run summary JSON to `path`. Throws std::runtime_error on failure.
void writeRunSummary(const RunOutcome &outcome, const QString &path);

} // namespace ui
