#pragma once
// Sample and summary files of a finished run, written by the Qt-free core writers
// (design.md Sec. 6): one CmdStan-like CSV per chain (core::writeSamplesCsv) and a JSON
// summary (core::JsonObject) of the settings and every chain's diagnostics. Both are atomic:
// on failure they throw std::runtime_error naming the path and leave no partial file.
//
// Writing 10⁶ rows takes about a second, so the window calls these on a worker thread; they
// only read the immutable RunOutcome.
#include <string>

#include <QString>
#include <QStringList>

#include "core/io/json_writer.h"
#include "core/io/samples_csv.h"
#include "ui/sampler_worker.h"

namespace ui {

/// The `# key = value` header of one chain's CSV: every setting of the run and the chain.
core::CsvMetadata csvMetadata(const RunOutcome &outcome, const ChainReport &chain);

/// The file of one chain: `path` itself for a single chain, else `path` with
/// "-<method>-chain<k>" inserted before the suffix.
QString chainCsvPath(const RunOutcome &outcome, const ChainReport &chain, const QString &path);

/// Writes every chain's CSV (lp__ included when the run has the exact posterior). Returns the
/// paths written. Throws std::runtime_error (path and reason) on the first failure, or
/// std::invalid_argument when the outcome has no chains.
QStringList writeRunSamples(const RunOutcome &outcome, const QString &path);

/// Settings, correction and per-chain summaries as one JSON object.
core::JsonObject runSummaryJson(const RunOutcome &outcome);
/// Writes runSummaryJson() to `path`. Throws std::runtime_error on failure.
void writeRunSummary(const RunOutcome &outcome, const QString &path);

} // namespace ui
