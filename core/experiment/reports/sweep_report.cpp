#include "core/experiment/reports/sweep_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <sstream>

#include "core/experiment/reports/mixing_check.h"
#include "core/experiment/reports/run_record.h"
#include "core/io/atomic_file.h"
#include "core/io/number_format.h"
#include "core/io/json_file.h"

namespace core {
namespace {

std::string csvCell(double value)
{
    return std::isnan(value) ? std::string() : formatRoundTrip(value);
}

// The effective samples and what each cost, which a trial's row (SweepRow) and a point's
// pooled trials (PooledEss) hold under the same names and report the same way.
template <typename EssFigures>
void addEssSpeed(nlohmann::ordered_json &entry, const EssFigures &figures)
{
    entry["ess_bulk_min"] = jsonNumber(figures.essBulkMin);
    entry["ess_bulk_median"] = jsonNumber(figures.essBulkMedian);
    entry["ess_per_second"] = jsonNumber(figures.essPerSecond);
    entry["data_points_per_ess"] = jsonNumber(figures.dataPointsPerEss);
}

std::string formatted(const char *format, double value)
{
    if (std::isnan(value))
        return "-";
    char text[48];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

// One column of the terminal table: its header and how to show a row's figure.
struct TableColumn {
    std::string header;
    std::function<double(const SweepRow &)> figure; ///< null for the text columns
    const char *format = "%g";
    std::function<std::string(const SweepRow &)> text;
};

} // namespace

std::string sweepCsv(const SweepOutcome &outcome)
{
    std::ostringstream out;
    out << kSweepCsvHeader << '\n';
    for (const SweepRow &row : outcome.rows)
        out << row.setting << ',' << formatRoundTrip(row.value) << ',' << row.methodLabel() << ',' << row.trial
            << ',' << csvCell(row.meanBatch) << ',' << csvCell(row.acceptanceRate) << ',' << csvCell(row.correctionLinf)
            << ',' << csvCell(row.posteriorTv) << ',' << csvCell(row.essBulkMin) << ',' << csvCell(row.essPerSecond)
            << ',' << csvCell(row.dataPointsPerEss) << ',' << csvCell(row.testAccuracy) << ','
            << csvCell(row.wallSeconds) << ',' << csvCell(row.referenceShift) << ',' << csvCell(row.referenceSdRatio)
            << ',' << csvCell(row.splitRhat) << ',' << mixingName(row.mixing.level) << '\n';
    return out.str();
}

void writeSweepCsv(const SweepOutcome &outcome, const std::string &path)
{
    const std::string text = sweepCsv(outcome);
    writeFileAtomically(path, [&](std::ostream &out) { out << text; });
}

std::string sweepTableText(const SweepOutcome &outcome)
{
    const std::vector<TableColumn> all = {
        {outcome.settingKey, nullptr, "", [](const SweepRow &r) { return formatted("%.6g", r.value); }},
        {"method", nullptr, "", [](const SweepRow &r) { return r.methodLabel(); }},
        {"trial", nullptr, "", [](const SweepRow &r) { return std::to_string(r.trial); }},
        {"mean batch", [](const SweepRow &r) { return r.meanBatch; }, "%.1f", nullptr},
        {"accept", [](const SweepRow &r) { return r.acceptanceRate; }, "%.3f", nullptr},
        {"corr L-inf", [](const SweepRow &r) { return r.correctionLinf; }, "%.2e", nullptr},
        {"TV", [](const SweepRow &r) { return r.posteriorTv; }, "%.3f", nullptr},
        {"min ESS", [](const SweepRow &r) { return r.essBulkMin; }, "%.0f", nullptr},
        {"ESS/s", [](const SweepRow &r) { return r.essPerSecond; }, "%.1f", nullptr},
        {"points/ESS", [](const SweepRow &r) { return r.dataPointsPerEss; }, "%.3g", nullptr},
        {"test acc", [](const SweepRow &r) { return r.testAccuracy; }, "%.4f", nullptr},
        {"wall s", [](const SweepRow &r) { return r.wallSeconds; }, "%.2f", nullptr},
        {"ref shift", [](const SweepRow &r) { return r.referenceShift; }, "%.3f", nullptr},
        {"ref sd ratio", [](const SweepRow &r) { return r.referenceSdRatio; }, "%.3f", nullptr},
        {"R-hat", [](const SweepRow &r) { return r.splitRhat; }, "%.3f", nullptr},
        {"mixing", nullptr, "",
         [](const SweepRow &r) {
             const std::string name = mixingName(r.mixing.level);
             return name.empty() ? std::string("-") : name;
         }},
    };
    // Cells first, so that widths fit them; a figure no row has is noise in every line.
    std::vector<std::vector<std::string>> columns;
    for (const TableColumn &column : all) {
        if (column.figure
            && std::none_of(outcome.rows.begin(), outcome.rows.end(),
                            [&](const SweepRow &r) { return !std::isnan(column.figure(r)); }))
            continue;
        std::vector<std::string> cells = {column.header};
        for (const SweepRow &row : outcome.rows)
            cells.push_back(column.figure ? formatted(column.format, column.figure(row)) : column.text(row));
        columns.push_back(std::move(cells));
    }
    std::ostringstream out;
    const std::size_t lines = outcome.rows.size() + 1;
    for (std::size_t line = 0; line < lines; ++line) {
        for (std::size_t c = 0; c < columns.size(); ++c) {
            std::size_t width = 0;
            for (const std::string &cell : columns[c])
                width = std::max(width, cell.size());
            const std::string &cell = columns[c][line];
            out << (c == 0 ? "" : "  ") << std::string(width - cell.size(), ' ') << cell;
        }
        out << '\n';
    }
    return out.str();
}

std::string sweepMixingNote(const SweepOutcome &outcome)
{
    std::string lines;
    for (const SweepRow &row : outcome.rows) {
        if (row.mixing.level != Mixing::NotConverged && row.mixing.level != Mixing::NotMixed)
            continue;
        lines += "- " + outcome.settingKey + " = " + formatted("%.6g", row.value) + " " + row.methodLabel() + " trial "
                 + std::to_string(row.trial) + ": " + mixingName(row.mixing.level) + ", " + row.mixing.figures + "\n";
    }
    if (lines.empty())
        return lines;
    return "Mixing (" + mixingRule()
           + "): the ESS is computed on ranks, so a chain that wandered off can show a large ESS; the speed "
             "figures of these rows describe where the chain went, not the posterior:\n"
           + lines;
}

nlohmann::ordered_json sweepSummaryJson(const SweepOutcome &outcome, const std::string &program)
{
    const SweepRequest &request = outcome.request;
    nlohmann::ordered_json json;
    json["program"] = program;
    addTo(json, runSettings(request.base.config));
    json.erase(outcome.settingKey); // its base value was never run; `values` has what was
    json["vary"] = outcome.settingKey;
    json["from"] = request.axis.from;
    json["to"] = request.axis.to;
    json["count"] = request.axis.count;
    json["log_spacing"] = request.axis.logSpacing;
    json["values"] = outcome.values;
    std::vector<std::string> methods;
    for (std::size_t index = 0; index < request.base.methods.size(); ++index)
        methods.push_back(request.base.methodLabel(index));
    json["methods"] = methods;
    json["trials"] = request.base.chains;
    json["threads"] = request.threads;
    json["points_completed"] = outcome.pointsCompleted;
    json["stopped"] = outcome.stopped;
    json["wall_seconds"] = outcome.wallSeconds;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const SweepRow &row : outcome.rows) {
        nlohmann::ordered_json entry;
        entry["value"] = row.value;
        entry["method"] = row.methodLabel();
        entry["trial"] = row.trial;
        entry["mean_batch"] = jsonNumber(row.meanBatch);
        entry["acceptance_rate"] = jsonNumber(row.acceptanceRate);
        entry["correction_linf"] = jsonNumber(row.correctionLinf);
        entry["posterior_tv"] = jsonNumber(row.posteriorTv);
        addEssSpeed(entry, row);
        entry["test_accuracy"] = jsonNumber(row.testAccuracy);
        entry["reference_shift"] = jsonNumber(row.referenceShift);
        entry["reference_sd_ratio"] = jsonNumber(row.referenceSdRatio);
        entry["wall_seconds"] = jsonNumber(row.wallSeconds);
        entry["tuna_chi"] = jsonNumber(row.tunaChi);
        entry["r_hat"] = jsonNumber(row.splitRhat);
        if (const std::string mixing = mixingName(row.mixing.level); !mixing.empty())
            entry["mixing"] = mixing;
        else
            entry["mixing"] = nullptr;
        rows.push_back(std::move(entry));
    }
    json["rows"] = rows;
    if (!outcome.pooled.empty()) {
        nlohmann::ordered_json pooled = nlohmann::ordered_json::array();
        for (const SweepPooled &point : outcome.pooled) {
            const PooledEss &p = point.figures;
            nlohmann::ordered_json entry;
            entry["value"] = point.value;
            entry["method"] = p.methodLabel();
            entry["chains"] = p.chains;
            addEssSpeed(entry, p);
            entry["wall_seconds"] = jsonNumber(p.wallSeconds);
            pooled.push_back(std::move(entry));
        }
        json["pooled"] = pooled;
    }
    return json;
}

void writeSweepSummary(const SweepOutcome &outcome, const std::string &path, const std::string &program)
{
    writeJsonFile(path, sweepSummaryJson(outcome, program));
}

} // namespace core
