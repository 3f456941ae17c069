#include "app/cli/run_options.h"

#include <cstdio>

#include "app/cli/commands.h"
#include "app/cli/progress_bar.h"
#include "core/correction/correction_cache.h"
#include "core/install/install_layout.h"
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

std::set<std::string> without(std::set<std::string> options, std::initializer_list<const char *> unused)
{
    for (const char *name : unused)
        options.erase(name);
    return options;
}

const std::set<std::string> &runValueOptions()
{
    static const std::set<std::string> options = {
        "dataset", "method", "samples", "seed", "data-seed", "n-data", "temperature", "step", "batch",
        "batch-growth", "sigma", "lambda", "solver", "grid", "range", "delta", "epsilon", "gamma", "sublhd-p",
        "sublhd-delta", "error-bound", "pilot", "burn-in", "anneal-from", "burn-in-step", "source", "images",
        "labels", "csv", "classes", "test-size", "augment-to", "prior-sd", "trace", "trace-every", "out", "summary"};
    return options;
}

void readCorrectionParams(const Arguments &args, core::CorrectionParams &params)
{
    params.sigma = args.real("sigma", params.sigma);
    params.lambda = args.real("lambda", params.lambda);
    const auto grid = args.integer("grid", params.grid);
    if (grid < 1 || grid > 1'000'000)
        throw UsageError("--grid must be in [10, 1000000]; got " + std::to_string(grid));
    params.grid = static_cast<int>(grid);
    params.range = args.real("range", params.range);
    asUsage([&] { params.solver = core::parseSolver(args.text("solver", core::solverName(params.solver))); });
    asUsage([&] { core::validate(params); });
}

core::RunConfig readRunConfig(const Arguments &args)
{
    core::RunConfig config;
    config.dataset = args.text("dataset", config.dataset);
    asUsage([&] { config.method = core::parseMethod(args.text("method", core::methodName(config.method))); });
    config.nData = args.integer("n-data", config.nData);
    config.samples = args.integer("samples", config.samples);
    config.seed = args.seed("seed", config.seed);
    config.dataSeed = args.seed("data-seed", config.dataSeed);
    config.temperature = args.real("temperature", config.temperature);
    config.step = args.real("step", config.step);
    const auto batch = args.integer("batch", config.minibatch.initialBatch);
    const auto growth = args.integer("batch-growth", config.minibatch.batchGrowth);
    if (batch < 2 || batch > 2'147'483'647)
        throw UsageError("--batch must be in [2, 2147483647]; got " + std::to_string(batch));
    if (growth < 1 || growth > 2'147'483'647)
        throw UsageError("--batch-growth must be in [1, 2147483647]; got " + std::to_string(growth));
    config.minibatch.initialBatch = static_cast<core::DataIndex>(batch);
    config.minibatch.batchGrowth = static_cast<core::DataIndex>(growth);
    config.minibatch.cltBound = args.real("delta", config.minibatch.cltBound);
    config.minibatch.finitePopulationCorrection = !args.flag("no-fpc");
    config.austere.batch = config.minibatch.initialBatch;
    config.sublhd.batch = config.minibatch.initialBatch;
    config.austere.epsilon = args.real("epsilon", config.austere.epsilon);
    config.austereErrorBound = args.real("error-bound", config.austereErrorBound);
    const auto pilot = args.integer("pilot", config.austerePilot);
    if (pilot < 1 || pilot > 100000)
        throw UsageError("--pilot must be in [1, 100000]; got " + std::to_string(pilot));
    config.austerePilot = static_cast<int>(pilot);
    config.sublhd.gamma = args.real("gamma", config.sublhd.gamma);
    config.sublhd.p = args.real("sublhd-p", config.sublhd.p);
    config.sublhd.delta = args.real("sublhd-delta", config.sublhd.delta);
    config.sublhd.useModelBound = args.flag("sublhd-model-bound");
    config.burnIn = args.integer("burn-in", config.burnIn);
    config.annealFrom = args.real("anneal-from", config.annealFrom);
    config.burnInStep = args.real("burn-in-step", config.burnInStep);
    config.traceStride = args.integer("trace-every", config.traceStride);
    auto &logreg = config.logreg;
    logreg.source = args.text("source", logreg.source);
    logreg.images = args.text("images", logreg.images);
    logreg.labels = args.text("labels", logreg.labels);
    logreg.csv = args.text("csv", logreg.csv);
    if (args.has("images") != args.has("labels"))
        throw UsageError("--images and --labels go together (an IDX image file and its label file)");
    asUsage([&] { logreg.classes = core::parseClassPair(args.text("classes", "1,7")); });
    const auto testSize = args.integer("test-size", logreg.testSize);
    const auto augmentTo = args.integer("augment-to", logreg.augmentTo);
    if (testSize < 1 || testSize > 10'000'000)
        throw UsageError("--test-size must be in [1, 10000000]; got " + std::to_string(testSize));
    if (augmentTo < 0 || augmentTo > 50'000'000)
        throw UsageError("--augment-to must be in [0, 50000000] (0: no augmentation); got " + std::to_string(augmentTo));
    logreg.testSize = static_cast<core::DataIndex>(testSize);
    logreg.augmentTo = static_cast<core::DataIndex>(augmentTo);
    logreg.splitSeed = config.dataSeed;
    logreg.augmentSeed = config.dataSeed;
    logreg.model.priorSd = args.real("prior-sd", logreg.model.priorSd);
    logreg.model.bias = args.flag("bias");
    logreg.searchDirectories = core::dataSearchDirectories();
    if (!(logreg.model.priorSd >= 0.0))
        throw UsageError("--prior-sd must be >= 0 (0: the paper's flat prior); got " + std::to_string(logreg.model.priorSd));
    core::applyDatasetDefaults(config, args.has("temperature"), args.has("step"));
    readCorrectionParams(args, config.correction);
    asUsage([&] { core::validate(config); });
    return config;
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
