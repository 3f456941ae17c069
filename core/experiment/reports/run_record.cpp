#include "core/experiment/reports/run_record.h"

#include <stdexcept>

namespace core {

RunSettings runSettings(const RunConfig &config)
{
    RunSettings settings;
    for (const SettingSpec &spec : settingsTable())
        if (appliesTo(spec, config.dataset))
            settings.emplace_back(spec.key, spec.get(config));
    return settings;
}

RunConfig runConfigFromMetadata(const CsvMetadata &metadata)
{
    RunConfig config;
    bool sawDataset = false, sawMethod = false;
    // In file order: data_seed before split_seed, batch before austere_batch, as written.
    for (const auto &[key, value] : metadata) {
        const SettingSpec *spec = findSettingByKey(key);
        if (!spec)
            continue; // facts about the data or the chain, not settings
        spec->set(config, key, value);
        sawDataset = sawDataset || key == "dataset";
        sawMethod = sawMethod || key == "method";
    }
    if (!sawDataset || !sawMethod)
        throw std::invalid_argument("the header has no 'dataset' and 'method' settings: not a run's samples file");
    validate(config);
    return config;
}

CsvMetadata toMetadata(const RunSettings &settings)
{
    CsvMetadata metadata;
    for (const auto &[key, value] : settings)
        metadata.emplace_back(key, settingText(value));
    return metadata;
}

void addTo(nlohmann::ordered_json &json, const RunSettings &settings)
{
    for (const auto &setting : settings)
        std::visit([&](const auto &v) { json[setting.first] = v; }, setting.second);
}

} // namespace core
