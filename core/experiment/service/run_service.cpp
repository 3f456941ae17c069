#include "core/experiment/service/run_service.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <mutex>
#include <thread>

#include "core/correction/cancelled.h"
#include "core/correction/correction_cache.h"
#include "core/diagnostics/chain_convergence.h"
#include "core/experiment/inputs/austere_setup.h"
#include "core/experiment/service/continuous_chain.h"
#include "core/experiment/service/control_variate_setup.h"
#include "core/experiment/service/gradient_setup.h"
#include "core/experiment/service/smh_setup.h"
#include "core/experiment/service/tuna_setup.h"
#include "core/experiment/reports/ess_figures.h"
#include "core/experiment/service/experiment_runner.h"
#include "core/experiment/inputs/posterior_references.h"
#include "core/install/install_layout.h"
#include "core/io/number_format.h"

namespace core {
namespace {

std::string formatNumber(double value)
{
    return formatSignificant(value, 6); // %g's six digits
}

// The θ components charts plot and diagnostics describe. A logistic-regression weight the data
// do not constrain (a blank corner pixel) only wanders with its prior; the two most
// discriminative features show the posterior at work.
void choosePlottedComponents(const DatasetInstance &dataset, RunOutcome &outcome)
{
    if (dataset.classifier) {
        const ClassificationData &data = dataset.classifier->data();
        for (int feature : mostDiscriminativeFeatures(data, 2)) {
            outcome.components.push_back(feature);
            outcome.componentNames.push_back(
                data.imageCols > 0 ? "weight of pixel (" + std::to_string(feature / data.imageCols) + ", "
                                         + std::to_string(feature % data.imageCols) + ")"
                : data.featureNames.size() == static_cast<std::size_t>(data.featureCount())
                    ? "weight of " + data.featureNames[static_cast<std::size_t>(feature)]
                    : "weight of feature " + std::to_string(feature + 1));
        }
        return;
    }
    if (outcome.dimension == 1) {
        outcome.components = {0};
        outcome.componentNames = {"θ"};
        return;
    }
    outcome.components = {0, 1};
    outcome.componentNames = {"θ₁", "θ₂"};
}

std::shared_ptr<const CorrectionDistribution> prepareCorrection(const RunRequest &request, RunObserver &observer,
                                                                std::stop_token stop, RunOutcome &outcome)
{
    if (std::none_of(request.methods.begin(), request.methods.end(), needsCorrection))
        return nullptr;
    const CorrectionParams &params = request.config.correction;
    observer.stageStarted(RunStage::Correction, "Preparing the correction distribution (sigma = "
                                                    + formatNumber(params.sigma)
                                                    + ", lambda = " + formatNumber(params.lambda) + ")");
    observer.preparationProgress(RunStage::Correction, 0.0);
    auto progress = [&observer](double fraction) { observer.preparationProgress(RunStage::Correction, fraction); };
    bool fromCache = false;
    auto table = request.useCorrectionCache ? loadOrSolveCorrection(params, progress, stop, &fromCache)
                                            : CorrectionDistribution::solve(params, progress, stop);
    outcome.usedCorrection = true;
    outcome.correctionLinf = table.linfError();
    outcome.correctionFromCache = fromCache;
    outcome.correctionConverged = table.solverConverged();
    return std::make_shared<const CorrectionDistribution>(std::move(table));
}

// The Laplace fit every laplace-* chain of the request is built around: made once here (both
// cores), or found made by an earlier run on the same data at the same temperature.
std::shared_ptr<const TimedLaplaceFit> prepareLaplace(const RunOutcome &outcome, const PreparedData &prepared,
                                                      RunObserver &observer, std::stop_token stop)
{
    const RunConfig &config = outcome.request.config;
    if (!usesLaplaceFit(config.proposal) || !prepared.laplaceFits)
        return nullptr; // a model without the fit: each chain's makeProposal says what to use instead
    observer.stageStarted(RunStage::LaplaceFit, "Fitting the Laplace approximation at T = " + formatNumber(config.temperature)
                                                    + " (Newton steps over the " + std::to_string(outcome.dataSize)
                                                    + " points; once per data and temperature)");
    observer.preparationProgress(RunStage::LaplaceFit, -1.0);
    return prepared.laplaceFits->at(config.temperature, stop);
}

// The design grid (once, for every method that needs it) and AustereMH(c)'s pilot-chosen
// (m, ε), written into outcome.request so that every austere-c channel uses it.
std::shared_ptr<const AustereDesigner>
prepareAustere(RunOutcome &outcome, const DatasetInstance &dataset,
               const std::array<std::shared_ptr<const ControlVariateModel>, 3> &controlVariates, RunObserver &observer,
               std::stop_token stop)
{
    std::shared_ptr<const AustereDesigner> designer;
    std::string note;
    for (std::size_t index = 0; index < outcome.request.methods.size(); ++index) {
        RunConfig settings = outcome.request.methodConfig(index);
        if (!needsAustereDesign(settings))
            continue;
        const bool hadDesigner = designer != nullptr;
        if (!hadDesigner)
            observer.stageStarted(RunStage::AustereDesign,
                                  "Loading or tabulating the AustereMH design grid for N = "
                                      + std::to_string(outcome.dataSize)
                                      + " (the first time for an N takes minutes at 10^6; it is cached afterwards)");
        AustereSetupProgress progress;
        progress.design = [&observer](double f) { observer.preparationProgress(RunStage::AustereDesign, f); };
        bool pilotAnnounced = false;
        progress.pilot = [&](double f) {
            if (!pilotAnnounced) {
                pilotAnnounced = true;
                observer.stageStarted(RunStage::AusterePilot, "AustereMH(c): choosing (m, epsilon) from "
                                                                  + std::to_string(settings.austerePilot)
                                                                  + " pilot proposals");
            }
            observer.preparationProgress(RunStage::AusterePilot, f);
        };
        // AustereMH(c)'s pilot measures the moments the test will see: the residuals' with
        // control variates.
        DatasetInstance tested = dataset;
        if (const auto &cv = controlVariates[static_cast<std::size_t>(controlVariateOrder(settings))])
            tested.model = cv;
        const AustereSetup setup = core::prepareAustere(settings, tested, progress, stop, designer);
        if (!hadDesigner)
            note += setup.designFromCache ? "AustereMH design grid from the cache"
                                          : "AustereMH design grid tabulated and cached";
        designer = setup.designer;
        if (const auto &chosen = setup.conservativeChoice) {
            outcome.request.config.austere = settings.austere;
            char text[200];
            std::snprintf(text, sizeof text, "AustereMH(c) design m = %lld, ε = %g (mean |ΔP| %.2g over %zu pilot proposals%s)",
                          static_cast<long long>(chosen->batch), chosen->epsilon, chosen->meanAbsError,
                          setup.pilotProposals, chosen->feasible ? "" : ", no design met the bound");
            note += std::string(note.empty() ? "" : "; ") + text;
        }
    }
    outcome.austereNote = note;
    return designer;
}

// Accuracy and log-likelihoods of a logistic-regression chain (Seita et al., "Minibatch Acceptance
// Test" (later version), Sec. 6.2): at the last sample, and at the mean θ of the second half of the
// final segment.
void addClassifierFigures(const DatasetInstance &dataset, const ChainResult &chain, ChainReport &report)
{
    if (!dataset.classifier || chain.completed == 0)
        return;
    const LogisticRegressionModel &model = *dataset.classifier;
    const ClassificationData &test = *dataset.testSet;
    const ClassifierFit last = model.fit(chain.samples.row(chain.completed - 1).transpose(), test);
    const std::int64_t start = chain.finalSegmentStart();
    const std::int64_t half = start + (chain.completed - start) / 2;
    const Vector mean = chain.samples.middleRows(half, chain.completed - half).colwise().mean().transpose();
    report.testAccuracy = last.accuracy;
    report.testLogLikelihood = last.meanLogLikelihood;
    report.meanThetaAccuracy = model.accuracy(mean, test);
    const auto notice = model.announceFullPass("the summary's training log-likelihood at the posterior mean");
    report.meanThetaTrainLogLikelihood = model.logLikelihoodSum(mean) / static_cast<double>(model.dataSize());
    report.meanThetaTestLogLikelihood = model.meanLogLikelihood(mean, test);
}

// A chain's totals and segments without its rows, for requests that do not keep samples.
std::shared_ptr<const ChainResult> withoutRows(const ChainResult &chain)
{
    ChainResult kept;
    static_cast<ChainTotals &>(kept) = chain;
    kept.samples.resize(0, chain.samples.cols());
    return std::make_shared<const ChainResult>(std::move(kept));
}

class ChainScheduler {
public:
    ChainScheduler(RunOutcome &outcome, const DatasetInstance &dataset, RunObserver &observer,
                   const RunControls &controls, ChainInputs shared, PosteriorReferences *references)
        : m_outcome(outcome), m_dataset(dataset), m_observer(observer), m_controls(controls),
          m_shared(std::move(shared)), m_references(references),
          m_reports(static_cast<std::size_t>(outcome.request.channelCount())),
          m_forwardStop(controls.stop, [this] { m_chainsStop.request_stop(); })
    {
    }

    void run()
    {
        const int threads = m_outcome.request.concurrency();
        if (threads > 1) {
            std::vector<std::jthread> workers;
            for (int k = 0; k < threads; ++k)
                workers.emplace_back([this] { drain(); });
        } else {
            drain();
        }
        if (m_failure)
            std::rethrow_exception(m_failure);
        for (auto &report : m_reports)
            if (report.result)
                m_outcome.chains.push_back(std::move(report));
    }

private:
    void drain()
    {
        const int channels = m_outcome.request.channelCount();
        for (int channel = m_next++; channel < channels && !m_chainsStop.stop_requested(); channel = m_next++) {
            try {
                runChannel(channel);
            } catch (...) {
                const std::lock_guard lock(m_failureMutex);
                if (!m_failure)
                    m_failure = std::current_exception();
                m_chainsStop.request_stop(); // a failing chain stops the others
            }
        }
    }

    void runChannel(int channel)
    {
        const RunRequest &request = m_outcome.request;
        const RunConfig settings = request.channelConfig(channel);
        m_observer.chainStarted(channel, settings);
        ChainInputs inputs = m_shared;
        inputs.stop = m_chainsStop.get_token();
        inputs.pauseGate = m_controls.pauseGate;
        inputs.tuning = m_controls.tuning;
        inputs.onProgress = [this, channel](const ChainResult &result, std::int64_t first, std::int64_t last) {
            m_observer.chainProgress(channel, result, first, last);
        };
        inputs.resumeDraws = request.resumeDraws;
        inputs.resumeTheta = request.resumeTheta;
        RunConfig ended = settings;
        // With kernel controls (the desktop app) a fixed-length chain follows kernel changes too.
        ChainResult chain = request.untilStopped || m_controls.kernel
                                ? runInLaps(channel, settings, std::move(inputs), ended)
                                : runConfiguredChain(settings, m_dataset, inputs);

        ChainReport &report = m_reports[static_cast<std::size_t>(channel)];
        report.channel = channel;
        report.method = ended.method;
        report.label = methodVariantName(ended);
        report.chainIndex = request.chainIndexOf(channel);
        report.seed = settings.seed;
        report.summary = summarize(chain, m_dataset.model->dataSize());
        report.summary.proposalPointsRead = proposalPointsPerIteration(settings, m_dataset.model->dataSize()) * chain.completed;
        const ChainDiagnostics diagnostics = finalSegmentDiagnostics(chain);
        report.bulkEss.clear();
        if (!diagnostics.bulkEss.empty())
            for (int k : m_outcome.components)
                report.bulkEss.push_back(diagnostics.bulkEss[static_cast<std::size_t>(k)]);
        report.ownSplitRhat = diagnostics.maxSplitRhat;
        report.moments = finalSegmentMoments(chain);
        addEssFigures(chain, diagnostics.bulkEss, report);
        addClassifierFigures(m_dataset, chain, report);
        if (const auto &cv = m_shared.controlVariates[static_cast<std::size_t>(controlVariateOrder(settings))])
            addControlVariateFigures(chain, *cv, report);
        // A stopped chain skips the comparison: the reference grid takes about a second and
        // cannot be cancelled.
        // A run until stopped ends by a stop: its window is measured all the same.
        if (m_references && (request.untilStopped || (!chain.stopped && !m_controls.stop.stop_requested())))
            if (const auto metrics = m_references->measureFinalSegment(chain)) {
                report.posterior = *metrics;
                report.hasPosteriorMetrics = true;
            }
        if (request.keepSamples) {
            report.result = std::make_shared<const ChainResult>(std::move(chain));
            if (request.chains > 1)
                report.rowsForPooling = report.result;
        } else if (request.chains > 1) {
            report.rowsForPooling = std::make_shared<const ChainResult>(std::move(chain));
            report.result = withoutRows(*report.rowsForPooling);
        } else {
            report.result = withoutRows(chain);
        }
        m_observer.chainFinished(report);
    }

    ChainResult runInLaps(int channel, const RunConfig &settings, ChainInputs inputs, RunConfig &ended)
    {
        ContinuousChainHooks hooks;
        hooks.kernel = m_controls.kernel;
        hooks.methodMayChange = m_outcome.request.methods.size() == 1;
        hooks.prepareKernel = [this](RunConfig &kernel, ChainInputs &prepared) { prepareKernel(kernel, prepared); };
        hooks.lapEnded = [this, channel](const ChainResult &lap) { m_observer.chainLapEnded(channel, lap); };
        hooks.kernelRefused = [this, channel](const std::string &problem) {
            m_observer.kernelChangeRefused(channel, problem);
        };
        return m_outcome.request.untilStopped ? runUntilStopped(settings, m_dataset, std::move(inputs), hooks, &ended)
                                              : runFollowingKernelChanges(settings, m_dataset, std::move(inputs), hooks, &ended);
    }

    // The correction table, AustereMH design and TunaMH's χ of a new kernel, between two laps. Channels
    // take turns, so parallel chains that switch together solve a new σ once.
    void prepareKernel(RunConfig &kernel, ChainInputs &inputs)
    {
        const std::lock_guard lock(m_kernelMutex);
        try {
            const std::stop_token stop = m_chainsStop.get_token();
            if (needsCorrection(kernel.method)
                && (!inputs.correction || inputs.correction->params() != kernel.correction)) {
                const auto known = std::find_if(m_corrections.begin(), m_corrections.end(), [&](const auto &table) {
                    return table->params() == kernel.correction;
                });
                if (known != m_corrections.end()) {
                    inputs.correction = *known;
                } else {
                    inputs.correction = std::make_shared<const CorrectionDistribution>(
                        m_outcome.request.useCorrectionCache ? loadOrSolveCorrection(kernel.correction, {}, stop)
                                                             : CorrectionDistribution::solve(kernel.correction, {}, stop));
                    m_corrections.push_back(inputs.correction);
                }
            }
            if (kernel.method == TestMethod::Tuna && kernel.tunaChi == 0.0) {
                // χ left to the forecast, made once for every channel at the run's temperature
                // (ρ² is a ratio of the bounds to the changes they bound: T cancels in it).
                if (!(m_forecastChi > 0.0))
                    m_forecastChi = forecastForKernel(*m_dataset.model, m_shared.laplace,
                                                      m_outcome.request.config.temperature,
                                                      m_outcome.request.config.adaptTarget, stop)
                                        .chosenChi();
                kernel.tunaChi = m_forecastChi;
            }
            if (needsAustereDesign(kernel)) {
                m_designer = core::prepareAustere(kernel, m_dataset, {}, stop, m_designer ? m_designer : inputs.designer).designer;
                inputs.designer = m_designer;
            }
        } catch (const Cancelled &) {
            throw std::invalid_argument("the run stopped while the new acceptance test was prepared");
        }
    }

    RunOutcome &m_outcome;
    const DatasetInstance &m_dataset;
    RunObserver &m_observer;
    const RunControls &m_controls;
    const ChainInputs m_shared;
    PosteriorReferences *m_references;
    std::vector<ChainReport> m_reports;
    std::stop_source m_chainsStop;
    const std::stop_callback<std::function<void()>> m_forwardStop;
    std::atomic<int> m_next{0};
    std::mutex m_kernelMutex; // guards the three below
    std::vector<std::shared_ptr<const CorrectionDistribution>> m_corrections;
    std::shared_ptr<const AustereDesigner> m_designer;
    double m_forecastChi = 0.0; ///< TunaMH's χ from its forecast, for kernels that leave it at 0
    std::mutex m_failureMutex;
    std::exception_ptr m_failure;
};

void addSplitRhat(RunOutcome &outcome)
{
    for (std::size_t method = 0; method < outcome.request.methods.size(); ++method) {
        std::vector<const ChainResult *> results;
        const ChainReport *only = nullptr, *sole = nullptr;
        int chains = 0;
        for (const ChainReport &report : outcome.chains)
            if (static_cast<std::size_t>(outcome.request.methodIndexOf(report.channel)) == method) {
                ++chains;
                sole = &report;
                if (report.result->samples.rows() > 0) {
                    results.push_back(report.result.get());
                    only = &report;
                }
            }
        // One chain: its halves, already compared when its ESS was; several: with their pooled ESS.
        const std::optional<double> pooled =
            method < outcome.pooled.size() ? outcome.pooled[method].splitRhat : std::nullopt;
        // (The pooled figures need every chain of the method to have rows, so they cover the
        // same chains as `results`.) Without samples kept (a sweep's points), a lone chain's
        // own figure and several chains' pooled one were measured before the rows were let go.
        double rhat = std::nan("");
        if (results.size() == 1)
            rhat = only->ownSplitRhat;
        else if (pooled)
            rhat = *pooled;
        else if (!results.empty())
            rhat = maxSplitRhat(results);
        else if (chains == 1)
            rhat = sole->ownSplitRhat;
        for (ChainReport &report : outcome.chains)
            if (static_cast<std::size_t>(outcome.request.methodIndexOf(report.channel)) == method)
                report.splitRhat = rhat;
    }
}

/// The data stage's line: what is loaded, or what is generated and from which seed.
std::string dataStageMessage(const RunConfig &config)
{
    const DatasetEntry &data = datasetEntry(config.dataset);
    if (!data.generated)
        return modelIsChosen(data) ? "Loading " + config.logreg.data : std::string("Loading the logistic-regression data");
    return "Generating " + std::to_string(config.nData) + " " + config.dataset + " points"
           + (data.dimensionSetting ? " of dimension " + std::to_string(config.dimension) : std::string())
           + " (data seed " + std::to_string(config.dataSeed) + ")";
}

/// What the outcome reports of the data themselves: size, dimension, source, scaling and cost.
void recordDataFacts(const DatasetInstance &dataset, RunOutcome &outcome)
{
    outcome.dataSize = dataset.model->dataSize();
    outcome.dimension = dataset.model->dimension();
    outcome.datasetDescription = dataset.description;
    outcome.augmented = dataset.augmented;
    outcome.featureScaling = dataset.scaling;
    outcome.dataSeconds = dataset.seconds;
    outcome.dataBytes = dataset.bytes;
    if (dataset.classifier) {
        outcome.featureCount = static_cast<std::int64_t>(dataset.classifier->data().featureCount());
        outcome.testSize = static_cast<std::int64_t>(dataset.testSet->size());
        outcome.testSet = dataset.testSet;
    }
}

} // namespace

RunOutcome runRequest(const RunRequest &request, RunObserver &observer, const RunControls &controls,
                      RunInputCache *inputs)
{
    validate(request);
    RunOutcome outcome;
    outcome.request = request;
    // Requests built in code (presets, scripts, tests) leave the data directories to the install.
    if (outcome.request.config.logreg.searchDirectories.empty())
        outcome.request.config.logreg.searchDirectories = dataSearchDirectories();
    const RunConfig &config = outcome.request.config;
    const std::stop_token stop = controls.stop;
    try {
        observer.stageStarted(RunStage::Data, dataStageMessage(config));
        observer.preparationProgress(RunStage::Data, -1.0);
        const auto dataProgress = [&observer](double f) { observer.preparationProgress(RunStage::Data, f); };
        const std::shared_ptr<const PreparedData> prepared = inputs ? inputs->data(config, dataProgress, stop)
                                                                    : prepareData(config, dataProgress, stop);
        const DatasetInstance &dataset = prepared->dataset;
        if (stop.stop_requested())
            throw Cancelled();
        recordDataFacts(dataset, outcome);
        choosePlottedComponents(dataset, outcome);
        observer.dataReady(dataset, outcome);

        ChainInputs shared;
        shared.correction = prepareCorrection(outcome.request, observer, stop, outcome);
        // The Laplace fit first: its mode is the posterior mode the control variates look for,
        // and Newton started there stops at once (3 passes with the proxies' sums, instead of 7
        // Newton steps in 17 passes from θ = 0 on the default tall data).
        shared.laplace = prepareLaplace(outcome, *prepared, observer, stop);
        shared.controlVariates = prepareControlVariates(outcome, dataset, observer, stop, shared.posteriorMode,
                                                        shared.laplace ? shared.laplace->approximation.mode : Vector());
        // AustereMH(c)'s pilot measures the moments the test will see: the residuals' with
        // control variates.
        shared.designer = prepareAustere(outcome, dataset, shared.controlVariates, observer, stop);
        // TunaMH's χ, when the request leaves it to the forecast, before any channel's test is made.
        prepareTunaForecast(outcome, *prepared, shared.laplace, observer, stop);
        prepareSmhForecast(outcome, shared.laplace, shared.controlVariates, observer, stop);
        prepareGradientForecast(outcome, *prepared, shared.laplace, observer, stop);

        PosteriorReferences *references = prepared->references.get(); // the mixture's only
        if (!references)
            outcome.model = dataset.model; // lp__ from full-data passes, when written

        const int channels = outcome.request.channelCount();
        const int threads = outcome.request.concurrency();
        // The mixture's exact posterior at T depends on the data alone. Built on a core the
        // chains leave idle, it is ready when the first chain ends: at N = 10⁶ it takes about
        // 0.65 s, half of the default run's time when built after the chain. Joined (and
        // stopped, when the run was) before this function returns.
        std::jthread referenceBuild;
        if (references && threads < static_cast<int>(std::thread::hardware_concurrency()))
            referenceBuild = std::jthread([references, temperature = config.temperature](std::stop_token stopBuild) {
                try {
                    references->at(temperature, std::move(stopBuild));
                } catch (...) {
                    // A stop keeps nothing, and a build that fails here fails again where the
                    // chain is measured, on a thread that reports it.
                }
            });
        observer.stageStarted(RunStage::Sampling,
                              threads > 1 ? "Sampling " + std::to_string(channels) + " chains, "
                                                + std::to_string(threads) + " at a time"
                                          : "Sampling " + std::to_string(channels) + " chain"
                                                + (channels > 1 ? "s" : ""));
        ChainScheduler(outcome, dataset, observer, controls, shared, references).run();
        if (stop.stop_requested() && !outcome.request.untilStopped) // a run until stopped is measured all the same
            referenceBuild.request_stop();
        addPooledFigures(outcome);

        outcome.stopped = stop.stop_requested() || static_cast<int>(outcome.chains.size()) < channels
                          || std::any_of(outcome.chains.begin(), outcome.chains.end(),
                                         [](const ChainReport &r) { return r.result->stopped; });
        observer.stageStarted(RunStage::Diagnostics, "Diagnosing the chains");
        addSplitRhat(outcome);
        if (references && (!outcome.stopped || outcome.request.untilStopped))
            outcome.posterior = references->at(config.temperature);
    } catch (const Cancelled &) {
        outcome.stopped = true; // a stop during a preparation step: nothing more to report
    }
    return outcome;
}

RunOutcome runRequest(const RunRequest &request, const RunControls &controls)
{
    RunObserver silent;
    return runRequest(request, silent, controls);
}

} // namespace core
