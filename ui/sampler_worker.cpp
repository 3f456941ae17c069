#include "ui/sampler_worker.h"

#include <chrono>
#include <exception>
#include <memory>

#include "core/chain/chain_runner.h"
#include "core/correction/cancelled.h"
#include "core/correction/correction_cache.h"
#include "core/data/gaussian_mixture_data.h"
#include "core/models/gaussian_mixture_model.h"
#include "core/proposals/random_walk_proposal.h"

namespace ui {
namespace {

using Clock = std::chrono::steady_clock;

// Preparation progress is reported no more often than the chain's own snapshots.
constexpr auto kProgressInterval = std::chrono::milliseconds(40);

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

} // namespace

void registerRunMetaTypes()
{
    qRegisterMetaType<core::RunConfig>();
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
}

void SamplerWorker::start(const core::RunConfig &config)
{
    std::stop_token stop;
    {
        const std::lock_guard lock(m_stopMutex);
        stop = m_stop.get_token();
    }
    try {
        const RunOutcome outcome = run(config, stop);
        emit finished(outcome);
    } catch (const core::Cancelled &) {
        // A stop during the preparation steps: nothing was sampled.
        RunOutcome outcome;
        outcome.config = config;
        outcome.stopped = true;
        emit finished(outcome);
    } catch (const std::exception &error) {
        emit runFailed(QString::fromStdString(error.what()));
    } catch (...) {
        emit runFailed(tr("unknown error in the sampler"));
    }
    discardStopRequests();
}

RunOutcome SamplerWorker::run(const core::RunConfig &config, std::stop_token stop)
{
    // The window validates too, but the worker is a public entry point of its own.
    core::validate(config);
    RunOutcome outcome;
    outcome.config = config;

    emit preparationProgress(-1.0);
    emit statusMessage(tr("Generating %L1 Gaussian-mixture data points…").arg(config.nData));
    core::GaussianMixtureSpec dataSpec;
    dataSpec.size = config.nData;
    dataSpec.seed = config.dataSeed;
    const core::GaussianMixtureModel model(core::generateGaussianMixture(dataSpec));
    if (stop.stop_requested())
        throw core::Cancelled();

    emit statusMessage(tr("Evaluating the true tempered log-posterior…"));
    const core::PosteriorGridSpec grid; // the metrics' grid; the chart shows the same window
    emit posteriorImageReady(renderLogPosterior(model.data(), config.temperature, grid.theta1Min, grid.theta1Max,
                                                grid.theta2Min, grid.theta2Max, QSize(kHeatMapSize, kHeatMapSize),
                                                kDefaultHeatMapLogRange, stop));

    std::shared_ptr<const core::CorrectionDistribution> correction;
    if (core::needsCorrection(config.method)) {
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

    auto test = core::makeAcceptanceTest(config, correction);
    const core::RandomWalkProposal proposal(config.step);
    core::ChainSettings settings;
    settings.samples = config.samples;
    settings.seed = config.seed;
    settings.temperature = config.temperature;
    settings.progressInterval = kProgressInterval;

    emit statusMessage(tr("Sampling with the %1 test…").arg(QString::fromStdString(core::methodName(config.method))));
    const int stride = static_cast<int>((config.samples + kMaxPlottedSamples - 1) / kMaxPlottedSamples);
    qint64 accepted = 0, dataPointsUsed = 0, fallbacks = 0;
    const auto chainStart = Clock::now();
    // Runs on this (worker) thread; copies the new rows into a value that the queued signal
    // carries, because the ChainResult keeps changing after the callback returns.
    auto onProgress = [&](const core::ChainResult &result, std::int64_t first, std::int64_t last) {
        RunSnapshot shot;
        shot.total = config.samples;
        shot.completed = last;
        shot.sampleStride = stride;
        shot.newBatchSizes.reserve(static_cast<qsizetype>(last - first));
        shot.newSamples.reserve(static_cast<qsizetype>((last - first) / stride + 1));
        for (std::int64_t t = first; t < last; ++t) {
            const auto row = static_cast<std::size_t>(t);
            if (t % stride == 0)
                shot.newSamples.append(QPointF(result.samples(t, 0), result.samples(t, 1)));
            shot.newBatchSizes.append(result.batchSize[row]);
            accepted += result.accepted[row];
            dataPointsUsed += result.batchSize[row];
            fallbacks += result.fullDataFallback[row];
        }
        if (last > 0)
            shot.current = QPointF(result.samples(last - 1, 0), result.samples(last - 1, 1));
        shot.acceptanceRate = last > 0 ? static_cast<double>(accepted) / static_cast<double>(last) : 0.0;
        shot.meanBatch = last > 0 ? static_cast<double>(dataPointsUsed) / static_cast<double>(last) : 0.0;
        shot.dataPointsUsed = dataPointsUsed;
        shot.fullDataFallbacks = fallbacks;
        shot.elapsedSeconds = secondsSince(chainStart);
        shot.iterationsPerSecond = shot.elapsedSeconds > 0.0 ? static_cast<double>(last) / shot.elapsedSeconds : 0.0;
        emit snapshot(shot);
    };
    const core::ChainResult chain = core::runChain(model, proposal, *test, settings, stop, onProgress);
    outcome.summary = core::summarize(chain);
    outcome.stopped = chain.stopped;
    // A stop that arrives after the last iteration (e.g. the window closing) skips the
    // comparison: building the accurate posterior grid takes seconds and cannot be cancelled.
    if (chain.stopped || stop.stop_requested())
        return outcome;

    emit statusMessage(tr("Comparing the samples with the exact posterior…"));
    emit preparationProgress(-1.0);
    const core::GaussianMixturePosterior posterior(model.data(), config.temperature, grid);
    outcome.posterior = posterior.compare(chain.samples, chain.completed);
    outcome.hasPosteriorMetrics = true;
    return outcome;
}

} // namespace ui
