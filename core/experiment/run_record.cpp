#include "core/experiment/run_record.h"

#include <functional>
#include <map>
#include <stdexcept>
#include <type_traits>

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
        {"seed", SettingValue(config.seed)},
        {"data_seed", SettingValue(config.dataSeed)},
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
        {"sublhd_batch", integer(config.sublhd.batch)},
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
                                     {"split_seed", SettingValue(logreg.splitSeed)},
                                     {"augment_seed", SettingValue(logreg.augmentSeed)},
                                     {"augment_to", integer(logreg.augmentTo)},
                                     {"prior_sd", logreg.model.priorSd},
                                     {"bias", logreg.model.bias}});
    return settings;
}

namespace {

// `convert` must read the whole text (std::stoll and friends report how much they read).
template <typename Convert>
auto parseWhole(const std::string &key, const std::string &text, const char *expected, Convert convert)
{
    std::size_t used = 0;
    decltype(convert(text, &used)) value{};
    try {
        value = convert(text, &used);
    } catch (const std::exception &) {
        used = 0;
    }
    if (used == 0 || used != text.size())
        throw std::invalid_argument(key + ": expected " + expected + "; got '" + text + "'");
    return value;
}

std::int64_t parseInteger(const std::string &key, const std::string &text)
{
    return parseWhole(key, text, "a whole number",
                      [](const std::string &t, std::size_t *used) { return std::int64_t{std::stoll(t, used)}; });
}

std::uint64_t parseUnsigned(const std::string &key, const std::string &text)
{
    // stoull accepts "-1" (as 2^64 - 1): a seed written by us never has a sign.
    const char *expected = "a non-negative whole number";
    if (!text.empty() && text.front() == '-')
        throw std::invalid_argument(key + ": expected " + expected + "; got '" + text + "'");
    return parseWhole(key, text, expected,
                      [](const std::string &t, std::size_t *used) { return std::uint64_t{std::stoull(t, used)}; });
}

double parseReal(const std::string &key, const std::string &text)
{
    return parseWhole(key, text, "a number", [](const std::string &t, std::size_t *used) { return std::stod(t, used); });
}

bool parseFlag(const std::string &key, const std::string &text)
{
    if (text == "1" || text == "true")
        return true;
    if (text == "0" || text == "false")
        return false;
    throw std::invalid_argument(key + ": expected 0 or 1; got '" + text + "'");
}

} // namespace

RunConfig runConfigFromMetadata(const CsvMetadata &metadata)
{
    RunConfig config;
    auto &mb = config.minibatch;
    auto &logreg = config.logreg;
    using Setter = std::function<void(const std::string &key, const std::string &text)>;
    const auto integer = [](auto &field) {
        return Setter([&field](const std::string &key, const std::string &text) {
            field = static_cast<std::remove_reference_t<decltype(field)>>(parseInteger(key, text));
        });
    };
    const auto seed = [](std::uint64_t &field) {
        return Setter([&field](const std::string &key, const std::string &text) { field = parseUnsigned(key, text); });
    };
    const auto real = [](double &field) {
        return Setter([&field](const std::string &key, const std::string &text) { field = parseReal(key, text); });
    };
    const auto flag = [](bool &field) {
        return Setter([&field](const std::string &key, const std::string &text) { field = parseFlag(key, text); });
    };
    const auto text = [](std::string &field) {
        return Setter([&field](const std::string &, const std::string &value) { field = value; });
    };
    const std::map<std::string, Setter> setters = {
        {"dataset", text(config.dataset)},
        {"method", [&](const std::string &, const std::string &v) { config.method = parseMethod(v); }},
        {"samples", integer(config.samples)},
        {"seed", seed(config.seed)},
        {"data_seed", seed(config.dataSeed)},
        {"temperature", real(config.temperature)},
        {"step", real(config.step)},
        {"burn_in", integer(config.burnIn)},
        {"anneal_from", real(config.annealFrom)},
        {"burn_in_step", real(config.burnInStep)},
        {"batch", integer(mb.initialBatch)},
        {"batch_growth", integer(mb.batchGrowth)},
        {"delta", real(mb.cltBound)},
        {"finite_population_correction", flag(mb.finitePopulationCorrection)},
        {"sigma", real(config.correction.sigma)},
        {"lambda", real(config.correction.lambda)},
        {"solver", [&](const std::string &, const std::string &v) { config.correction.solver = parseSolver(v); }},
        {"grid", integer(config.correction.grid)},
        {"range", real(config.correction.range)},
        {"austere_batch", integer(config.austere.batch)},
        {"epsilon", real(config.austere.epsilon)},
        {"sublhd_batch", integer(config.sublhd.batch)},
        {"error_bound", real(config.austereErrorBound)},
        {"gamma", real(config.sublhd.gamma)},
        {"sublhd_p", real(config.sublhd.p)},
        {"sublhd_delta", real(config.sublhd.delta)},
        {"sublhd_model_bound", flag(config.sublhd.useModelBound)},
        {"pilot", integer(config.austerePilot)},
        {"trace_every", integer(config.traceStride)},
        {"n_data_requested", integer(config.nData)},
        {"source", text(logreg.source)},
        {"images", text(logreg.images)},
        {"labels", text(logreg.labels)},
        {"csv", text(logreg.csv)},
        {"classes", [&](const std::string &, const std::string &v) { logreg.classes = parseClassPair(v); }},
        {"test_size", integer(logreg.testSize)},
        {"split_seed", seed(logreg.splitSeed)},
        {"augment_seed", seed(logreg.augmentSeed)},
        {"augment_to", integer(logreg.augmentTo)},
        {"prior_sd", real(logreg.model.priorSd)},
        {"bias", flag(logreg.model.bias)},
    };
    bool sawDataset = false, sawMethod = false;
    for (const auto &[key, value] : metadata) {
        const auto setter = setters.find(key);
        if (setter == setters.end())
            continue; // facts about the data or the chain, not settings
        setter->second(key, value);
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
    for (const auto &[key, value] : settings) {
        std::string text;
        if (const auto *s = std::get_if<std::string>(&value))
            text = *s;
        else if (const auto *d = std::get_if<double>(&value))
            text = formatRoundTrip(*d);
        else if (const auto *i = std::get_if<std::int64_t>(&value))
            text = std::to_string(*i);
        else if (const auto *u = std::get_if<std::uint64_t>(&value))
            text = std::to_string(*u);
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
