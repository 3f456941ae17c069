// `mh-explorer-cli run`: one chain on the Gaussian mixture, with posterior metrics.
#include <cmath>
#include <cstdio>
#include <memory>

#include "app/cli/commands.h"
#include "app/cli/progress_bar.h"
#include "app/cli/run_options.h"
#include "core/chain/chain_runner.h"
#include "core/experiment/experiment_runner.h"
#include "core/io/atomic_file.h"
#include "core/io/json_writer.h"
#include "core/io/samples_csv.h"

namespace cli {
namespace {

core::CsvMetadata csvMetadata(const core::RunConfig &config, const core::CorrectionDistribution *correction,
                              const core::ChainResult &chain)
{
    const auto &mb = config.minibatch;
    core::CsvMetadata meta = {
        {"program", "mh-explorer-cli run"},
        {"dataset", config.dataset},
        {"method", core::methodName(config.method)},
        {"n_data", std::to_string(config.nData)},
        {"data_seed", std::to_string(config.dataSeed)},
        {"seed", std::to_string(config.seed)},
        {"samples", std::to_string(config.samples)},
        {"completed", std::to_string(chain.completed)},
        {"stopped", chain.stopped ? "1" : "0"},
        {"temperature", core::formatRoundTrip(config.temperature)},
        {"step", core::formatRoundTrip(config.step)},
        {"step_meaning", "proposal standard deviation per coordinate"},
        {"batch", std::to_string(mb.initialBatch)},
        {"batch_growth", std::to_string(mb.batchGrowth)},
        {"delta", core::formatRoundTrip(mb.cltBound)},
        {"finite_population_correction", mb.finitePopulationCorrection ? "1" : "0"},
        {"sigma", core::formatRoundTrip(config.correction.sigma)},
        {"lambda", core::formatRoundTrip(config.correction.lambda)},
        {"solver", core::solverName(config.correction.solver)},
        {"grid", std::to_string(config.correction.grid)},
        {"range", core::formatRoundTrip(config.correction.range)},
        {"austere_batch", std::to_string(config.austere.batch)},
        {"epsilon", core::formatRoundTrip(config.austere.epsilon)},
        {"error_bound", core::formatRoundTrip(config.austereErrorBound)},
        {"gamma", core::formatRoundTrip(config.sublhd.gamma)},
        {"sublhd_p", core::formatRoundTrip(config.sublhd.p)},
        {"sublhd_delta", core::formatRoundTrip(config.sublhd.delta)},
        {"sublhd_model_bound", config.sublhd.useModelBound ? "1" : "0"},
    };
    if (config.dataset == "gmm")
        meta.emplace_back("lp_meaning", "tempered log posterior (unnormalised, binned-data evaluation)");
    if (correction)
        meta.emplace_back("correction_linf", core::formatRoundTrip(correction->linfError()));
    return meta;
}

} // namespace

int runCommand(int argc, char **argv)
{
    auto valueOptions = runValueOptions();
    const Arguments args(argc, argv, 2, valueOptions, runFlags());
    const core::RunConfig config = readRunConfig(args);
    const std::string outPath = args.text("out", ""), summaryPath = args.text("summary", "");
    // Fail before minutes of sampling, not after.
    if (!outPath.empty())
        requireWritable("out", outPath);
    if (!summaryPath.empty())
        requireWritable("summary", summaryPath);

    std::fprintf(stderr, "generating %lld %s points (data seed %llu)\n", static_cast<long long>(config.nData),
                 config.dataset.c_str(), static_cast<unsigned long long>(config.dataSeed));
    const core::DatasetInstance dataset = core::makeDataset(config, true);
    core::RunConfig designed = config;
    const auto designer = obtainAustereDesign(designed, dataset);

    std::shared_ptr<const core::CorrectionDistribution> correction;
    bool fromCache = false;
    if (core::needsCorrection(config.method))
        correction = obtainCorrection(config.correction, !args.flag("no-cache"), &fromCache);

    ProgressBar bar(core::methodName(config.method));
    const core::ExperimentOutcome outcome =
        core::runExperiment(designed, dataset, correction, interruptToken(),
                            [&](const core::ChainResult &, std::int64_t, std::int64_t last) {
                                pollInterrupt();
                                bar.update(last, config.samples);
                            },
                            designer);
    bar.finish();
    const core::ChainResult &chain = outcome.chain;
    if (chain.stopped) {
        std::fprintf(stderr, "interrupted after %lld of %lld samples; nothing written\n",
                     static_cast<long long>(chain.completed), static_cast<long long>(config.samples));
        return 130;
    }
    const core::ChainSummary &summary = outcome.summary;
    const core::PosteriorMetrics metrics = outcome.posterior.value_or(core::PosteriorMetrics{});
    const double nan = std::nan("");
    const auto *posterior = dataset.gmmPosterior.get();

    if (!outPath.empty()) {
        std::vector<double> lp;
        if (posterior) {
            lp.resize(static_cast<std::size_t>(chain.completed));
            for (std::int64_t t = 0; t < chain.completed; ++t)
                lp[static_cast<std::size_t>(t)] = posterior->logDensity(chain.samples(t, 0), chain.samples(t, 1));
        }
        core::writeSamplesCsv(outPath, csvMetadata(designed, correction.get(), chain), chain, lp);
    }

    core::JsonObject json;
    json.add("dataset", config.dataset)
        .add("method", core::methodName(config.method))
        .add("n_data", config.nData)
        .add("samples", chain.completed)
        .add("seed", static_cast<std::int64_t>(config.seed))
        .add("data_seed", static_cast<std::int64_t>(config.dataSeed))
        .add("temperature", config.temperature)
        .add("step", config.step)
        .add("batch", static_cast<std::int64_t>(config.minibatch.initialBatch))
        .add("batch_growth", static_cast<std::int64_t>(config.minibatch.batchGrowth))
        .add("delta", config.minibatch.cltBound)
        .add("sigma", config.correction.sigma)
        .add("lambda", config.correction.lambda)
        .add("solver", core::solverName(config.correction.solver))
        .add("acceptance_rate", summary.acceptanceRate)
        .add("mean_batch", summary.meanBatch)
        .add("sd_batch", summary.sdBatch)
        .add("max_batch", summary.maxBatch)
        .add("full_data_fallbacks", summary.fullDataFallbacks)
        .add("data_points_used", summary.dataPointsUsed)
        .add("full_scan_points", summary.fullScanPoints)
        .add("austere_batch", static_cast<std::int64_t>(designed.austere.batch))
        .add("epsilon", designed.austere.epsilon)
        .add("error_bound", config.austereErrorBound)
        .add("gamma", config.sublhd.gamma)
        .add("sublhd_p", config.sublhd.p)
        .add("sublhd_delta", config.sublhd.delta)
        .add("wall_seconds", summary.wallSeconds)
        .add("iterations_per_second", summary.iterationsPerSecond)
        .add("correction_linf", correction ? correction->linfError() : std::nan(""))
        .add("correction_from_cache", fromCache)
        .add("all_data_iterations", summary.allDataIterations)
        .add("posterior_tv", posterior ? metrics.totalVariation : nan)
        .add("posterior_chi2", posterior ? metrics.chiSquared : nan)
        .add("posterior_chi2_cells", posterior ? metrics.chiSquaredCells : 0)
        .add("posterior_poisson_loglik", posterior ? metrics.poissonLogLikelihood : nan)
        .add("posterior_outside_samples", metrics.outside)
        .add("posterior_binning_error_bound", posterior ? posterior->binningErrorBound() : nan);
    if (!summaryPath.empty())
        core::writeFileAtomically(summaryPath, [&](std::ostream &out) { json.write(out); out << '\n'; });

    std::printf("method %s on %s: N = %lld, T = %g, step %g, %lld samples, seed %llu\n",
                core::methodName(config.method).c_str(), config.dataset.c_str(), static_cast<long long>(config.nData),
                config.temperature,
                config.step, static_cast<long long>(chain.completed), static_cast<unsigned long long>(config.seed));
    std::printf("  acceptance rate      %.4f\n", summary.acceptanceRate);
    std::printf("  minibatch size       mean %.1f  sd %.1f  max %lld\n", summary.meanBatch, summary.sdBatch,
                static_cast<long long>(summary.maxBatch));
    std::printf("  full-data fallbacks  %lld\n", static_cast<long long>(summary.fullDataFallbacks));
    std::printf("  data points used     %lld (%.3g passes over the data)\n", static_cast<long long>(summary.dataPointsUsed),
                static_cast<double>(summary.dataPointsUsed) / static_cast<double>(config.nData));
    if (correction)
        std::printf("  correction L-inf     %.3g (%s, sigma %g, lambda %g%s)\n", correction->linfError(),
                    core::solverName(config.correction.solver).c_str(), config.correction.sigma,
                    config.correction.lambda, fromCache ? ", cached" : "");
    std::printf("  tests that read all N %lld of %lld iterations\n", static_cast<long long>(summary.allDataIterations),
                static_cast<long long>(summary.iterations));
    if (summary.fullScanPoints > 0)
        std::printf("  full-data scans      %lld points (%.3g per iteration), not counted in the minibatch sizes\n",
                    static_cast<long long>(summary.fullScanPoints),
                    static_cast<double>(summary.fullScanPoints) / static_cast<double>(summary.iterations));
    if (posterior)
        std::printf("  posterior            TV %.4f  chi2 %.1f (%d cells)  Eq.39 %.1f\n", metrics.totalVariation,
                    metrics.chiSquared, metrics.chiSquaredCells, metrics.poissonLogLikelihood);
    std::printf("  wall time            %.2f s (%.0f iterations/s)\n", summary.wallSeconds, summary.iterationsPerSecond);
    if (!outPath.empty())
        std::printf("  samples written to   %s\n", outPath.c_str());
    if (!summaryPath.empty())
        std::printf("  summary written to   %s\n", summaryPath.c_str());
    return 0;
}

} // namespace cli
