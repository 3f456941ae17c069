#pragma once
/// Every setting of a run, written the same way into sample-file headers (as `# key = value`
/// text) and run summaries (as typed JSON), so the two never drift apart.
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/experiment/settings/run_config.h"
#include "core/experiment/settings/settings_table.h"
#include "core/io/samples_csv.h"

namespace core {

using RunSettings = std::vector<std::pair<std::string, SettingValue>>;

/// The settings of `config` that define a run, in the table's order (settings_table.h).
RunSettings runSettings(const RunConfig &config);

/// The settings read back from `# key = value` lines that runSettings wrote (a samples file's
/// header), so that a run can be made again. Other keys (the data's description, the chain's
/// totals) are skipped. Throws std::invalid_argument naming the key whose value does not parse,
/// when `dataset` or `method` is missing, or when the settings are invalid.
RunConfig runConfigFromMetadata(const CsvMetadata &metadata);

/// As `# key = value` lines: numbers in round-trip form, booleans as 0/1.
CsvMetadata toMetadata(const RunSettings &settings);

/// Adds every setting to `json` with its type.
void addTo(nlohmann::ordered_json &json, const RunSettings &settings);

} // namespace core
