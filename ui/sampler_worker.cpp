#include "ui/sampler_worker.h"

#include <chrono>
#include <cmath>
#include <exception>
#include <optional>
#include <set>
#include <stdexcept>
#include <vector>

#include "core/correction/cancelled.h"
#include "core/diagnostics/gmm_posterior.h"
#include "core/experiment/run_service.h"
#include "core/models/gaussian_mixture_model.h"
#include "ui/queued_hand_off.h"
#include "ui/snapshot_builder.h"

namespace ui {
namespace {

using Clock = std::chrono::steady_clock;

// Snapshots and preparation progress reach the GUI no more often than this per running chain;
// with several chains at once the interval grows so the total stays about 25 a second.
constexpr auto kProgressInterval = std::chrono::milliseconds(40);

} // namespace

// Turns the run service's observer calls into the worker's signals. Chains call it from their
// own threads: each channel has its own SnapshotBuilder, created before any chain starts, so
// they share nothing but the (thread-safe) signal emission.
class SamplerWorker::Observer : public core::RunObserver {
public:
    Observer(SamplerWorker &worker, const RunRequest &request, std::stop_token stop)
        : m_worker(worker), m_request(request), m_stop(stop)
    {
        m_builders.reserve(static_cast<std::size_t>(request.channelCount()));
    }

    void stageStarted(core::RunStage stage, const std::string &message) override
    {
        const core::RunConfig &config = m_request.config;
        switch (stage) {
        case core::RunStage::Data:
            emitQueued(m_worker, &SamplerWorker::preparationProgress, -1.0, static_cast<int>(stage));
            emitQueued(m_worker, &SamplerWorker::statusMessage, config.dataset == "logreg"
                                            ? tr("Loading the logistic-regression data…")
                                            : tr("Generating %L1 data points…").arg(config.nData));
            return;
        case core::RunStage::Correction:
            emitQueued(m_worker, &SamplerWorker::statusMessage, tr("Preparing the correction distribution (σ = %1, λ = %2)…")
                                            .arg(config.correction.sigma)
                                            .arg(config.correction.lambda));
            break;
        case core::RunStage::Sampling:
            // One chain at a time: chainStarted() names each. Several: one line for all.
            if (m_request.concurrency() > 1)
                emitQueued(m_worker, &SamplerWorker::statusMessage, tr("Sampling %1 chains, %2 at a time…")
                                                .arg(m_request.channelCount())
                                                .arg(m_request.concurrency()));
            return;
        case core::RunStage::Diagnostics:
            emitQueued(m_worker, &SamplerWorker::preparationProgress, -1.0, static_cast<int>(stage));
            emitQueued(m_worker, &SamplerWorker::statusMessage, tr("Diagnosing the chains…"));
            return;
        default:
            emitQueued(m_worker, &SamplerWorker::statusMessage, QString::fromStdString(message) + QStringLiteral("…"));
            break;
        }
        m_lastProgress = Clock::now();
        emitQueued(m_worker, &SamplerWorker::preparationProgress, 0.0, static_cast<int>(stage));
    }

    void preparationProgress(core::RunStage stage, double fraction) override
    {
        if (fraction >= 0.0 && Clock::now() - m_lastProgress < kProgressInterval)
            return;
        m_lastProgress = Clock::now();
        emitQueued(m_worker, &SamplerWorker::preparationProgress, fraction, static_cast<int>(stage));
    }

    void dataReady(const core::DatasetInstance &dataset, const RunOutcome &outcome) override
    {
        if (dataset.classifier)
            emitQueued(m_worker, &SamplerWorker::statusMessage, tr("Data: %1").arg(QString::fromStdString(outcome.datasetDescription)));
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
                                    classifier, plotted);

        // The heat map exists for the Gaussian mixture only.
        const auto *mixture = dynamic_cast<const core::GaussianMixtureModel *>(dataset.model.get());
        if (!mixture)
            return;
        // A temperature typed while the data were generated applies from the chains' first
        // iteration: draw that target.
        const double shown = m_worker.liveTemperature(m_request.config.temperature);
        emitQueued(m_worker, &SamplerWorker::statusMessage, tr("Evaluating the true tempered log-posterior…"));
        emitQueued(m_worker, &SamplerWorker::posteriorImageReady, LiveHeatMap::render(mixture->data(), shown, m_stop));
        // From here on a live temperature change re-renders the map for the new target; one
        // that came during the render above is caught up with here.
        m_worker.m_heatMap.setData(std::shared_ptr<const Eigen::VectorXd>(dataset.model, &mixture->data()));
        if (const double now = m_worker.liveTemperature(m_request.config.temperature); now != shown)
            m_worker.m_heatMap.renderInBackground(now);
    }

    void chainStarted(int channel, const core::RunConfig &settings) override
    {
        if (m_request.concurrency() == 1)
            emitQueued(m_worker, &SamplerWorker::statusMessage, tr("Sampling with the %1 test (%2 of %3)…")
                                            .arg(QString::fromStdString(core::methodName(settings.method)))
                                            .arg(channel + 1)
                                            .arg(m_request.channelCount()));
    }

    void chainProgress(int channel, const core::ChainResult &result, std::int64_t, std::int64_t last) override
    {
        SnapshotBuilder &builder = m_builders[static_cast<std::size_t>(channel)];
        if (builder.pending(last) && builder.due(last))
            emitQueued(m_worker, &SamplerWorker::snapshot, builder.take(result, last));
    }

    void chainFinished(const ChainReport &report) override
    {
        SnapshotBuilder &builder = m_builders[static_cast<std::size_t>(report.channel)];
        if (builder.pending(report.result->completed))
            emitQueued(m_worker, &SamplerWorker::snapshot, builder.take(*report.result, report.result->completed));
    }

    /// The live classifier evaluations the snapshots made, into the outcome's reports.
    void addClassifierCounts(RunOutcome &outcome) const
    {
        for (ChainReport &report : outcome.chains) {
            const SnapshotBuilder &builder = m_builders[static_cast<std::size_t>(report.channel)];
            report.classifierEvaluations = builder.classifierEvaluations();
            report.classifierSeconds = builder.classifierSeconds();
        }
    }

private:
    SamplerWorker &m_worker;
    const RunRequest &m_request;
    const std::stop_token m_stop;
    std::vector<SnapshotBuilder> m_builders;
    Clock::time_point m_lastProgress = Clock::now();
};

SamplerWorker::SamplerWorker(QObject *parent) : QObject(parent)
{
    registerRunMetaTypes();
    connect(&m_heatMap, &LiveHeatMap::imageReady, this, &SamplerWorker::posteriorImageReady, Qt::DirectConnection);
}

SamplerWorker::~SamplerWorker() = default;

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

double SamplerWorker::liveTemperature(double configured) const
{
    const double live = m_tuning.latest().temperature;
    return std::isfinite(live) ? live : configured;
}

void SamplerWorker::setLiveTemperature(double temperature)
{
    m_tuning.setTemperature(temperature);
    m_heatMap.renderInBackground(temperature);
}

void SamplerWorker::setLiveStep(double step)
{
    m_tuning.setStep(step);
}

void SamplerWorker::start(const core::RunConfig &config)
{
    startRequest(RunRequest::single(config));
}

void SamplerWorker::startRequest(const ui::RunRequest &request)
{
    core::RunControls controls;
    {
        const std::lock_guard lock(m_stopMutex);
        controls.stop = m_stop.get_token();
    }
    controls.pauseGate = &m_pause;
    controls.tuning = &m_tuning;
    try {
        // The window validates too, but the worker is a public entry point of its own.
        validateInWindow(request);
        Observer observer(*this, request, controls.stop);
        RunOutcome outcome = core::runRequest(request, observer, controls);
        observer.addClassifierCounts(outcome);
        m_heatMap.setData(nullptr);
        emitQueued(*this, &SamplerWorker::finished, outcome);
    } catch (const core::Cancelled &) {
        // A stop during a step the service does not catch (the heat map render): nothing sampled.
        m_heatMap.setData(nullptr);
        RunOutcome outcome;
        outcome.request = request;
        outcome.stopped = true;
        emitQueued(*this, &SamplerWorker::finished, outcome);
    } catch (const std::exception &error) {
        m_heatMap.setData(nullptr);
        emitQueued(*this, &SamplerWorker::runFailed, QString::fromStdString(error.what()));
    } catch (...) {
        m_heatMap.setData(nullptr);
        emitQueued(*this, &SamplerWorker::runFailed, tr("unknown error in the sampler"));
    }
    m_pause.resume(); // the next run starts unpaused
    discardStopRequests();
}

} // namespace ui
