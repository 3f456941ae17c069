// `mh-explorer-cli bench`: minibatch versus full-data tests on the same data in one run.
// Prints iterations/s and data points/s; the ratio is the figure to quote.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/run_options.h"
#include "core/acceptance/minibatch_sampler.h"
#include "app/cli/run_progress.h"
#include "core/experiment/service/run_service.h"
#include "core/experiment/inputs/datasets.h"
#include "core/io/json_file.h"
#include "core/models/control_variates.h"

namespace cli {
namespace {

struct Timing {
    core::ChainSummary summary;
    double pointsPerSecond = 0.0;
    double essBulkMin = 0.0, essBulkMedian = 0.0, essPerSecond = 0.0, dataPointsPerEss = 0.0;
};

// The chains go through the run service like any run: `methods` on the request's data, each for
// `iterations` from the model's initial θ.
std::vector<Timing> timeChains(core::RunConfig config, const std::vector<core::TestMethod> &methods,
                               std::int64_t iterations, bool useCache)
{
    core::RunRequest request;
    config.samples = iterations;
    config.method = methods.front();
    request.config = config;
    request.methods = methods;
    request.keepSamples = false;
    request.useCorrectionCache = useCache;
    RunProgress progress(methods.size() == 1 ? "minibatch chain" : "full-data chains");
    const core::RunOutcome outcome = core::runRequest(request, progress, {interruptToken()});
    progress.finish();
    if (outcome.stopped)
        throw std::runtime_error("interrupted");
    std::vector<Timing> timings;
    for (const core::ChainReport &chain : outcome.chains) {
        Timing timing;
        timing.summary = chain.summary;
        timing.pointsPerSecond = static_cast<double>(chain.summary.dataPointsUsed()) / chain.summary.wallSeconds;
        timing.essBulkMin = chain.essBulkMin;
        timing.essBulkMedian = chain.essBulkMedian;
        timing.essPerSecond = chain.essPerSecond;
        timing.dataPointsPerEss = chain.dataPointsPerEss;
        timings.push_back(timing);
    }
    return timings;
}

// The hot kernel alone: log-likelihood ratios over `batch` random rows, repeated.
double kernelPointsPerSecond(const core::Model &model, core::DataIndex batch, std::uint64_t seed)
{
    core::Rng rng(seed);
    core::MinibatchSampler sampler(model.dataSize());
    std::vector<double> out(static_cast<std::size_t>(batch));
    core::Vector from = model.initialTheta(), to = from;
    to.array() += 0.01;
    double sink = 0.0;
    std::int64_t points = 0;
    const auto start = std::chrono::steady_clock::now();
    double elapsed = 0.0;
    while (elapsed < 0.5) {
        for (int repeat = 0; repeat < 1000; ++repeat) {
            sampler.beginTest();
            const auto rows = sampler.drawMore(batch, rng);
            model.logLikelihoodRatios(from, to, rows, out);
            sink += out[0];
            points += batch;
        }
        elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    if (sink == 12345.678) // keeps the work observable to the optimiser
        std::puts("");
    return static_cast<double>(points) / elapsed;
}

/// The three chains' median timings.
struct BenchTimings {
    Timing minibatch, metropolis, barker;

    double speedup() const { return minibatch.summary.iterationsPerSecond / metropolis.summary.iterationsPerSecond; }
};

/// The kernel alone, in points per second: the log-likelihood ratios' and, with control
/// variates, the residuals' (NaN without).
struct KernelSpeeds {
    double ratios = 0.0, residuals = 0.0;
};

/// bench --summary: the figures as JSON.
void writeBenchSummary(const std::string &summaryPath, const core::RunConfig &config, core::DataIndex dataSize,
                       const BenchTimings &timings, const KernelSpeeds &kernels, std::int64_t repeats)
{
    // NaN (too few iterations for an ESS) is null, as in every summary.
    auto ess = [&](const Timing &t) {
        return nlohmann::ordered_json{{"ess_bulk_min", core::jsonNumber(t.essBulkMin)},
                                      {"ess_bulk_median", core::jsonNumber(t.essBulkMedian)},
                                      {"ess_per_second", core::jsonNumber(t.essPerSecond)},
                                      {"data_points_per_ess", core::jsonNumber(t.dataPointsPerEss)}};
    };
    const nlohmann::ordered_json json = {{"dataset", config.dataset},
                                         {"n_data", dataSize},
                                         {"temperature", config.temperature},
                                         {"step", config.step},
                                         {"minibatch_iterations_per_second", timings.minibatch.summary.iterationsPerSecond},
                                         {"minibatch_points_per_second", timings.minibatch.pointsPerSecond},
                                         {"minibatch_mean_batch", timings.minibatch.summary.meanBatch()},
                                         {"metropolis_iterations_per_second", timings.metropolis.summary.iterationsPerSecond},
                                         {"metropolis_points_per_second", timings.metropolis.pointsPerSecond},
                                         {"barker_iterations_per_second", timings.barker.summary.iterationsPerSecond},
                                         {"speedup_vs_metropolis", timings.speedup()},
                                         {"kernel_points_per_second", kernels.ratios},
                                         {"control_variates", core::controlVariatesName(core::resolvedControlVariates(config))},
                                         {"residual_kernel_points_per_second", core::jsonNumber(kernels.residuals)},
                                         {"repeats", repeats},
                                         {"minibatch_ess", ess(timings.minibatch)},
                                         {"metropolis_ess", ess(timings.metropolis)},
                                         {"barker_ess", ess(timings.barker)}};
    core::writeJsonFile(summaryPath, json);
}

} // namespace

int benchCommand(int argc, char **argv)
{
    // bench times chains of fixed lengths from the dataset's initial θ; options of a sampling
    // run it has no use for are refused rather than silently ignored.
    auto options = without(runValueOptions(), {"method", "samples", "out", "trace", "trace-every", "burn-in",
                                               "anneal-from", "burn-in-step", "epsilon", "error-bound", "pilot",
                                               "gamma", "sublhd-p", "sublhd-delta"});
    options.insert({"minibatch-iterations", "full-iterations", "repeats"});
    const Arguments args(argc, argv, 2, options, {"no-fpc", "no-cache", "bias"});
    // bench times the tests, so it runs the paper's settings unless told otherwise.
    core::RunConfig config = readRunConfig(args, {}, {}, core::Preset::Paper);
    const auto minibatchIterations = args.integer("minibatch-iterations", 20000);
    const auto fullIterations = args.integer("full-iterations", 100);
    const auto repeats = args.integer("repeats", 5);
    if (minibatchIterations < 1 || fullIterations < 1)
        throw UsageError("--minibatch-iterations and --full-iterations must be >= 1");
    if (repeats < 1 || repeats > 100)
        throw UsageError("--repeats must be in [1, 100] (each figure is the median over the repeats); got "
                         + std::to_string(repeats));
    const std::string summaryPath = args.text("summary", "");
    if (!summaryPath.empty())
        requireWritable("summary", summaryPath);

    const bool useCache = !args.flag("no-cache");
    // The exact tests read every point: control variates are the minibatch test's alone.
    core::RunConfig exact = config;
    exact.controlVariates = core::ControlVariates::None;
    // Each side `repeats` times, alternating in this one process; a figure is the median of its
    // repeats (the run with the median iterations/s), so one slow run on a busy machine does not
    // make the ratio.
    std::vector<Timing> minibatchRuns, metropolisRuns, barkerRuns;
    for (std::int64_t r = 0; r < repeats; ++r) {
        minibatchRuns.push_back(timeChains(config, {core::TestMethod::Minibatch}, minibatchIterations, useCache).front());
        const std::vector<Timing> full =
            timeChains(exact, {core::TestMethod::Metropolis, core::TestMethod::Barker}, fullIterations, useCache);
        metropolisRuns.push_back(full[0]);
        barkerRuns.push_back(full[1]);
    }
    const auto median = [](std::vector<Timing> runs) {
        std::sort(runs.begin(), runs.end(), [](const Timing &a, const Timing &b) {
            return a.summary.iterationsPerSecond < b.summary.iterationsPerSecond;
        });
        return runs[runs.size() / 2];
    };
    const BenchTimings timings{median(minibatchRuns), median(metropolisRuns), median(barkerRuns)};
    // The kernel alone, on the same data (generated again from the data seed).
    const core::DatasetInstance dataset = core::makeDataset(config, false, {}, interruptToken());
    const core::Model &model = *dataset.model;

    std::printf("bench: %s N = %lld, T = %g, step %g, batch %lld + %lld, sigma %g; medians of %lld repeats\n",
                config.dataset.c_str(), static_cast<long long>(model.dataSize()), config.temperature, config.step,
                static_cast<long long>(config.minibatch.initialBatch), static_cast<long long>(config.minibatch.batchGrowth), config.correction.sigma,
                static_cast<long long>(repeats));
    const double kernel = kernelPointsPerSecond(model, config.minibatch.initialBatch, config.seed);
    // With control variates the kernel is the residuals': three margins a row instead of two.
    double residualKernel = std::nan("");
    if (const int order = core::controlVariateOrder(config); order > 0) {
        const core::ControlVariateModel residuals(
            dataset.model, core::makeTaylorProxies(model, model.initialTheta(), order));
        residualKernel = kernelPointsPerSecond(residuals, config.minibatch.initialBatch, config.seed);
    }

    auto line = [](const char *name, const Timing &t) {
        std::printf("  %-22s %10lld it  %12.1f it/s  %10.3g points/s  mean batch %.1f  min ESS %.0f (median %.0f)  "
                    "%.4g ESS/s  %.4g points/ESS\n",
                    name, static_cast<long long>(t.summary.iterations), t.summary.iterationsPerSecond, t.pointsPerSecond,
                    t.summary.meanBatch(), t.essBulkMin, t.essBulkMedian, t.essPerSecond, t.dataPointsPerEss);
    };
    const std::string minibatchName = "minibatch (" + core::methodVariantName(config) + ")";
    line(minibatchName.c_str(), timings.minibatch);
    line("full-data Metropolis", timings.metropolis);
    line("full-data Barker", timings.barker);
    std::printf("  speed-up per iteration, minibatch / full-data Metropolis: %.0fx\n", timings.speedup());
    std::printf("  kernel: log-likelihood ratios over %lld random rows: %.3g points/s\n",
                static_cast<long long>(config.minibatch.initialBatch), kernel);
    if (std::isfinite(residualKernel))
        std::printf("  kernel: control-variate residuals over %lld random rows: %.3g points/s (%.2f of the ratios')\n",
                    static_cast<long long>(config.minibatch.initialBatch), residualKernel, residualKernel / kernel);

    if (!summaryPath.empty())
        writeBenchSummary(summaryPath, config, model.dataSize(), timings, {kernel, residualKernel}, repeats);
    return 0;
}

} // namespace cli
