#pragma once
/// The files and the table a sweep (sweep.h) leaves behind, one writer each for the CLI and,
/// later, the GUI. Writers are atomic: on failure they throw std::runtime_error naming the
/// path and leave no partial file.
#include <string>

#include <nlohmann/json.hpp>

#include "core/experiment/sweep/sweep.h"

namespace core {

/// The CSV header, exactly: one row per SweepRow.
inline constexpr const char *kSweepCsvHeader =
    "setting,value,method,trial,mean_batch,acceptance_rate,correction_linf,posterior_tv,ess_bulk_min,"
    "ess_per_second,data_points_per_ess,test_accuracy,wall_seconds,reference_shift,reference_sd_ratio,r_hat,mixing";

/// The rows as CSV under kSweepCsvHeader: numbers in round-trip form, an empty cell for a
/// figure that does not apply (NaN), methods as the CLI spells them. No comment lines, so that
/// any CSV reader takes it; the settings are in the summary JSON.
std::string sweepCsv(const SweepOutcome &outcome);
void writeSweepCsv(const SweepOutcome &outcome, const std::string &path);

/// A fixed-width table for a terminal: one line per row, columns that apply to no row left out.
std::string sweepTableText(const SweepOutcome &outcome);

/// What the table's rows whose chain has not mixed mean, and which they are ("step = 0.2 sghmc
/// trial 0: not converged, split R-hat 1.0812 > 1.01"), under Vehtari et al.'s rule; empty
/// when every measured row mixed. The CLI prints it under the table.
std::string sweepMixingNote(const SweepOutcome &outcome);

/// The base settings (but the varied one, whose base value no point ran), the axis, the methods, trials and
/// points, the total wall time, the rows (NaN as null; with ess_bulk_median besides the CSV's
/// figures) and, with trials > 1, `pooled`: each point's methods with their trials pooled.
nlohmann::ordered_json sweepSummaryJson(const SweepOutcome &outcome, const std::string &program);
void writeSweepSummary(const SweepOutcome &outcome, const std::string &path, const std::string &program);

} // namespace core
