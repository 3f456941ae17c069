#include "core/experiment/reports/run_record.h"

#include <algorithm>
#include <stdexcept>

#include "core/io/number_format.h"

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

void addSegmentMetadata(CsvMetadata &metadata, const ChainResult &chain, const RunConfig &config, bool binned,
                        std::int64_t firstRow)
{
    const bool burnInWritten = chain.hasBurnIn() && firstRow == 0;
    const bool segmented = burnInWritten || chain.retuned(config.temperature, config.step);
    if (segmented) {
        std::size_t listed = 0;
        for (const ChainSegment &segment : chain.segments) {
            if (segment.burnIn && !burnInWritten)
                continue;
            metadata.emplace_back("segment." + std::to_string(++listed),
                                  "start=" + std::to_string(std::max<std::int64_t>(segment.start - firstRow, 0))
                                      + " temperature=" + formatRoundTrip(segment.temperature)
                                      + " step=" + formatRoundTrip(segment.step) + (segment.burnIn ? " burn_in=1" : "")
                                      + (segment.relearning ? " relearning=1" : ""));
        }
    }
    std::string meaning = binned ? "tempered log posterior (unnormalised, binned-data evaluation)"
                                 : "tempered log posterior log p0 + sum of log p(x_i|theta) / T over all N (unnormalised)";
    if (segmented)
        meaning += ", each row at its segment's temperature";
    metadata.emplace_back("lp_meaning", meaning);
}

} // namespace core
