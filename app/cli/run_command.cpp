// `mh-explorer-cli run`: one chain on the Gaussian mixture, with posterior metrics.
#include <cmath>
#include <cstdio>
#include <memory>

#include "app/cli/commands.h"
#include "app/cli/progress_bar.h"
#include "app/cli/run_options.h"
#include "core/chain/chain_runner.h"
#include "core/experiment/experiment_runner.h"
#include "core/experiment/log_posterior_column.h"
#include "core/experiment/run_record.h"
#include "core/io/atomic_file.h"
#include "core/io/json_writer.h"
#include "core/io/samples_csv.h"

namespace cli {
namespace {

core::CsvMetadata csvMetadata(const core::RunConfig &config, const core::DatasetInstance &dataset,
                              const core::CorrectionDistribution *correction, const core::ChainResult &chain)
{
    core::CsvMetadata meta = {{"program", "mh-explorer-cli run"}};
    for (auto &entry : core::toMetadata(core::runSettings(config)))
        meta.push_back(std::move(entry));
    meta.insert(meta.end(), {{"description", dataset.description},
                             {"augmented", dataset.augmented ? "1" : "0"},
                             {"n_data", std::to_string(dataset.model->dataSize())},
                             {"completed", std::to_string(chain.completed)},
                             {"stopped", chain.stopped ? "1" : "0"}});
    core::addSegmentMetadata(meta, chain, config, dataset.gmmPosterior != nullptr);
    if (correction)
        meta.emplace_back("correction_linf", core::formatRoundTrip(correction->linfError()));
    return meta;
}

struct ClassifierFigures {
    double lastAccuracy = std::nan(""), meanAccuracy = std::nan("");
    double trainLogLikelihood = std::nan(""), testLogLikelihood = std::nan("");
};

// Accuracy and log-likelihood of a logistic-regression chain (Seita et al. Sec. 6.2): at the
// last sample, at the mean of the second half, and optionally as a trace against the data
// consumed so far (Fig. 3), with the training log-likelihood per point at each trace row.
ClassifierFigures classifierFigures(const core::DatasetInstance &dataset, const core::ChainResult &chain,
                                    const core::RunConfig &config, const std::string &tracePath)
{
    ClassifierFigures figures;
    if (!dataset.classifier || chain.completed == 0)
        return figures;
    const auto &model = *dataset.classifier;
    const auto &test = *dataset.testSet;
    const core::Vector last = chain.samples.row(chain.completed - 1).transpose();
    const std::int64_t half = chain.completed / 2;
    const core::Vector mean = chain.samples.middleRows(half, chain.completed - half).colwise().mean().transpose();
    figures.lastAccuracy = model.accuracy(last, test);
    figures.meanAccuracy = model.accuracy(mean, test);
    figures.trainLogLikelihood = model.logLikelihoodSum(mean) / static_cast<double>(model.dataSize());
    figures.testLogLikelihood = model.meanLogLikelihood(mean, test);
    if (!tracePath.empty()) {
        const core::ClassifierTrace trace = core::classifierTrace(model, chain, test, config.traceStride);
        core::writeFileAtomically(tracePath, [&](std::ostream &out) {
            out << "# dataset = logreg\n# description = " << dataset.description << "\n# augmented = "
                << (dataset.augmented ? 1 : 0) << "\n# method = " << core::methodName(config.method)
                << "\n# data_used counts minibatch and full-scan points up to and including the iteration\n"
                << "iteration,data_used,test_accuracy,test_mean_loglik,train_mean_loglik\n";
            for (std::size_t k = 0; k < trace.iteration.size(); ++k) {
                const core::Vector theta = chain.samples.row(trace.iteration[k]).transpose();
                out << trace.iteration[k] << ',' << trace.dataUsed[k] << ',' << core::formatRoundTrip(trace.accuracy[k])
                    << ',' << core::formatRoundTrip(trace.meanLogLikelihood[k]) << ','
                    << core::formatRoundTrip(model.logLikelihoodSum(theta) / static_cast<double>(model.dataSize()))
                    << '\n';
            }
        });
    }
    return figures;
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
    const std::string tracePath = args.text("trace", "");
    if (!tracePath.empty()) {
        if (config.dataset != "logreg")
            throw UsageError("--trace is for --dataset logreg (accuracy against data consumed)");
        requireWritable("trace", tracePath);
    }

    if (config.dataset == "logreg")
        std::fprintf(stderr, "loading the logistic-regression data\n");
    else
        std::fprintf(stderr, "generating %lld %s points (data seed %llu)\n", static_cast<long long>(config.nData),
                     config.dataset.c_str(), static_cast<unsigned long long>(config.dataSeed));
    ProgressBar dataBar("data");
    const core::DatasetInstance dataset = core::makeDataset(config, true, [&](double f) {
        pollInterrupt();
        dataBar.update(static_cast<std::int64_t>(f * 1000.0), 1000);
    }, interruptToken());
    dataBar.finish();
    if (config.dataset == "logreg")
        std::fprintf(stderr, "data: %s\n", dataset.description.c_str());
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
    const std::int64_t nData = dataset.model->dataSize();
    const ClassifierFigures classifier = classifierFigures(dataset, chain, config, tracePath);

    if (!outPath.empty()) {
        const std::vector<double> lp = posterior ? core::logPosteriorColumn(chain, *posterior)
                                                 : core::logPosteriorColumn(chain, *dataset.model, interruptToken());
        pollInterrupt();
        core::writeSamplesCsv(outPath, csvMetadata(designed, dataset, correction.get(), chain), chain, lp);
    }

    core::JsonObject json;
    core::addTo(json, core::runSettings(designed));
    json.add("n_data", nData)
        .add("samples_completed", chain.completed)
        .add("acceptance_rate", summary.acceptanceRate)
        .add("mean_batch", summary.meanBatch)
        .add("sd_batch", summary.sdBatch)
        .add("max_batch", summary.maxBatch)
        .add("full_data_fallbacks", summary.fullDataFallbacks)
        .add("data_points_used", summary.dataPointsUsed)
        .add("full_scan_points", summary.fullScanPoints)
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
    json.add("description", dataset.description).add("augmented", dataset.augmented);
    if (dataset.classifier) {
        json.add("n_features", static_cast<std::int64_t>(dataset.classifier->data().featureCount()))
            .add("n_train", static_cast<std::int64_t>(dataset.classifier->dataSize()))
            .add("n_test", static_cast<std::int64_t>(dataset.testSet->size()))
            .add("test_accuracy", classifier.lastAccuracy)
            .add("test_accuracy_posterior_mean", classifier.meanAccuracy)
            .add("train_loglik", classifier.trainLogLikelihood)
            .add("test_loglik", classifier.testLogLikelihood);
    }
    if (!summaryPath.empty())
        core::writeFileAtomically(summaryPath, [&](std::ostream &out) { json.write(out); out << '\n'; });

    std::printf("method %s on %s: N = %lld, T = %g, step %g, %lld samples, seed %llu\n",
                core::methodName(config.method).c_str(), config.dataset.c_str(), static_cast<long long>(nData),
                config.temperature,
                config.step, static_cast<long long>(chain.completed), static_cast<unsigned long long>(config.seed));
    std::printf("  acceptance rate      %.4f\n", summary.acceptanceRate);
    std::printf("  minibatch size       mean %.1f  sd %.1f  max %lld\n", summary.meanBatch, summary.sdBatch,
                static_cast<long long>(summary.maxBatch));
    std::printf("  full-data fallbacks  %lld\n", static_cast<long long>(summary.fullDataFallbacks));
    std::printf("  data points used     %lld (%.3g passes over the data)\n", static_cast<long long>(summary.dataPointsUsed),
                static_cast<double>(summary.dataPointsUsed) / static_cast<double>(nData));
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
    if (dataset.classifier)
        std::printf("  test accuracy        %.4f at the last sample, %.4f at the posterior mean of the second half\n"
                    "  log-likelihood       %.4f per training point, %.4f per test point (posterior mean)\n",
                    classifier.lastAccuracy, classifier.meanAccuracy, classifier.trainLogLikelihood,
                    classifier.testLogLikelihood);
    std::printf("  wall time            %.2f s (%.0f iterations/s)\n", summary.wallSeconds, summary.iterationsPerSecond);
    if (!outPath.empty())
        std::printf("  samples written to   %s\n", outPath.c_str());
    if (!summaryPath.empty())
        std::printf("  summary written to   %s\n", summaryPath.c_str());
    return 0;
}

} // namespace cli
