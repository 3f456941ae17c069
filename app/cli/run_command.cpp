// `mh-explorer-cli run`: one method, one or more chains, through the run service; prints the
// figures and writes the samples, the summary and (logistic regression) the accuracy trace.
#include <cmath>
#include <cstdio>
#include <optional>

#include "app/cli/commands.h"
#include "app/cli/run_options.h"
#include "app/cli/run_progress.h"
#include "core/experiment/reports/mixing_check.h"
#include "core/experiment/reports/run_report.h"
#include "core/experiment/reports/samples_streaming.h"
#include "core/experiment/reports/run_record.h"
#include "core/experiment/service/run_service.h"
#include "core/experiment/settings/presets.h"
#include "core/install/install_layout.h"
#include "core/io/samples_csv_reader.h"
#include "core/io/streamed_samples.h"

namespace cli {
namespace {

constexpr const char *kProgram = "mh-explorer-cli run";

void printChain(const core::RunOutcome &outcome, const core::ChainReport &chain)
{
    const core::ChainSummary &summary = chain.summary;
    const auto nData = static_cast<double>(outcome.dataSize);
    if (outcome.chains.size() > 1)
        std::printf("chain %d (seed %llu)\n", chain.chainIndex + 1, static_cast<unsigned long long>(chain.seed));
    if (const std::string note = core::approximationNote(outcome.chainConfig(chain)); !note.empty())
        std::printf("  no accept step       %s The minibatch sizes are its gradient rows.\n", note.c_str());
    std::printf("  acceptance rate      %.4f\n", summary.acceptanceRate());
    std::printf("  minibatch size       mean %.1f  sd %.1f  max %lld\n", summary.meanBatch(), summary.sdBatch,
                static_cast<long long>(summary.maxBatch));
    std::printf("  full-data fallbacks  %lld\n", static_cast<long long>(summary.fullDataFallbacks));
    const core::TestMethod method = outcome.chainConfig(chain).method;
    if (core::methodRow(method).reportsBoundViolations && chain.result)
        std::printf("  bound violations     %lld (drawn points past their bound; the kernel is exact only at 0)\n",
                    static_cast<long long>(chain.result->boundViolations));
    std::printf("  data points used     %lld (%.3g passes over the data)\n", static_cast<long long>(summary.dataPointsUsed()),
                static_cast<double>(summary.dataPointsUsed()) / nData);
    std::printf("  tests that read all N %lld of %lld iterations\n", static_cast<long long>(summary.allDataIterations),
                static_cast<long long>(summary.iterations));
    if (summary.fullScanPoints > 0)
        std::printf("  full-data scans      %lld points (%.3g per iteration), not counted in the minibatch sizes\n",
                    static_cast<long long>(summary.fullScanPoints),
                    static_cast<double>(summary.fullScanPoints) / static_cast<double>(summary.iterations));
    if (summary.proposalPointsRead > 0)
        std::printf("  proposal gradients   %lld points, not counted in the minibatch sizes\n",
                    static_cast<long long>(summary.proposalPointsRead));
    if (chain.hasPosteriorMetrics)
        std::printf("  posterior            TV %.4f  chi2 %.1f (%d cells)  Eq.39 %.1f\n", chain.posterior.totalVariation,
                    chain.posterior.chiSquared, chain.posterior.chiSquaredCells, chain.posterior.poissonLogLikelihood);
    if (std::isfinite(chain.testAccuracy))
        std::printf("  test accuracy        %.4f at the last sample, %.4f at the posterior mean of the second half\n"
                    "  log-likelihood       %.4f per training point, %.4f per test point (posterior mean)\n",
                    chain.testAccuracy, chain.meanThetaAccuracy, chain.meanThetaTrainLogLikelihood,
                    chain.meanThetaTestLogLikelihood);
    if (summary.burnInIterations > 0)
        std::printf("  burn-in              %lld iterations, %lld data points read (in the time and data per ESS only)\n",
                    static_cast<long long>(summary.burnInIterations), static_cast<long long>(summary.burnInPointsRead));
    if (std::isfinite(chain.residualSd))
        std::printf("  proxies              theta at most %.3g from the mode; per-point sd of the residuals %.3g against "
                    "%.3g for the plain ratios\n",
                    chain.maxDistanceFromAnchor, chain.residualSd, chain.plainRatioSd);
    if (chain.result && chain.result->adaptation) {
        const core::LearnedProposal &learned = *chain.result->adaptation;
        std::printf("  adapted proposal     scale %.4g, %s covariance%s (burn-in acceptance %.3f), frozen after the burn-in\n",
                    learned.scale, learned.fullCovariance ? "full" : "diagonal",
                    learned.covarianceLearned ? "" : " not learned (burn-in shorter than the warm-up)",
                    learned.burnInAcceptance);
    }
    std::printf("  bulk ESS             ");
    for (std::size_t k = 0; k < chain.bulkEss.size(); ++k)
        std::printf("%s%s %.0f", k ? ", " : "", outcome.componentNames[k].c_str(), chain.bulkEss[k]);
    std::printf("%s  (min %.0f, median %.0f), split R-hat %.4f\n", chain.bulkEss.empty() ? "n/a" : "",
                chain.essBulkMin, chain.essBulkMedian, chain.splitRhat);
    const core::MixingVerdict mixing = core::checkMixing(chain);
    if (mixing.level == core::Mixing::NotMixed)
        std::printf("  not mixed            %s (%s): these figures describe where the chain went, not the posterior. "
                    "To try: %s.\n",
                    mixing.figures.c_str(), core::mixingRule().c_str(),
                    core::mixingAdvice(outcome.chainConfig(chain)).c_str());
    else if (mixing.level == core::Mixing::NotConverged)
        std::printf("  not converged        %s (Vehtari et al. 2021 ask for <= %.2f on every coordinate): the chain "
                    "moves, but its estimates carry more error than their ESS says; more --samples, or more chains "
                    "(--chains 2 --parallel), settle it.\n",
                    mixing.figures.c_str(), core::kMixedRhatAtMost);
    std::printf("  min ESS per second   %.4g over the whole run; %.4g data points read per ESS\n", chain.essPerSecond,
                chain.dataPointsPerEss);
    if (chain.result && chain.result->setupSeconds > 0.0)
        std::printf("                       %.4g over the sampling alone (the proposal's set-up, %.3g s, apart)\n",
                    chain.essPerSamplingSecond, chain.result->setupSeconds);
    std::printf("  wall time            %.2f s (%.0f iterations/s)\n", summary.wallSeconds, summary.iterationsPerSecond);
}

// Refuses every option given beside `option` (--from, --resume) other than `allowed`: the file's
// header holds every setting, and one given too would make a different run than the file's.
void allowOnly(const Arguments &args, const std::set<std::string> &valueOptions, const std::set<std::string> &flags,
               const std::string &option, const std::set<std::string> &allowed, const std::string &why)
{
    for (const auto *names : {&valueOptions, &flags})
        for (const std::string &name : *names)
            if (args.has(name) && name != option && !allowed.count(name))
                throw UsageError("--" + name + " cannot be combined with --" + option + ": " + why);
}

// --from FILE: the settings recorded in a samples file's header, to make that chain again.
// Only where the results go may be given with it; a setting given too would make a different
// run than the file's.
core::RunConfig settingsFromSamplesFile(const Arguments &args, const std::set<std::string> &valueOptions,
                                        const std::set<std::string> &flags)
{
    allowOnly(args, valueOptions, flags, "from", {"out", "summary", "trace", "no-cache"},
              "the file's header holds every setting (only --out, --summary, --trace and --no-cache may be added)");
    const std::string path = args.text("from", "");
    try {
        core::RunConfig config = core::runConfigFromMetadata(core::readSamplesCsv(path).metadata);
        config.logreg.searchDirectories = core::dataSearchDirectories();
        return config;
    } catch (const std::exception &error) {
        throw UsageError("--from " + path + ": " + error.what());
    }
}

// --resume FILE: a samples file streamed by a run with --checkpoint-every that was cut short.
// The chain goes on from the file's last checkpoint: the draws after it are dropped (the chain
// makes them again, the same ones), the burn-in runs again unwritten (it is deterministic and
// freezes the same proposal), and the draws that follow are appended to the file.
struct Resumption {
    core::StreamedSamples file;
    core::RunConfig config;
    std::int64_t checkpoint = 0; ///< draws after the burn-in the chain goes on from
    std::size_t keptRows = 0;    ///< lines of the file kept: the rows before that checkpoint
};

Resumption planResumption(const Arguments &args, const std::set<std::string> &valueOptions,
                          const std::set<std::string> &flags)
{
    allowOnly(args, valueOptions, flags, "resume", {"summary", "no-cache"},
              "the file's header holds every setting and the draws go on in the file itself (only --summary and "
              "--no-cache may be added)");
    const std::string path = args.text("resume", "");
    Resumption plan;
    try {
        plan.file = core::readStreamedSamples(path);
        plan.config = core::runConfigFromMetadata(plan.file.metadata);
    } catch (const std::exception &error) {
        throw UsageError("--resume " + path + ": " + error.what());
    }
    plan.config.logreg.searchDirectories = core::dataSearchDirectories();
    const core::RunConfig &config = plan.config;
    if (plan.file.status.empty() || plan.file.status.starts_with("complete"))
        throw UsageError("--resume " + path + ": the run that wrote it finished (" +
                         (plan.file.status.empty() ? std::string("no status line") : plan.file.status) + "): nothing to continue");
    if (config.checkpointEvery < 1)
        throw UsageError("--resume " + path + ": it was written without --checkpoint-every, so its chain cannot be "
                         "continued exactly; next time add --checkpoint-every 1000 (or make it again from the start with "
                         "run --from " + path + " --out FILE)");
    std::int64_t firstRow = 0;
    try {
        firstRow = std::stoll(plan.file.value("first_iteration", "0"));
    } catch (const std::exception &) {
        throw UsageError("--resume " + path + ": first_iteration is not a number");
    }
    const std::int64_t target = config.samples - config.burnIn;
    const std::int64_t made = firstRow + static_cast<std::int64_t>(plan.file.rows.size()) - config.burnIn;
    if (made >= target)
        throw UsageError("--resume " + path + ": it holds all " + std::to_string(target) + " draws already");
    plan.checkpoint = made > 0 ? made - made % config.checkpointEvery : 0;
    if (plan.checkpoint > 0)
        plan.keptRows = static_cast<std::size_t>(config.burnIn + plan.checkpoint - firstRow);
    return plan;
}

// The request the arguments ask for: a run's settings, a samples file's (--from) or a cut-short
// run's (--resume, which `resumption` then holds), its chains and threads, validated.
core::RunRequest makeRunRequest(const Arguments &args, const std::set<std::string> &valueOptions,
                                const std::set<std::string> &flags, std::optional<Resumption> &resumption)
{
    if (args.has("from") && args.has("resume"))
        throw UsageError("--from makes a chain again from the start, --resume continues one: give one of them");
    if (args.has("resume"))
        resumption = planResumption(args, valueOptions, flags);
    core::RunRequest request = core::RunRequest::single(
        resumption ? resumption->config : args.has("from") ? settingsFromSamplesFile(args, valueOptions, flags) : readRunConfig(args));
    if (resumption && resumption->checkpoint > 0) {
        const std::vector<double> theta = resumption->file.parameters(resumption->keptRows - 1);
        request.resumeDraws = resumption->checkpoint;
        request.resumeTheta = Eigen::Map<const core::Vector>(theta.data(), static_cast<Eigen::Index>(theta.size()));
    }
    // Without a count, the preset's (two chains at once on images); a chain made again from a
    // samples file, or traced, is one.
    const bool presetDecides = !args.has("chains") && !args.has("from") && !resumption && !args.has("trace");
    request.chains = presetDecides ? core::presetChains(request.config, {request.config.method})
                                   : static_cast<int>(args.integer("chains", 1));
    request.parallel = args.flag("parallel") || args.has("threads") || (presetDecides && request.chains > 1);
    request.threads = static_cast<int>(args.integer("threads", 0));
    request.useCorrectionCache = !args.flag("no-cache");
    asUsage([&] { core::validate(request); });
    return request;
}

// Cuts a resumed file back to its checkpoint, where it has one, and says what happens to its rows.
void continueResumedFile(const Resumption &resumption, core::SamplesStreamingObserver &streaming)
{
    const std::string &outPath = resumption.file.path;
    const auto draws = static_cast<long long>(resumption.file.rows.size());
    if (resumption.checkpoint > 0) {
        core::cutBackStreamedSamples(resumption.file, resumption.keptRows);
        streaming.appendAfter(static_cast<std::int64_t>(resumption.keptRows));
        std::fprintf(stderr, "resuming %s: %lld rows in the file; the chain goes on from its checkpoint at draw %lld "
                             "(the %lld rows after it are made again, the same), after running the burn-in again\n",
                     outPath.c_str(), draws, static_cast<long long>(resumption.checkpoint),
                     draws - static_cast<long long>(resumption.keptRows));
    } else {
        std::fprintf(stderr, "resuming %s: %lld rows, before the first checkpoint: the chain starts again\n",
                     outPath.c_str(), draws);
    }
}

// What an interrupted run keeps: the streamed draws, marked, and the summary of them. The
// shell's exit status for an interrupt.
int reportInterrupted(const core::RunOutcome &outcome, const core::RunRequest &request,
                      core::SamplesStreamingObserver *streaming, const std::string &summaryPath)
{
    std::fprintf(stderr, "interrupted after %lld of %lld samples", static_cast<long long>(outcome.totalIterations()),
                 static_cast<long long>(request.config.samples) * request.channelCount());
    if (!streaming) {
        std::fprintf(stderr, "; nothing written (--out streams the draws to a file as they are made)\n");
        return 130;
    }
    std::fprintf(stderr, "\n");
    for (const auto &kept : streaming->closeInterrupted(outcome))
        std::fprintf(stderr, "  kept %lld draws in %s (marked interrupted; diagnose, pandas and ArviZ read it)\n",
                     static_cast<long long>(kept.draws), kept.path.c_str());
    if (!summaryPath.empty()) {
        core::writeRunSummary(outcome, summaryPath, kProgram);
        std::fprintf(stderr, "  summary of the draws made written to %s\n", summaryPath.c_str());
    }
    return 130;
}

// The run's first lines: what ran, on which data, with which preset, and the set-up it paid for
// before sampling (the mode, the control variates, the correction table). The settings are the
// run's, with what was chosen once the data were loaded (a step left to the forecast).
void printRunHeader(const core::RunOutcome &outcome)
{
    const core::RunRequest &request = outcome.request;
    const core::RunConfig config = request.methodConfig(0);
    std::printf("method %s on %s: N = %lld, T = %g, step %g, %lld samples x %d chain%s, seed %llu\n",
                core::methodName(config.method).c_str(), config.dataset.c_str(),
                static_cast<long long>(outcome.dataSize), config.temperature, config.step,
                static_cast<long long>(config.samples), request.chains, request.chains > 1 ? "s" : "",
                static_cast<unsigned long long>(config.seed));
    if (config.preset == core::Preset::Recommended) {
        // The gradient's batch when chosen from N (grad-batch 0) is the one figure here that the
        // settings do not show.
        std::string batch =
            core::usesGradient(config.proposal) && config.gradBatch == 0
                ? ", gradient batch " + std::to_string(core::gradBatchFor(config, outcome.dataSize)) + " (N/30 within 100..400)"
                : std::string();
        // The worst case's N is the preset's too, and unlike the paper's 10^6.
        if (const core::DatasetEntry &data = core::datasetEntry(config.dataset);
            !data.presetSizeReason.empty() && config.nData == core::kRecommendedWorstCaseSize)
            batch += ", N " + std::to_string(config.nData) + " (" + std::string(data.presetSizeReason) + ")";
        std::printf("  preset               recommended: proposal %s%s, burn-in %lld (--preset paper for Seita et al.'s "
                    "settings)\n",
                    core::proposalName(config.proposal).c_str(), batch.c_str(), static_cast<long long>(config.burnIn));
    }
    else
        std::printf("  preset               paper (Seita et al. Sec. 6's settings)\n");
    if (outcome.dataBytes > 0)
        std::printf("  data                 N = %lld, d = %d: %.4g MB in memory, made in %.3g s (not in the speeds below)\n",
                    static_cast<long long>(outcome.dataSize), outcome.dimension,
                    static_cast<double>(outcome.dataBytes) / 1e6, outcome.dataSeconds);
    // With a laplace-* proposal the mode search starts where the Laplace fit ended.
    const char *const modeStart =
        core::usesLaplaceFit(config.proposal) && core::modelOf(config).capabilities.has(core::ModelCapability::LaplaceFit)
            ? " from the Laplace fit's mode"
            : "";
    for (const core::ControlVariateReport &cv : outcome.controlVariates)
        if (cv.order == 0)
            std::printf("  posterior mode       %d Newton steps%s%s, %lld passes over the data, %.3g s (not in the speeds "
                        "below): the chains start there\n",
                        cv.newtonSteps, modeStart, cv.converged ? "" : " (not converged)", static_cast<long long>(cv.passes),
                        cv.seconds);
        else
            std::printf("  control variates     taylor%d around the posterior mode: %d Newton steps%s%s, %lld passes over the "
                    "data, %.3g s (not in the speeds below)\n",
                    cv.order, cv.newtonSteps, modeStart, cv.converged ? "" : " (not converged)",
                    static_cast<long long>(cv.passes), cv.seconds);
    if (outcome.usedCorrection)
        std::printf("  correction L-inf     %.3g (%s, sigma %g, lambda %g%s)\n", outcome.correctionLinf,
                    core::solverName(config.correction.solver).c_str(), config.correction.sigma,
                    config.correction.lambda, outcome.correctionFromCache ? ", cached" : "");
}

} // namespace

int runCommand(int argc, char **argv)
{
    auto valueOptions = runValueOptions();
    valueOptions.insert({"chains", "threads", "from", "resume"});
    auto flags = runFlags();
    flags.insert("parallel");
    const Arguments args(argc, argv, 2, valueOptions, flags);
    std::optional<Resumption> resumption;
    core::RunRequest request = makeRunRequest(args, valueOptions, flags, resumption);
    const core::RunConfig &config = request.config;
    const std::string outPath = resumption ? resumption->file.path : args.text("out", "");
    const std::string summaryPath = args.text("summary", "");
    const std::string tracePath = args.text("trace", "");
    // Fail before minutes of sampling, not after.
    if (!outPath.empty())
        requireWritable("out", outPath);
    if (!summaryPath.empty())
        requireWritable("summary", summaryPath);
    if (!tracePath.empty()) {
        if (!core::isLogisticDataset(config.dataset))
            throw UsageError("--trace is for --dataset logreg or tall-logreg (accuracy against data consumed)");
        if (request.chains > 1)
            throw UsageError("--trace is for one chain (--chains 1)");
        requireWritable("trace", tracePath);
    }

    RunProgress progress(core::methodName(config.method));
    // With --out the draws go to their files as they are made: a run cut short keeps them.
    std::optional<core::SamplesStreamingObserver> streaming;
    if (!outPath.empty())
        streaming.emplace(progress, request, outPath, kProgram);
    if (resumption)
        continueResumedFile(*resumption, *streaming);
    core::RunObserver &observer = streaming ? static_cast<core::RunObserver &>(*streaming) : progress;
    const core::RunOutcome outcome = [&] {
        try {
            return core::runRequest(request, observer, {interruptToken()});
        } catch (const std::exception &error) {
            // The draws made stay, marked with what stopped them.
            if (streaming)
                streaming->closeFailed(error.what());
            throw;
        }
    }();
    progress.finish();
    if (streaming && !streaming->error().empty())
        std::fprintf(stderr, "warning: the draws could not be streamed to their file (%s); they are written at the end\n",
                     streaming->error().c_str());
    if (outcome.stopped)
        return reportInterrupted(outcome, request, streaming ? &*streaming : nullptr, summaryPath);
    const bool appended = resumption && resumption->checkpoint > 0;
    if (appended) {
        streaming->closeWith("complete: resumed at draw " + std::to_string(resumption->checkpoint) + " of "
                             + std::to_string(config.samples - config.burnIn)
                             + "; the draws are those of the uninterrupted chain");
        // The streamed lines have no lp__; the finished file gets it as an uninterrupted run's does.
        if (const std::string why = core::addLogPosteriorToResumedSamples(outcome, outPath, interruptToken()); !why.empty())
            std::fprintf(stderr, "lp__ left out of %s: %s\n", outPath.c_str(), why.c_str());
    } else if (streaming)
        streaming->closeFinished();
    if (!outcome.austereNote.empty())
        std::fprintf(stderr, "%s\n", outcome.austereNote.c_str());
    if (!outcome.correctionConverged)
        std::fprintf(stderr, "warning: the NNLS correction solve stopped at its iteration limit before converging; "
                             "the table's L-inf error (%.3g) is measured, but a finer or different solve may do better "
                             "(--solver ridge, or another --grid)\n", outcome.correctionLinf);

    std::vector<std::string> written;
    if (appended)
        written = {outPath}; // the file is the stream: its first draws are not in this run's memory
    else if (!outPath.empty())
        written = core::writeRunSamples(outcome, outPath, kProgram, interruptToken());
    if (!tracePath.empty())
        core::writeClassifierTrace(outcome, outcome.chains.front(), tracePath);
    if (!summaryPath.empty())
        core::writeRunSummary(outcome, summaryPath, kProgram);

    printRunHeader(outcome);
    for (const core::ChainReport &chain : outcome.chains)
        printChain(outcome, chain);
    for (const core::PooledEss &pooled : outcome.pooled)
        std::printf("pooled over %d chains: acceptance rate %.4f, minibatch size mean %.1f; bulk ESS min %.0f, "
                    "median %.0f; %.4g per second over %.2f s; %.4g data points read per ESS\n",
                    pooled.chains, pooled.tests.acceptanceRate(), pooled.tests.meanBatch(), pooled.essBulkMin,
                    pooled.essBulkMedian, pooled.essPerSecond, pooled.wallSeconds, pooled.dataPointsPerEss);
    for (const std::string &path : written)
        std::printf("  samples written to   %s\n", path.c_str());
    if (!tracePath.empty())
        std::printf("  trace written to     %s\n", tracePath.c_str());
    if (!summaryPath.empty())
        std::printf("  summary written to   %s\n", summaryPath.c_str());
    return 0;
}

} // namespace cli
