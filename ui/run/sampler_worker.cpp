#include "ui/run/sampler_worker.h"

#include <chrono>
#include <cmath>
#include <exception>
#include <optional>
#include <set>
#include <stdexcept>
#include <vector>

#include "core/correction/cancelled.h"
#include "core/diagnostics/gmm_posterior.h"
#include "core/experiment/service/run_service.h"
#include "core/models/gaussian_mixture_model.h"
#include "ui/run/queued_hand_off.h"
#include "ui/run/worker_observer.h"

namespace ui {
namespace {

// Generated data and the installed image sets are the same at every run; a user's file may
// have been edited since the last one, so it is read again each time.
bool keepsInputs(const core::RunConfig &config)
{
    const core::LogisticDataSpec &spec = config.logreg;
    const core::DatasetEntry *data = core::findDataset(config.dataset);
    return !data || data->generated || (spec.csv.empty() && spec.data.empty() && spec.images.empty());
}

} // namespace

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
    m_kernel.clear();
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
    controls.kernel = &m_kernel;
    try {
        // The window validates too, but the worker is a public entry point of its own.
        validateInWindow(request);
        WorkerObserver observer(*this, request, controls.stop);
        RunOutcome outcome =
            core::runRequest(request, observer, controls, keepsInputs(request.config) ? &m_inputs : nullptr);
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
