#include "app/cli/run_options.h"

#include "core/experiment/settings/presets.h"

#include <cstdio>
#include <filesystem>

#include "app/cli/commands.h"
#include "app/cli/progress_bar.h"
#include "core/correction/correction_cache.h"
#include "core/install/install_layout.h"
#include "core/experiment/settings/presets.h"
#include "core/experiment/settings/settings_table.h"
#include "core/io/atomic_file.h"

namespace cli {

void requireWritable(const std::string &option, const std::string &path)
{
    try {
        core::checkWritable(path);
    } catch (const std::runtime_error &error) {
        throw UsageError("--" + option + ": " + error.what());
    }
}

void refuseCsvOverData(const core::RunConfig &config, const std::string &csvPath)
{
    std::error_code error;
    const core::DatasetEntry *data = core::findDataset(config.dataset);
    if (data && !data->generated && !csvPath.empty() && std::filesystem::exists(csvPath, error))
        throw UsageError("--csv " + csvPath + " exists: here --csv is the file the table is written to, not the "
                         "logistic-regression data (give those with --source or --images/--labels); name a new file");
}

namespace {

// The refusal of a scoped setting given for `dataset`, which it is not for: it names the datasets
// the setting is for ("--dataset logreg or tall-logreg") and suggests the first of them.
UsageError notForDataset(const core::SettingSpec &spec, const std::string &dataset)
{
    std::string names;
    std::string first;
    for (const std::string &candidate : core::allDatasets()) {
        if (!core::appliesTo(spec, candidate))
            continue;
        names += (names.empty() ? "--dataset " : " or ") + candidate;
        if (first.empty())
            first = candidate;
    }
    return UsageError("--" + spec.flag + " is for " + names + ", but the dataset is " + dataset + ": add --dataset "
                      + (first.empty() ? "logreg" : first) + ", or leave --" + spec.flag + " out");
}

} // namespace

std::set<std::string> without(std::set<std::string> options, std::initializer_list<const char *> unused)
{
    for (const char *name : unused)
        options.erase(name);
    return options;
}

const std::set<std::string> &runValueOptions()
{
    static const std::set<std::string> options = [] {
        std::set<std::string> names = {"trace", "out", "summary"};
        for (const core::SettingSpec &spec : core::settingsTable())
            if (!spec.flag.empty() && spec.type != core::SettingType::Flag)
                names.insert(spec.flag);
        return names;
    }();
    return options;
}

const std::set<std::string> &runFlags()
{
    static const std::set<std::string> flags = [] {
        std::set<std::string> names = {"no-cache"};
        for (const core::SettingSpec &spec : core::settingsTable())
            if (spec.type == core::SettingType::Flag) {
                names.insert(spec.flag);
                if (!spec.offFlag.empty())
                    names.insert(spec.offFlag);
            }
        return names;
    }();
    return flags;
}

void readCorrectionParams(const Arguments &args, core::CorrectionParams &params)
{
    core::RunConfig config;
    config.correction = params;
    for (const char *key : {"sigma", "lambda", "grid", "range", "solver"})
        readSetting(args, *core::findSettingByKey(key), config);
    asUsage([&] { core::validate(config.correction); });
    params = config.correction;
}

void readSetting(const Arguments &args, const core::SettingSpec &spec, core::RunConfig &config)
{
    const bool on = !spec.flag.empty() && args.has(spec.flag);
    const bool off = !spec.offFlag.empty() && args.has(spec.offFlag);
    if (on && off)
        throw UsageError("--" + spec.flag + " and --" + spec.offFlag + " contradict each other: give one of them");
    if (!on && !off)
        return;
    const std::string flipped = spec.switchValue == "1" ? "0" : "1";
    const std::string text = spec.type != core::SettingType::Flag ? args.text(spec.flag, "")
                             : on                                 ? spec.switchValue
                                                                  : flipped;
    asUsage([&] { spec.set(config, on ? spec.flag : spec.offFlag, text); });
}

core::RunConfig readRunConfig(const Arguments &args, const std::set<std::string> &notSettings,
                              const std::string &methodsFallback, core::Preset defaultPreset)
{
    core::RunConfig config;
    for (const core::SettingSpec &spec : core::settingsTable())
        if (!notSettings.count(spec.flag))
            readSetting(args, spec, config);
    // An option of another dataset's would be ignored, and the run would sample the mixture
    // while its user believes it samples their images: refuse it instead. (--n-data with logreg
    // stays accepted and ignored, so that older scripts keep working.)
    for (const core::SettingSpec &spec : core::settingsTable())
        if (spec.scope != core::SettingScope::Every && spec.scope != core::SettingScope::GeneratedData
            && !core::appliesTo(spec, config.dataset) && !spec.flag.empty()
            && (args.has(spec.flag) || (!spec.offFlag.empty() && args.has(spec.offFlag)))
            && !notSettings.count(spec.flag))
            throw notForDataset(spec, config.dataset);
    if (const core::DatasetEntry *data = core::findDataset(config.dataset);
        data && !data->generated && !core::isUserTable(config.logreg))
        for (const char *flag : {"label-column", "delimiter", "drop-missing"})
            if (args.has(flag) && !notSettings.count(flag))
                throw UsageError(std::string("--") + flag + " reads a table: give the file with --csv or --data");
    config.logreg.searchDirectories = core::dataSearchDirectories();
    if (!args.has("preset"))
        config.preset = defaultPreset;
    // The preset's samples and control variates depend on every method the command will run.
    std::vector<core::TestMethod> methods;
    const std::string methodNames = args.has("methods") ? args.text("methods", "") : methodsFallback;
    if (methodNames.empty())
        methods.push_back(config.method);
    else
        for (const auto &name : args.list("methods", methodNames))
            asUsage([&] { methods.push_back(core::parseMethodVariant(name).first); });
    core::applyPreset(config, methods, [&](std::string_view flag) { return args.has(std::string(flag)); });
    asUsage([&] { core::validate(config); });
    return config;
}

void readMethods(const Arguments &args, const std::string &fallback, core::RunRequest &request)
{
    std::vector<core::ControlVariates> variants;
    bool anyVariant = false;
    for (const auto &name : args.list("methods", fallback))
        asUsage([&] {
            const auto [method, controlVariates] = core::parseMethodVariant(name);
            request.methods.push_back(method);
            variants.push_back(controlVariates.value_or(request.config.controlVariates));
            anyVariant = anyVariant || controlVariates.has_value();
        });
    if (request.methods.empty())
        throw UsageError("--methods needs at least one method");
    if (anyVariant)
        request.controlVariates = std::move(variants);
    request.config.method = request.methods.front();
}

std::shared_ptr<const core::CorrectionDistribution> obtainCorrection(const core::CorrectionParams &params,
                                                                     bool useCache, bool *fromCache)
{
    ProgressBar bar("correction");
    auto progress = [&](double fraction) {
        pollInterrupt();
        bar.update(static_cast<std::int64_t>(fraction * 1000.0), 1000);
    };
    auto table = useCache ? core::loadOrSolveCorrection(params, progress, interruptToken(), fromCache)
                          : core::CorrectionDistribution::solve(params, progress, interruptToken());
    if (!useCache && fromCache)
        *fromCache = false;
    bar.finish();
    if (!table.solverConverged())
        std::fprintf(stderr, "warning: the NNLS correction solve stopped at its iteration limit before converging; "
                             "the table's L-inf error (%.3g) is measured, but a finer or different solve may do better "
                             "(--solver ridge, or another --grid)\n", table.linfError());
    return std::make_shared<const core::CorrectionDistribution>(std::move(table));
}

} // namespace cli
