#include "core/experiment/reports/run_report.h"

#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "core/experiment/reports/log_posterior_column.h"
#include "core/experiment/reports/mixing_check.h"
#include "core/experiment/inputs/logistic_dataset.h"
#include "core/experiment/reports/run_record.h"
#include "core/experiment/reports/samples_header.h"
#include "core/io/atomic_file.h"
#include "core/io/number_format.h"
#include "core/io/json_file.h"

namespace core {
namespace {

std::string methodList(const RunRequest &request)
{
    std::string names;
    for (std::size_t index = 0; index < request.methods.size(); ++index) {
        if (!names.empty())
            names += ',';
        names += request.methodLabel(index);
    }
    return names;
}

// The first row a chain's samples file holds: after a plain burn-in (at the target) that the
// file leaves out, else 0 (an annealing burn-in is written, marked as segment 1).
std::int64_t firstWrittenRow(const RunOutcome &outcome, const ChainReport &chain)
{
    return plainBurnIn(outcome.chainConfig(chain)) ? chain.result->burnInRows() : 0;
}

// The bulk ESS and the speed per effective sample, which a chain (ChainReport) and a method's
// chains taken together (PooledEss) hold under the same names and report the same way.
template <typename EssFigures>
void addEssJson(nlohmann::ordered_json &entry, const EssFigures &figures)
{
    nlohmann::ordered_json ess = nlohmann::ordered_json::array();
    for (double value : figures.bulkEss)
        ess.push_back(jsonNumber(value));
    entry["ess_bulk"] = ess;
    entry["ess_bulk_min"] = jsonNumber(figures.essBulkMin);
    entry["ess_bulk_median"] = jsonNumber(figures.essBulkMedian);
    entry["ess_coordinates"] = figures.essCoordinates;
    entry["ess_per_second"] = jsonNumber(figures.essPerSecond);
    entry["data_points_per_ess"] = jsonNumber(figures.dataPointsPerEss);
}

nlohmann::ordered_json pooledJson(const PooledEss &pooled)
{
    nlohmann::ordered_json entry;
    entry["method"] = pooled.methodLabel();
    entry["chains"] = pooled.chains;
    entry["acceptance_rate"] = jsonNumber(pooled.tests.acceptanceRate());
    entry["mean_batch"] = jsonNumber(pooled.tests.meanBatch());
    addEssJson(entry, pooled);
    entry["wall_seconds"] = jsonNumber(pooled.wallSeconds);
    return entry;
}

// What an adaptive proposal learned during the burn-in, as frozen for the samples: the scale,
// and the covariance (d×d rows when full, else the per-coordinate variances).
void addLearnedProposal(nlohmann::ordered_json &entry, const LearnedProposal &learned)
{
    entry["adapted_scale"] = jsonNumber(learned.scale);
    entry["adapted_covariance_learned"] = learned.covarianceLearned;
    entry["adapted_burn_in_acceptance"] = jsonNumber(learned.burnInAcceptance);
    nlohmann::ordered_json covariance = nlohmann::ordered_json::array();
    for (Eigen::Index i = 0; i < learned.covariance.rows(); ++i) {
        if (!learned.fullCovariance) {
            covariance.push_back(jsonNumber(learned.covariance(i, 0)));
            continue;
        }
        nlohmann::ordered_json row = nlohmann::ordered_json::array();
        for (Eigen::Index j = 0; j < learned.covariance.cols(); ++j)
            row.push_back(jsonNumber(learned.covariance(i, j)));
        covariance.push_back(row);
    }
    entry[learned.fullCovariance ? "adapted_covariance" : "adapted_variances"] = covariance;
}

nlohmann::ordered_json chainJson(const RunOutcome &outcome, const ChainReport &chain)
{
    const ChainSummary &s = chain.summary;
    const ChainResult &result = *chain.result;
    const RunConfig config = outcome.chainConfig(chain);
    nlohmann::ordered_json entry;
    entry["method"] = chain.methodLabel();
    entry["chain"] = chain.chainIndex + 1;
    entry["seed"] = chain.seed;
    entry["samples_completed"] = result.completed;
    entry["stopped"] = result.stopped;
    entry["acceptance_rate"] = jsonNumber(s.acceptanceRate());
    entry["mean_batch"] = jsonNumber(s.meanBatch());
    if (controlVariateOrder(config) > 0) {
        entry["max_distance_from_anchor"] = jsonNumber(chain.maxDistanceFromAnchor);
        entry["residual_sd"] = jsonNumber(chain.residualSd);
        entry["plain_ratio_sd"] = jsonNumber(chain.plainRatioSd);
    }
    entry["sd_batch"] = jsonNumber(s.sdBatch);
    entry["max_batch"] = s.maxBatch;
    entry["full_data_fallbacks"] = s.fullDataFallbacks;
    if (methodRow(config.method).reportsBoundViolations)
        entry["bound_violations"] = result.boundViolations;
    entry["all_data_iterations"] = s.allDataIterations;
    entry["data_points_used"] = s.dataPointsUsed();
    entry["full_scan_points"] = s.fullScanPoints;
    entry["burn_in_iterations"] = s.burnInIterations;
    entry["burn_in_points_read"] = s.burnInPointsRead;
    entry["proposal_points_read"] = s.proposalPointsRead;
    entry["wall_seconds"] = jsonNumber(s.wallSeconds);
    entry["full_scan_seconds"] = jsonNumber(result.fullScanSeconds);
    entry["proposal_setup_seconds"] = jsonNumber(result.setupSeconds);
    entry["iterations_per_second"] = jsonNumber(s.iterationsPerSecond);
    addEssJson(entry, chain);
    entry["ess_per_sampling_second"] = jsonNumber(chain.essPerSamplingSecond);
    entry["r_hat"] = jsonNumber(chain.splitRhat);
    // Vehtari et al. 2021's rule (mixing_check.h); null when R-hat and ESS were not measured.
    if (const std::string mixing = mixingName(checkMixing(chain).level); !mixing.empty())
        entry["mixing"] = mixing;
    else
        entry["mixing"] = nullptr;
    entry["segments"] = result.segments.size();
    entry["final_segment_start"] = result.finalSegmentStart();
    entry["final_temperature"] = result.segments.empty() ? config.temperature : result.segments.back().temperature;
    entry["final_step"] = result.segments.empty() ? config.step : result.segments.back().step;
    entry["proposal"] = proposalName(config.proposal);
    if (result.adaptation)
        addLearnedProposal(entry, *result.adaptation);
    const bool measured = chain.hasPosteriorMetrics;
    entry["posterior_tv"] = measured ? jsonNumber(chain.posterior.totalVariation) : nullptr;
    entry["posterior_chi2"] = measured ? jsonNumber(chain.posterior.chiSquared) : nullptr;
    entry["posterior_chi2_cells"] = measured ? chain.posterior.chiSquaredCells : 0;
    entry["posterior_poisson_loglik"] = measured ? jsonNumber(chain.posterior.poissonLogLikelihood) : nullptr;
    entry["posterior_outside_samples"] = measured ? chain.posterior.outside : 0;
    if (outcome.testSet) {
        entry["test_accuracy"] = jsonNumber(chain.testAccuracy);
        entry["test_loglik"] = jsonNumber(chain.testLogLikelihood);
        entry["test_accuracy_posterior_mean"] = jsonNumber(chain.meanThetaAccuracy);
        entry["train_loglik_posterior_mean"] = jsonNumber(chain.meanThetaTrainLogLikelihood);
        entry["test_loglik_posterior_mean"] = jsonNumber(chain.meanThetaTestLogLikelihood);
        entry["classifier_evaluations"] = chain.classifierEvaluations;
        entry["classifier_seconds"] = jsonNumber(chain.classifierSeconds);
    }
    return entry;
}

} // namespace

CsvMetadata samplesCsvMetadata(const RunOutcome &outcome, const ChainReport &chain, const std::string &program)
{
    const RunConfig config = outcome.chainConfig(chain);
    const ChainResult &result = *chain.result;
    const std::int64_t first = firstWrittenRow(outcome, chain);
    SamplesHeader header(program, config);
    header.data(sampledDataFacts(outcome))
        .chainPlace(chain.chainIndex, outcome.request.chains)
        .completion(result.completed, result.stopped)
        .featureScaling(outcome.featureScaling)
        .firstIteration(first);
    // Burn-in and live changes: where each segment starts and its settings, and what lp__ is.
    if (outcome.posterior || outcome.model)
        header.segmentsAndLogPosterior(result, outcome.posterior != nullptr, first);
    if (outcome.usedCorrection && needsCorrection(config.method))
        header.correctionError(outcome.correctionLinf);
    return header.lines();
}

namespace {

std::string samplesPathOf(const std::string &path, const std::string &method, int chainIndex)
{
    const std::filesystem::path file(path);
    const std::string suffix = file.has_extension() ? file.extension().string() : ".csv";
    const std::string stem = file.has_extension() ? file.stem().string() : file.filename().string();
    const std::string name = stem + "-" + method + "-chain" + std::to_string(chainIndex + 1) + suffix;
    return (file.parent_path() / name).string();
}

} // namespace

SampledDataFacts sampledDataFacts(const RunOutcome &outcome)
{
    return {outcome.datasetDescription, outcome.augmented, outcome.dataSize, outcome.featureScaling};
}

std::string chainSamplesPath(const RunOutcome &outcome, const ChainReport &chain, const std::string &path)
{
    if (outcome.request.channelCount() <= 1)
        return path;
    return samplesPathOf(path, chain.methodLabel(), chain.chainIndex);
}

std::string channelSamplesPath(const RunRequest &request, int channel, const std::string &path)
{
    if (request.channelCount() <= 1)
        return path;
    return samplesPathOf(path, methodVariantName(request.channelConfig(channel)), request.chainIndexOf(channel));
}

std::vector<double> logPosteriorOf(const RunOutcome &outcome, const ChainResult &chain, std::stop_token stop,
                                   std::string *whyOmitted)
{
    if (outcome.posterior)
        return logPosteriorColumn(chain, *outcome.posterior);
    if (!outcome.model)
        return {};
    std::string why;
    if (outcome.model->readsDataInPlace())
        why = "the rows are read in place from a file, and lp__ would read it once per distinct draw; the draws are complete";
    else if (const double cost = logPosteriorColumnCost(chain, *outcome.model); cost > kLogPosteriorColumnBudget)
        why = "lp__ would read " + formatRoundTrip(cost) + " data points (N per distinct draw), over "
              + formatRoundTrip(kLogPosteriorColumnBudget) + "; the draws are complete";
    if (!why.empty()) {
        if (whyOmitted)
            *whyOmitted = why;
        return {};
    }
    return logPosteriorColumn(chain, *outcome.model, stop);
}

std::vector<std::string> writeRunSamples(const RunOutcome &outcome, const std::string &path,
                                         const std::string &program, std::stop_token stop)
{
    if (outcome.chains.empty())
        throw std::invalid_argument("the run has no samples to write");
    std::vector<std::string> written;
    for (const ChainReport &chain : outcome.chains) {
        if (chain.result->samples.rows() < chain.result->completed)
            throw std::invalid_argument("the run kept no samples to write");
        CsvMetadata meta = samplesCsvMetadata(outcome, chain, program);
        std::string whyOmitted;
        const std::vector<double> lp = logPosteriorOf(outcome, *chain.result, stop, &whyOmitted);
        if (!whyOmitted.empty())
            meta.emplace_back("lp_omitted", whyOmitted);
        const std::string file = chainSamplesPath(outcome, chain, path);
        writeSamplesCsv(file, meta, *chain.result, lp, firstWrittenRow(outcome, chain));
        written.push_back(file);
    }
    return written;
}

nlohmann::ordered_json runSummaryJson(const RunOutcome &outcome, const std::string &program)
{
    const RunConfig &config = outcome.config();
    nlohmann::ordered_json json;
    json["program"] = program;
    addTo(json, runSettings(config));
    json["methods"] = methodList(outcome.request);
    json["chains_per_method"] = outcome.request.chains;
    json["parallel"] = outcome.request.parallel;
    json["stopped"] = outcome.stopped;
    json["n_data"] = outcome.dataSize;
    json["dimension"] = outcome.dimension;
    json["description"] = outcome.datasetDescription;
    json["augmented"] = outcome.augmented;
    if (!outcome.featureScaling.empty())
        json["feature_scaling"] = {{"means", outcome.featureScaling.means}, {"sds", outcome.featureScaling.sds}};
    json["data_seconds"] = jsonNumber(outcome.dataSeconds);
    json["data_bytes"] = outcome.dataBytes;
    if (outcome.testSet) {
        json["n_features"] = outcome.featureCount;
        json["n_train"] = outcome.dataSize;
        json["n_test"] = outcome.testSize;
    }
    json["components"] = outcome.componentNames;
    nlohmann::ordered_json proxies = nlohmann::ordered_json::array();
    for (const ControlVariateReport &cv : outcome.controlVariates)
        proxies.push_back({{"order", cv.order},
                           {"anchor", std::vector<double>(cv.anchor.data(), cv.anchor.data() + cv.anchor.size())},
                           {"newton_steps", cv.newtonSteps},
                           {"passes", cv.passes},
                           {"seconds", jsonNumber(cv.seconds)},
                           {"converged", cv.converged}});
    json["control_variates_setup"] = proxies;
    json["correction_linf"] = outcome.usedCorrection ? jsonNumber(outcome.correctionLinf) : nullptr;
    json["correction_from_cache"] = outcome.correctionFromCache;
    json["correction_converged"] = outcome.correctionConverged;
    json["austere_note"] = outcome.austereNote;
    json["tuna_forecast"] = outcome.tunaForecast;
    json["smh_forecast"] = outcome.smhForecast;
    json["gradient_forecast"] = outcome.gradientForecast;
    json["posterior_binning_error_bound"] = outcome.posterior ? jsonNumber(outcome.posterior->binningErrorBound()) : nullptr;
    nlohmann::ordered_json chains = nlohmann::ordered_json::array();
    for (const ChainReport &chain : outcome.chains)
        chains.push_back(chainJson(outcome, chain));
    json["chains"] = chains;
    if (!outcome.pooled.empty()) {
        nlohmann::ordered_json pooled = nlohmann::ordered_json::array();
        for (const PooledEss &entry : outcome.pooled)
            pooled.push_back(pooledJson(entry));
        json["pooled"] = pooled;
    }
    return json;
}

void writeRunSummary(const RunOutcome &outcome, const std::string &path, const std::string &program)
{
    writeJsonFile(path, runSummaryJson(outcome, program));
}

void writeClassifierTrace(const RunOutcome &outcome, const ChainReport &chain, const std::string &path)
{
    const auto model = std::dynamic_pointer_cast<const LogisticRegressionModel>(outcome.model);
    if (!model || !outcome.testSet)
        throw std::invalid_argument("a classifier trace is for --dataset logreg or tall-logreg (accuracy against data consumed)");
    const ChainResult &result = *chain.result;
    const RunConfig config = outcome.chainConfig(chain);
    const ClassifierTrace trace = classifierTrace(*model, result, *outcome.testSet, config.traceStride);
    const bool inPlace = model->readsDataInPlace();
    writeFileAtomically(path, [&](std::ostream &out) {
        out << "# dataset = " << config.dataset << "\n# description = " << outcome.datasetDescription << "\n# augmented = "
            << (outcome.augmented ? 1 : 0) << "\n# method = " << methodName(config.method)
            << "\n# data_used counts minibatch and full-scan points up to and including the iteration\n"
            << (inPlace ? "# train_mean_loglik is nan: the training rows are read in place from a file, a pass per row of this table\n" : "")
            << "iteration,data_used,test_accuracy,test_mean_loglik,train_mean_loglik\n";
        for (std::size_t k = 0; k < trace.iteration.size(); ++k) {
            const Vector theta = result.samples.row(trace.iteration[k]).transpose();
            out << trace.iteration[k] << ',' << trace.dataUsed[k] << ',' << formatRoundTrip(trace.accuracy[k]) << ','
                << formatRoundTrip(trace.meanLogLikelihood[k]) << ','
                << (inPlace ? std::string("nan") : formatRoundTrip(model->logLikelihoodSum(theta) / static_cast<double>(model->dataSize())))
                << '\n';
        }
    });
}

} // namespace core
