#include "core/experiment/run_record.h"

#include "core/io/atomic_file.h"

namespace core {

RunSettings runSettings(const RunConfig &config)
{
    const auto &mb = config.minibatch;
    const auto integer = [](auto value) { return SettingValue(static_cast<std::int64_t>(value)); };
    RunSettings settings = {
        {"dataset", config.dataset},
        {"method", methodName(config.method)},
        {"samples", integer(config.samples)},
        {"seed", integer(config.seed)},
        {"data_seed", integer(config.dataSeed)},
        {"temperature", config.temperature},
        {"step", config.step},
        {"step_meaning", std::string("proposal standard deviation per coordinate")},
        {"burn_in", integer(config.burnIn)},
        {"anneal_from", config.annealFrom},
        {"burn_in_step", config.burnInStep},
        {"batch", integer(mb.initialBatch)},
        {"batch_growth", integer(mb.batchGrowth)},
        {"delta", mb.cltBound},
        {"finite_population_correction", mb.finitePopulationCorrection},
        {"sigma", config.correction.sigma},
        {"lambda", config.correction.lambda},
        {"solver", solverName(config.correction.solver)},
        {"grid", integer(config.correction.grid)},
        {"range", config.correction.range},
        {"austere_batch", integer(config.austere.batch)},
        {"epsilon", config.austere.epsilon},
        {"error_bound", config.austereErrorBound},
        {"gamma", config.sublhd.gamma},
        {"sublhd_p", config.sublhd.p},
        {"sublhd_delta", config.sublhd.delta},
        {"sublhd_model_bound", config.sublhd.useModelBound},
    };
    settings.emplace_back("pilot", integer(config.austerePilot));
    settings.emplace_back("trace_every", integer(config.traceStride));
    if (config.dataset != "logreg") {
        settings.emplace_back("n_data_requested", integer(config.nData));
        return settings;
    }
    // Enough to load the same data again: where they came from, the classes, the split and
    // the augmentation (seeded by data_seed), and the model's options.
    const LogisticDataSpec &logreg = config.logreg;
    settings.insert(settings.end(), {{"source", logreg.source},
                                     {"images", logreg.images},
                                     {"labels", logreg.labels},
                                     {"csv", logreg.csv},
                                     {"classes", std::to_string(logreg.classes.first) + ","
                                                     + std::to_string(logreg.classes.second)},
                                     {"test_size", integer(logreg.testSize)},
                                     {"augment_to", integer(logreg.augmentTo)},
                                     {"prior_sd", logreg.model.priorSd},
                                     {"bias", logreg.model.bias}});
    return settings;
}

CsvMetadata toMetadata(const RunSettings &settings)
{
    CsvMetadata metadata;
    for (const auto &[key, value] : settings) {
        std::string text;
        if (const auto *s = std::get_if<std::string>(&value))
            text = *s;
        else if (const auto *d = std::get_if<double>(&value))
            text = formatRoundTrip(*d);
        else if (const auto *i = std::get_if<std::int64_t>(&value))
            text = std::to_string(*i);
        else
            text.assign(1, std::get<bool>(value) ? '1' : '0');
        metadata.emplace_back(key, text);
    }
    return metadata;
}

void addTo(nlohmann::ordered_json &json, const RunSettings &settings)
{
    for (const auto &setting : settings)
        std::visit([&](const auto &v) { json[setting.first] = v; }, setting.second);
}

void addTo(JsonObject &json, const RunSettings &settings)
{
    // No structured binding: clang before 16 cannot capture one in a lambda.
    for (const auto &setting : settings)
        std::visit([&](const auto &v) { json.add(setting.first, v); }, setting.second);
}

void addSegmentMetadata(CsvMetadata &metadata, const ChainResult &chain, const RunConfig &config, bool binned)
{
    const bool segmented = chain.hasBurnIn() || chain.retuned(config.temperature, config.step);
    if (segmented)
        for (std::size_t k = 0; k < chain.segments.size(); ++k) {
            const ChainSegment &segment = chain.segments[k];
            metadata.emplace_back("segment." + std::to_string(k + 1),
                                  "start=" + std::to_string(segment.start) + " temperature="
                                      + formatRoundTrip(segment.temperature) + " step=" + formatRoundTrip(segment.step)
                                      + (segment.burnIn ? " burn_in=1" : ""));
        }
    std::string meaning = binned ? "tempered log posterior (unnormalised, binned-data evaluation)"
                                 : "tempered log posterior log p0 + sum of log p(x_i|theta) / T over all N (unnormalised)";
    if (segmented)
        meaning += ", each row at its segment's temperature";
    metadata.emplace_back("lp_meaning", meaning);
}

} // namespace core
