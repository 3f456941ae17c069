#include "ui/run/worker_observer.h"

#include <cmath>

#include "core/diagnostics/gmm_posterior.h"
#include "core/experiment/inputs/datasets.h"
#include "core/experiment/settings/method_registry.h"
#include "ui/run/queued_hand_off.h"
#include "ui/run/sampler_worker.h"

namespace ui {

WorkerObserver::WorkerObserver(SamplerWorker &worker, const RunRequest &request, std::stop_token stop)
    : m_worker(worker), m_request(request), m_stop(stop)
{
    m_builders.reserve(static_cast<std::size_t>(request.channelCount()));
}

void WorkerObserver::stageStarted(core::RunStage stage, const std::string &message)
{
    const core::RunConfig &config = m_request.config;
    switch (stage) {
    case core::RunStage::Data:
        emitQueued(m_worker, &SamplerWorker::preparationProgress, -1.0, static_cast<int>(stage));
    {
        const core::DatasetEntry *data = core::findDataset(config.dataset);
        emitQueued(m_worker, &SamplerWorker::statusMessage,
                   data && !data->generated
                       ? (core::modelIsChosen(*data) ? SamplerWorker::tr("Loading %1…").arg(QString::fromStdString(config.logreg.data))
                                                     : SamplerWorker::tr("Loading the logistic-regression data…"))
                       : SamplerWorker::tr("Generating %L1 data points…").arg(config.nData));
    }
        return;
    case core::RunStage::Correction:
        emitQueued(m_worker, &SamplerWorker::statusMessage, SamplerWorker::tr("Preparing the correction distribution (σ = %1, λ = %2)…")
                                        .arg(config.correction.sigma)
                                        .arg(config.correction.lambda));
        break;
    case core::RunStage::Sampling:
        // One chain at a time: chainStarted() names each. Several: one line for all.
        if (m_request.concurrency() > 1)
            emitQueued(m_worker, &SamplerWorker::statusMessage, SamplerWorker::tr("Sampling %1 chains, %2 at a time…")
                                            .arg(m_request.channelCount())
                                            .arg(m_request.concurrency()));
        return;
    case core::RunStage::Forecast: // a sentence, made at once: no progress follows
        emitQueued(m_worker, &SamplerWorker::statusMessage, QString::fromStdString(message));
        return;
    case core::RunStage::Diagnostics:
        emitQueued(m_worker, &SamplerWorker::preparationProgress, -1.0, static_cast<int>(stage));
        emitQueued(m_worker, &SamplerWorker::statusMessage, SamplerWorker::tr("Diagnosing the chains…"));
        return;
    default:
        emitQueued(m_worker, &SamplerWorker::statusMessage, QString::fromStdString(message) + QStringLiteral("…"));
        break;
    }
    m_lastProgress = Clock::now();
    emitQueued(m_worker, &SamplerWorker::preparationProgress, 0.0, static_cast<int>(stage));
}

void WorkerObserver::preparationProgress(core::RunStage stage, double fraction)
{
    if (fraction >= 0.0 && Clock::now() - m_lastProgress < kProgressInterval)
        return;
    m_lastProgress = Clock::now();
    emitQueued(m_worker, &SamplerWorker::preparationProgress, fraction, static_cast<int>(stage));
}

void WorkerObserver::dataReady(const core::DatasetInstance &dataset, const RunOutcome &outcome)
{
    if (dataset.classifier)
        emitQueued(m_worker, &SamplerWorker::statusMessage, SamplerWorker::tr("Data: %1").arg(QString::fromStdString(outcome.datasetDescription)));
    QStringList names;
    for (const std::string &name : outcome.componentNames)
        names.append(QString::fromStdString(name));
    emitQueued(m_worker, &SamplerWorker::plottedComponentsChosen, std::move(names));

    SnapshotBuilder::Components plotted{0, 1};
    for (std::size_t k = 0; k < outcome.components.size() && k < plotted.size(); ++k)
        plotted[k] = outcome.components[k];
    SnapshotBuilder::Classifier classifier;
    classifier.model = dataset.classifier.get();
    classifier.test = dataset.testSet.get();
    classifier.stride = m_request.config.traceStride;
    const auto interval = kProgressInterval * m_request.concurrency();
    for (int channel = 0; channel < m_request.channelCount(); ++channel)
        m_builders.emplace_back(channel, m_request.config.samples, outcome.dataSize, outcome.dimension, interval,
                                classifier, plotted, m_request.untilStopped);

    // The heat map exists for the Gaussian mixture only.
    if (!dataset.mixturePoints)
        return;
    // A temperature typed while the data were generated applies from the chains' first
    // iteration: draw that target.
    const double shown = m_worker.liveTemperature(m_request.config.temperature);
    emitQueued(m_worker, &SamplerWorker::statusMessage, SamplerWorker::tr("Evaluating the true tempered log-posterior…"));
    emitQueued(m_worker, &SamplerWorker::posteriorImageReady, LiveHeatMap::render(*dataset.mixturePoints, shown, m_stop));
    // From here on a live temperature change re-renders the map for the new target; one
    // that came during the render above is caught up with here.
    m_worker.m_heatMap.setData(dataset.mixturePoints);
    if (const double now = m_worker.liveTemperature(m_request.config.temperature); now != shown)
        m_worker.m_heatMap.renderInBackground(now);
}

void WorkerObserver::chainStarted(int channel, const core::RunConfig &settings)
{
    // On the channel's thread, as every later take() of this builder.
    m_builders[static_cast<std::size_t>(channel)].startClock();
    m_builders[static_cast<std::size_t>(channel)].setProposal(settings.proposal);
    m_builders[static_cast<std::size_t>(channel)].setFollowsPath(core::methodRow(settings.method).move
                                                                 == core::MethodMove::ZigZag);
    if (!m_request.untilStopped)
        m_builders[static_cast<std::size_t>(channel)].setBurnIn(settings.burnIn);
    // The service's request holds the steps chosen once the data were loaded; the form's does not.
    if (settings.step != m_request.channelConfig(channel).step)
        emitQueued(m_worker, &SamplerWorker::forecastStepTaken, channel, settings.step);
    if (m_request.concurrency() == 1)
        emitQueued(m_worker, &SamplerWorker::statusMessage, SamplerWorker::tr("Sampling with the %1 test (%2 of %3)…")
                                        .arg(QString::fromStdString(core::methodVariantName(settings)))
                                        .arg(channel + 1)
                                        .arg(m_request.channelCount()));
}

void WorkerObserver::chainProgress(int channel, const core::ChainResult &result, std::int64_t, std::int64_t last)
{
    SnapshotBuilder &builder = m_builders[static_cast<std::size_t>(channel)];
    // While paused the chain reports only the iterations Step lets through, and each must show:
    // a second Step within the snapshot interval of the first would otherwise stay unseen
    // until the run resumed.
    if (builder.pending(result, last) && (builder.due(result, last) || m_worker.isPaused()))
        emitQueued(m_worker, &SamplerWorker::snapshot, builder.take(result, last));
}

void WorkerObserver::chainLapEnded(int channel, const core::ChainResult &lap)
{
    SnapshotBuilder &builder = m_builders[static_cast<std::size_t>(channel)];
    if (builder.pending(lap, lap.completed))
        emitQueued(m_worker, &SamplerWorker::snapshot, builder.take(lap, lap.completed));
}

void WorkerObserver::kernelChangeRefused(int channel, const std::string &problem)
{
    emitQueued(m_worker, &SamplerWorker::statusMessage,
               SamplerWorker::tr("Chain %1 keeps its acceptance test: %2").arg(channel + 1).arg(QString::fromStdString(problem)));
}

void WorkerObserver::chainFinished(const ChainReport &report)
{
    // A run until stopped has sent its laps; its report's rows are the window, already shown.
    if (m_request.untilStopped)
        return;
    SnapshotBuilder &builder = m_builders[static_cast<std::size_t>(report.channel)];
    if (builder.pending(*report.result, report.result->completed))
        emitQueued(m_worker, &SamplerWorker::snapshot, builder.take(*report.result, report.result->completed));
}

void WorkerObserver::addClassifierCounts(RunOutcome &outcome) const
{
    for (ChainReport &report : outcome.chains) {
        const SnapshotBuilder &builder = m_builders[static_cast<std::size_t>(report.channel)];
        report.classifierEvaluations = builder.classifierEvaluations();
        report.classifierSeconds = builder.classifierSeconds();
    }
}

} // namespace ui
