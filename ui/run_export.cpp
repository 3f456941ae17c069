#include "ui/run_export.h"

#include <cmath>
#include <stdexcept>

#include <QDir>
#include <QFileInfo>

#include "core/experiment/log_posterior_column.h"
#include "core/experiment/run_record.h"
#include "core/io/atomic_file.h"

namespace ui {
namespace {

std::string number(double value)
{
    return core::formatRoundTrip(value);
}

} // namespace

core::CsvMetadata csvMetadata(const RunOutcome &outcome, const ChainReport &chain)
{
    const core::RunConfig config = outcome.request.channelConfig(chain.channel);
    const core::ChainResult &result = *chain.result;
    // The shared record of a run's settings keeps these headers identical to the CLI's.
    core::CsvMetadata meta = {{"program", "mh-explorer"}};
    for (auto &entry : core::toMetadata(core::runSettings(config)))
        meta.push_back(std::move(entry));
    meta.insert(meta.end(), {{"description", outcome.datasetDescription.toStdString()},
                             {"augmented", outcome.augmented ? "1" : "0"},
                             {"n_data", std::to_string(outcome.dataSize)},
                             {"chain", std::to_string(chain.chainIndex + 1)},
                             {"chains", std::to_string(outcome.request.chains)},
                             {"completed", std::to_string(result.completed)},
                             {"stopped", result.stopped ? "1" : "0"}});
    // Burn-in and live changes: where each segment starts and its settings, and what lp__ is.
    if (outcome.posterior || outcome.model)
        core::addSegmentMetadata(meta, result, config, outcome.posterior != nullptr);
    if (outcome.usedCorrection && core::needsCorrection(config.method))
        meta.emplace_back("correction_linf", number(outcome.correctionLinf));
    return meta;
}

QString chainCsvPath(const RunOutcome &outcome, const ChainReport &chain, const QString &path)
{
    if (outcome.request.channelCount() <= 1)
        return path;
    const QFileInfo info(path);
    const QString suffix = info.suffix().isEmpty() ? QStringLiteral("csv") : info.suffix();
    const QString base = info.suffix().isEmpty() ? info.fileName() : info.completeBaseName();
    return info.dir().filePath(QStringLiteral("%1-%2-chain%3.%4")
                                   .arg(base, QString::fromStdString(core::methodName(chain.method)))
                                   .arg(chain.chainIndex + 1)
                                   .arg(suffix));
}

QStringList writeRunSamples(const RunOutcome &outcome, const QString &path)
{
    if (outcome.chains.isEmpty())
        throw std::invalid_argument("the run has no samples to write");
    QStringList written;
    for (const ChainReport &chain : outcome.chains) {
        const core::ChainResult &result = *chain.result;
        const std::vector<double> lp = outcome.posterior ? core::logPosteriorColumn(result, *outcome.posterior)
                                       : outcome.model   ? core::logPosteriorColumn(result, *outcome.model)
                                                         : std::vector<double>{};
        const QString file = chainCsvPath(outcome, chain, path);
        core::writeSamplesCsv(file.toStdString(), csvMetadata(outcome, chain), result, lp);
        written.append(file);
    }
    return written;
}

core::JsonObject runSummaryJson(const RunOutcome &outcome)
{
    const core::RunConfig &config = outcome.config();
    std::string methods;
    for (core::TestMethod method : outcome.request.methods) {
        if (!methods.empty())
            methods += ',';
        methods += core::methodName(method);
    }
    core::JsonObject json;
    json.add("program", "mh-explorer");
    core::addTo(json, core::runSettings(config));
    json.add("n_data", static_cast<std::int64_t>(outcome.dataSize))
        .add("description", outcome.datasetDescription.toStdString())
        .add("augmented", outcome.augmented)
        .add("methods", methods)
        .add("chains_per_method", outcome.request.chains)
        .add("parallel", outcome.request.parallel)
        .add("stopped", outcome.stopped)
        .add("correction_linf", outcome.usedCorrection ? outcome.correctionLinf : std::nan(""))
        .add("correction_from_cache", outcome.correctionFromCache);
    for (const ChainReport &chain : outcome.chains) {
        const core::ChainSummary &s = chain.summary;
        core::JsonObject entry;
        entry.add("method", core::methodName(chain.method))
            .add("chain", chain.chainIndex + 1)
            .add("seed", static_cast<std::int64_t>(chain.seed))
            .add("iterations", s.iterations)
            .add("acceptance_rate", s.acceptanceRate)
            .add("mean_batch", s.meanBatch)
            .add("sd_batch", s.sdBatch)
            .add("max_batch", s.maxBatch)
            .add("full_data_fallbacks", s.fullDataFallbacks)
            .add("data_points_used", s.dataPointsUsed)
            .add("full_scan_points", s.fullScanPoints)
            .add("wall_seconds", s.wallSeconds)
            .add("iterations_per_second", s.iterationsPerSecond)
            .add("bulk_ess_theta1", chain.bulkEss.value(0, std::nan("")))
            .add("bulk_ess_theta2", chain.bulkEss.value(1, std::nan("")))
            .add("bulk_ess_components", outcome.componentNames.join(QStringLiteral("; ")).toStdString())
            .add("ess_per_second", chain.essPerSecond)
            .add("split_rhat", chain.splitRhat)
            .add("segments", static_cast<std::int64_t>(chain.result->segments.size()))
            .add("final_segment_start", chain.result->finalSegmentStart())
            .add("final_temperature", chain.result->segments.empty() ? config.temperature
                                                                     : chain.result->segments.back().temperature)
            .add("final_step", chain.result->segments.empty() ? config.step : chain.result->segments.back().step)
            .add("posterior_tv", chain.hasPosteriorMetrics ? chain.posterior.totalVariation : std::nan(""))
            .add("posterior_chi2", chain.hasPosteriorMetrics ? chain.posterior.chiSquared : std::nan(""))
            .add("posterior_chi2_cells", chain.hasPosteriorMetrics ? chain.posterior.chiSquaredCells : 0);
        if (std::isfinite(chain.testAccuracy))
            entry.add("test_accuracy", chain.testAccuracy)
                .add("test_accuracy_posterior_mean", chain.meanThetaAccuracy)
                .add("test_loglik", chain.testLogLikelihood)
                .add("classifier_evaluations", static_cast<std::int64_t>(chain.classifierEvaluations))
                .add("classifier_seconds", chain.classifierSeconds);
        // The writer has objects but no arrays: chains are keyed by method and number.
        std::string key = core::methodName(chain.method);
        key += "-chain";
        key += std::to_string(chain.chainIndex + 1);
        json.add(key, entry);
    }
    return json;
}

void writeRunSummary(const RunOutcome &outcome, const QString &path)
{
    const core::JsonObject json = runSummaryJson(outcome);
    core::writeFileAtomically(path.toStdString(), [&json](std::ostream &out) {
        json.write(out);
        out << '\n';
    });
}

} // namespace ui
