#include "ui/sampler_worker.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <map>
#include <stdexcept>
#include <thread>

#include <QSet>

#include "core/correction/cancelled.h"
#include "core/correction/correction_cache.h"
#include "core/diagnostics/chain_convergence.h"
#include "core/experiment/datasets.h"
#include "core/experiment/austere_setup.h"
#include "core/experiment/experiment_runner.h"
#include "core/models/gaussian_mixture_model.h"
#include "core/install/install_layout.h"
#include "ui/snapshot_builder.h"

namespace ui {
namespace {

using Clock = std::chrono::steady_clock;

// Snapshots and preparation progress reach the GUI no more often than this per running chain;
// with several chains at once the interval grows so the total stays about 25 a second.
constexpr auto kProgressInterval = std::chrono::milliseconds(40);

constexpr int kMaxMethods = 4;
constexpr int kMaxChains = 4;

} // namespace

RunRequest RunRequest::single(const core::RunConfig &config)
{
    RunRequest request;
    request.config = config;
    request.methods = {config.method};
    return request;
}

core::RunConfig RunRequest::channelConfig(int channel) const
{
    core::RunConfig channelSettings = config;
    channelSettings.method = methods.value(methodIndexOf(channel), config.method);
    channelSettings.seed = config.seed + static_cast<std::uint64_t>(chainIndexOf(channel));
    return channelSettings;
}

void validate(const RunRequest &request)
{
    if (request.methods.isEmpty() || request.methods.size() > kMaxMethods)
        throw std::invalid_argument("methods: choose 1 to 4 methods; got " + std::to_string(request.methods.size()));
    if (QSet<core::TestMethod>(request.methods.begin(), request.methods.end()).size() != request.methods.size())
        throw std::invalid_argument("methods: each method may appear once");
    if (request.chains < 1 || request.chains > kMaxChains)
        throw std::invalid_argument("chains must be in [1, 4]; got " + std::to_string(request.chains));
    for (int channel = 0; channel < request.channelCount(); ++channel) {
        const core::RunConfig settings = request.channelConfig(channel);
        if (settings.method == core::TestMethod::AustereNonConservative && !(settings.austereErrorBound > 0.0))
            throw std::invalid_argument("austere-nc picks its design every iteration under a bound on |ΔP|: set "
                                        "\"AustereMH |ΔP| bound\" in the minibatch-test settings above 0 (e.g. 0.01)");
        core::validate(settings);
    }
}

qint64 RunOutcome::totalIterations() const
{
    qint64 total = 0;
    for (const ChainReport &report : chains)
        total += report.summary.iterations;
    return total;
}

double RunOutcome::longestWallSeconds() const
{
    double wall = 0.0;
    for (const ChainReport &report : chains)
        wall = std::max(wall, report.summary.wallSeconds);
    return wall;
}

qint64 RunOutcome::totalFullDataFallbacks() const
{
    qint64 fallbacks = 0;
    for (const ChainReport &report : chains)
        fallbacks += report.summary.fullDataFallbacks;
    return fallbacks;
}

qint64 RunOutcome::totalPointsRead() const
{
    qint64 used = 0;
    for (const ChainReport &report : chains)
        used += report.summary.dataPointsUsed + report.summary.fullScanPoints;
    return used;
}

void registerRunMetaTypes()
{
    qRegisterMetaType<core::RunConfig>();
    qRegisterMetaType<core::ChainSegment>();
    qRegisterMetaType<ui::RunRequest>();
    qRegisterMetaType<ui::RunSnapshot>();
    qRegisterMetaType<ui::RunOutcome>();
    qRegisterMetaType<ui::PosteriorImage>();
}

SamplerWorker::SamplerWorker(QObject *parent) : QObject(parent)
{
    registerRunMetaTypes();
}

void SamplerWorker::requestStop()
{
    const std::lock_guard lock(m_stopMutex);
    m_stop.request_stop();
}

void SamplerWorker::discardStopRequests()
{
    const std::lock_guard lock(m_stopMutex);
    m_stop = std::stop_source();
    m_tuning.clear();
}

void SamplerWorker::setLiveTemperature(double temperature)
{
    m_tuning.setTemperature(temperature);
    renderHeatMapInBackground(temperature);
}

void SamplerWorker::renderHeatMapInBackground(double temperature)
{
    const std::lock_guard lock(m_heatMapMutex);
    if (!m_heatMapData)
        return;
    // Replacing the jthread stops and joins an older render; it checks its stop token every
    // row, so the join is a few milliseconds at most.
    m_heatMapRender = std::jthread([this, data = m_heatMapData, temperature](std::stop_token stop) {
        const core::PosteriorGridSpec grid;
        try {
            emit posteriorImageReady(renderLogPosterior(*data, temperature, grid.theta1Min, grid.theta1Max,
                                                        grid.theta2Min, grid.theta2Max,
                                                        QSize(kHeatMapSize, kHeatMapSize), kDefaultHeatMapLogRange,
                                                        stop));
        } catch (const core::Cancelled &) {
            // a newer temperature or the end of the run took over
        }
    });
}

void SamplerWorker::setLiveStep(double step)
{
    m_tuning.setStep(step);
}

void SamplerWorker::setHeatMapData(std::shared_ptr<const Eigen::VectorXd> data)
{
    std::jthread finished;
    {
        const std::lock_guard lock(m_heatMapMutex);
        m_heatMapData = std::move(data);
        finished = std::move(m_heatMapRender);
    }
    if (finished.joinable()) {
        finished.request_stop();
        finished.join(); // outside the lock: the render does not take it, but keep it short
    }
}

void SamplerWorker::start(const core::RunConfig &config)
{
    startRequest(RunRequest::single(config));
}

void SamplerWorker::startRequest(const ui::RunRequest &request)
{
    std::stop_token stop;
    {
        const std::lock_guard lock(m_stopMutex);
        stop = m_stop.get_token();
    }
    try {
        const RunOutcome outcome = run(request, stop);
        setHeatMapData(nullptr);
        emit finished(outcome);
    } catch (const core::Cancelled &) {
        // A stop during the preparation steps: nothing was sampled.
        setHeatMapData(nullptr);
        RunOutcome outcome;
        outcome.request = request;
        outcome.stopped = true;
        emit finished(outcome);
    } catch (const std::exception &error) {
        setHeatMapData(nullptr);
        emit runFailed(QString::fromStdString(error.what()));
    } catch (...) {
        setHeatMapData(nullptr);
        emit runFailed(tr("unknown error in the sampler"));
    }
    m_pause.resume(); // the next run starts unpaused
    discardStopRequests();
}

RunOutcome SamplerWorker::run(const RunRequest &request, std::stop_token stop)
{
    // The window validates too, but the worker is a public entry point of its own.
    validate(request);
    RunOutcome outcome;
    outcome.request = request;
    // Requests built in code (presets, scripts) leave the data directories to the app.
    if (outcome.request.config.logreg.searchDirectories.empty())
        outcome.request.config.logreg.searchDirectories = core::dataSearchDirectories();
    const core::RunConfig &config = outcome.request.config;

    emit preparationProgress(-1.0);
    emit statusMessage(config.dataset == "logreg" ? tr("Loading the logistic-regression data…")
                                                  : tr("Generating %L1 data points…").arg(config.nData));
    // Unreadable or malformed files throw std::runtime_error naming the file: runFailed says so.
    const core::DatasetInstance dataset = core::makeDataset(config, false, {}, stop);
    if (stop.stop_requested())
        throw core::Cancelled();
    outcome.dataSize = dataset.model->dataSize();
    outcome.dimension = dataset.model->dimension();
    outcome.datasetDescription = QString::fromStdString(dataset.description);
    outcome.augmented = dataset.augmented;
    if (dataset.classifier)
        emit statusMessage(tr("Data: %1").arg(outcome.datasetDescription));
    const SnapshotBuilder::Components plotted = choosePlottedComponents(dataset, outcome);
    std::vector<int> plottedColumns(plotted.begin(), plotted.begin() + std::min(2, outcome.dimension));
    // The heat map and the posterior metrics exist for the Gaussian mixture only.
    const auto *mixture = dynamic_cast<const core::GaussianMixtureModel *>(dataset.model.get());
    const core::PosteriorGridSpec grid; // the metrics' grid; the chart shows the same window
    if (mixture) {
        // A temperature typed while the data were generated applies from the chains' first
        // iteration: draw that target.
        const auto liveTemperature = [this, &config] {
            const double live = m_tuning.latest().temperature;
            return std::isfinite(live) ? live : config.temperature;
        };
        const double shown = liveTemperature();
        emit statusMessage(tr("Evaluating the true tempered log-posterior…"));
        emit posteriorImageReady(renderLogPosterior(mixture->data(), shown, grid.theta1Min, grid.theta1Max,
                                                    grid.theta2Min, grid.theta2Max, QSize(kHeatMapSize, kHeatMapSize),
                                                    kDefaultHeatMapLogRange, stop));
        // From here on a live temperature change re-renders the map for the new target; one
        // that came during the render above is caught up with here.
        setHeatMapData(std::shared_ptr<const Eigen::VectorXd>(dataset.model, &mixture->data()));
        if (const double now = liveTemperature(); now != shown)
            renderHeatMapInBackground(now);
    }

    std::shared_ptr<const core::CorrectionDistribution> correction;
    if (std::any_of(request.methods.begin(), request.methods.end(), core::needsCorrection)) {
        emit statusMessage(tr("Preparing the correction distribution (σ = %1, λ = %2)…")
                               .arg(config.correction.sigma)
                               .arg(config.correction.lambda));
        emit preparationProgress(0.0);
        auto lastReport = Clock::now();
        auto progress = [&](double fraction) {
            if (Clock::now() - lastReport >= kProgressInterval) {
                lastReport = Clock::now();
                emit preparationProgress(fraction);
            }
        };
        bool fromCache = false;
        correction = std::make_shared<const core::CorrectionDistribution>(
            core::loadOrSolveCorrection(config.correction, progress, stop, &fromCache));
        outcome.usedCorrection = true;
        outcome.correctionLinf = correction->linfError();
        outcome.correctionFromCache = fromCache;
    }
    const std::shared_ptr<const core::AustereDesigner> designer = prepareAustere(outcome, dataset, stop);

    const int channels = request.channelCount();
    const int concurrency =
        request.parallel ? std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, channels) : 1;
    const auto interval = kProgressInterval * concurrency;
    std::vector<ChainReport> reports(static_cast<std::size_t>(channels));
    std::vector<char> started(static_cast<std::size_t>(channels), 0);
    // A failing chain stops the others; a stop from the owner reaches every chain.
    std::stop_source chainsStop;
    const std::stop_callback forwardStop(stop, [&chainsStop] { chainsStop.request_stop(); });
    std::mutex failureMutex;
    std::exception_ptr failure;

    auto runChannel = [&](int channel) {
        const core::RunConfig settings = outcome.request.channelConfig(channel);
        SnapshotBuilder::Classifier classifier;
        classifier.model = dataset.classifier.get();
        classifier.test = dataset.testSet.get();
        classifier.stride = settings.traceStride;
        SnapshotBuilder builder(channel, settings.samples, outcome.dataSize, outcome.dimension, interval, classifier,
                                plotted);
        auto onProgress = [&](const core::ChainResult &result, std::int64_t, std::int64_t last) {
            if (builder.pending(last) && builder.due(last))
                emit snapshot(builder.take(result, last));
        };
        core::ExperimentOutcome run = core::runExperiment(settings, dataset, correction, chainsStop.get_token(),
                                                          onProgress, designer, &m_pause, &m_tuning);
        if (builder.pending(run.chain.completed))
            emit snapshot(builder.take(run.chain, run.chain.completed));
        ChainReport &report = reports[static_cast<std::size_t>(channel)];
        report.channel = channel;
        report.method = settings.method;
        report.chainIndex = request.chainIndexOf(channel);
        report.seed = settings.seed;
        report.summary = run.summary;
        const std::vector<double> ess = core::bulkEssPerComponent(run.chain, plottedColumns);
        report.bulkEss = QVector<double>(ess.begin(), ess.end());
        if (!report.bulkEss.isEmpty() && run.summary.wallSeconds > 0.0)
            // The ESS is the final segment's, so is the time it took.
            report.essPerSecond = *std::min_element(report.bulkEss.begin(), report.bulkEss.end())
                                  / std::max(run.summary.wallSeconds - run.chain.segments.back().startSeconds, 1e-9);
        if (dataset.classifier && run.chain.completed > 0) {
            const core::ChainResult &chain = run.chain;
            const core::ClassifierFit last =
                dataset.classifier->fit(chain.samples.row(chain.completed - 1).transpose(), *dataset.testSet);
            // The second half of the final segment (the whole chain unless T or the step changed).
            const std::int64_t start = chain.finalSegmentStart();
            const std::int64_t half = start + (chain.completed - start) / 2;
            const core::Vector mean = chain.samples.middleRows(half, chain.completed - half).colwise().mean().transpose();
            report.testAccuracy = last.accuracy;
            report.testLogLikelihood = last.meanLogLikelihood;
            report.meanThetaAccuracy = dataset.classifier->accuracy(mean, *dataset.testSet);
            report.classifierEvaluations = builder.classifierEvaluations();
            report.classifierSeconds = builder.classifierSeconds();
        }
        report.result = std::make_shared<const core::ChainResult>(std::move(run.chain));
    };
    std::atomic<int> next{0};
    auto drain = [&] {
        for (int channel = next++; channel < channels && !chainsStop.stop_requested(); channel = next++) {
            started[static_cast<std::size_t>(channel)] = 1;
            if (concurrency == 1)
                emit statusMessage(tr("Sampling with the %1 test (%2 of %3)…")
                                       .arg(QString::fromStdString(core::methodName(request.channelConfig(channel).method)))
                                       .arg(channel + 1)
                                       .arg(channels));
            try {
                runChannel(channel);
            } catch (...) {
                const std::lock_guard lock(failureMutex);
                if (!failure)
                    failure = std::current_exception();
                chainsStop.request_stop();
            }
        }
    };
    if (concurrency > 1) {
        emit statusMessage(tr("Sampling %1 chains, %2 at a time…").arg(channels).arg(concurrency));
        std::vector<std::jthread> threads;
        for (int k = 0; k < concurrency; ++k)
            threads.emplace_back(drain);
    } else {
        drain();
    }
    if (failure)
        std::rethrow_exception(failure);

    for (int channel = 0; channel < channels; ++channel)
        if (started[static_cast<std::size_t>(channel)] && reports[static_cast<std::size_t>(channel)].result)
            outcome.chains.append(reports[static_cast<std::size_t>(channel)]);
    outcome.stopped = stop.stop_requested() || outcome.chains.size() < channels
                      || std::any_of(outcome.chains.begin(), outcome.chains.end(),
                                     [](const ChainReport &r) { return r.result->stopped; });

    for (int method = 0; method < request.methods.size(); ++method) {
        std::vector<const core::ChainResult *> results;
        for (const ChainReport &report : outcome.chains)
            if (request.methodIndexOf(report.channel) == method)
                results.push_back(report.result.get());
        const double rhat = core::maxSplitRhat(results);
        for (ChainReport &report : outcome.chains)
            if (request.methodIndexOf(report.channel) == method)
                report.splitRhat = rhat;
    }
    if (!mixture)
        outcome.model = dataset.model; // lp__ from full-data passes, at export time
    // A stopped run skips the comparison: building the accurate posterior grid takes about a
    // second and cannot be cancelled.
    if (outcome.stopped || !mixture)
        return outcome;

    compareWithPosterior(outcome, mixture->data());
    return outcome;
}

std::array<int, 2> SamplerWorker::choosePlottedComponents(const core::DatasetInstance &dataset, RunOutcome &outcome)
{
    std::array<int, 2> plotted{0, 1};
    QStringList names{QStringLiteral("θ₁"), QStringLiteral("θ₂")};
    if (dataset.model->dimension() == 1)
        names = QStringList{QStringLiteral("θ")};
    if (dataset.classifier) {
        // A weight the data do not constrain (a blank corner pixel) only wanders with its
        // prior; the two most discriminative features show the posterior at work.
        const core::ClassificationData &data = dataset.classifier->data();
        const std::vector<int> best = core::mostDiscriminativeFeatures(data, 2);
        names.clear();
        for (std::size_t k = 0; k < best.size() && k < plotted.size(); ++k) {
            const int feature = best[k];
            plotted[k] = feature;
            names.append(data.imageCols > 0 ? tr("weight of pixel (%1, %2)").arg(feature / data.imageCols).arg(feature % data.imageCols)
                                            : tr("weight of feature %1").arg(feature + 1));
        }
    }
    outcome.componentNames = names;
    emit plottedComponentsChosen(names);
    return plotted;
}

std::shared_ptr<const core::AustereDesigner> SamplerWorker::prepareAustere(RunOutcome &outcome,
                                                                          const core::DatasetInstance &dataset,
                                                                          std::stop_token stop)
{
    std::shared_ptr<const core::AustereDesigner> designer;
    QStringList notes;
    for (core::TestMethod method : outcome.request.methods) {
        core::RunConfig settings = outcome.request.config;
        settings.method = method;
        if (!core::needsAustereDesign(settings))
            continue;
        core::AustereSetupProgress progress;
        auto lastReport = Clock::now();
        progress.design = progress.pilot = [&](double fraction) {
            if (Clock::now() - lastReport >= kProgressInterval) {
                lastReport = Clock::now();
                emit preparationProgress(fraction);
            }
        };
        if (!designer)
            emit statusMessage(tr("Loading or tabulating the AustereMH design grid for N = %L1 (the first time for an N "
                                  "takes minutes at 10⁶; it is cached afterwards)…")
                                   .arg(outcome.dataSize));
        else if (method == core::TestMethod::AustereConservative)
            emit statusMessage(tr("AustereMH(c): choosing (m, ε) from %1 pilot proposals…").arg(settings.austerePilot));
        emit preparationProgress(0.0);
        const bool hadDesigner = designer != nullptr;
        const core::AustereSetup setup = core::prepareAustere(settings, dataset, progress, stop, designer);
        if (!hadDesigner)
            notes.append(setup.designFromCache ? tr("AustereMH design grid from the cache")
                                               : tr("AustereMH design grid tabulated and cached"));
        designer = setup.designer;
        if (const auto &chosen = setup.conservativeChoice) {
            outcome.request.config.austere = settings.austere; // every austere-c channel uses it
            notes.append(tr("AustereMH(c) design m = %L1, ε = %2 (mean |ΔP| %3%4)")
                             .arg(chosen->batch)
                             .arg(chosen->epsilon)
                             .arg(chosen->meanAbsError, 0, 'g', 2)
                             .arg(chosen->feasible ? QString() : tr(", no design met the bound")));
        }
    }
    outcome.austereNote = notes.join(QStringLiteral("; "));
    return designer;
}

void SamplerWorker::compareWithPosterior(RunOutcome &outcome, const Eigen::VectorXd &data)
{
    emit statusMessage(tr("Comparing the samples with the exact posterior…"));
    emit preparationProgress(-1.0);
    const core::PosteriorGridSpec grid;
    // One reference per final temperature: a chain retuned during the run is measured over its
    // final segment against the posterior it was then targeting.
    std::map<double, std::shared_ptr<const core::GaussianMixturePosterior>> references;
    auto reference = [&](double temperature) {
        auto &slot = references[temperature];
        if (!slot)
            slot = std::make_shared<const core::GaussianMixturePosterior>(data, temperature, grid);
        return slot;
    };
    for (ChainReport &report : outcome.chains) {
        const core::ChainResult &chain = *report.result;
        const std::int64_t start = chain.finalSegmentStart();
        if (chain.completed <= start)
            continue;
        const auto posterior = reference(chain.segments.back().temperature);
        if (start == 0) {
            report.posterior = posterior->compare(chain.samples, chain.completed);
        } else {
            const Eigen::MatrixXd finalSegment = chain.samples.middleRows(start, chain.completed - start);
            report.posterior = posterior->compare(finalSegment);
        }
        report.hasPosteriorMetrics = true;
    }
    outcome.posterior = reference(outcome.config().temperature);
}

} // namespace ui
