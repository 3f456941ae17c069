#include "ui/charts/posterior_preview.h"

#include <exception>

#include <QtConcurrent/QtConcurrentRun>

#include "core/correction/cancelled.h"
#include "core/experiment/inputs/datasets.h"
#include "ui/charts/live_heat_map.h"
#include "ui/run/queued_hand_off.h"

namespace ui {

PosteriorPreview::~PosteriorPreview()
{
    m_stop.request_stop();
    for (QFuture<void> &job : m_jobs)
        job.waitForFinished();
    // The jobs set the cached data under the mutex; releasing it under the mutex too orders
    // their last write before this release by a lock TSan sees, not only by Qt's wait.
    const std::lock_guard lock(m_dataMutex);
    m_data.reset();
}

void PosteriorPreview::drawnByRun(const core::RunConfig &config)
{
    m_stop.request_stop();
    m_latest.invalidate();
    m_asked = true;
    m_last = config;
}

void PosteriorPreview::request(const core::RunConfig &config)
{
    // Only a dataset whose posterior is known has a preview to draw.
    if (const core::DatasetEntry *data = core::findDataset(config.dataset); !data || !data->exactPosteriorMap)
        return;
    if (m_asked && config.nData == m_last.nData && config.dataSeed == m_last.dataSeed
        && config.temperature == m_last.temperature)
        return;
    m_asked = true;
    m_last = config;
    // A newer request supersedes the older job: stop it (it ends within a row of its image or
    // a block of its data) and keep only the finished jobs' futures out of the list.
    m_stop.request_stop();
    m_stop = std::stop_source();
    std::erase_if(m_jobs, [](const QFuture<void> &job) { return job.isFinished(); });
    const LatestJob::Ticket ticket = m_latest.begin();
    m_jobs.push_back(runOnPool([this, config, ticket, stop = m_stop.get_token()] {
        try {
            const auto data = dataFor(config, stop);
            PosteriorImage image = LiveHeatMap::render(*data, config.temperature, stop);
            // `this` outlives the job (the destructor waits), and the queued call runs on the
            // GUI thread, where tickets are checked.
            [[maybe_unused]] const QueuedHandOff handOff;
            QMetaObject::invokeMethod(this, [this, ticket, image = std::move(image)] {
                if (m_latest.isLatest(ticket))
                    emit imageReady(image);
            }, Qt::QueuedConnection);
        } catch (const core::Cancelled &) {
            // superseded
        } catch (const std::exception &) {
            // Settings a run would refuse (the form reports them): nothing to draw.
        }
    }));
}

std::shared_ptr<const Eigen::VectorXd> PosteriorPreview::dataFor(const core::RunConfig &config, std::stop_token stop)
{
    {
        const std::lock_guard lock(m_dataMutex);
        if (m_data && m_dataSize == config.nData && m_dataSeed == config.dataSeed)
            return m_data;
    }
    const core::DatasetInstance dataset = core::makeDataset(config, false, {}, stop);
    if (stop.stop_requested())
        throw core::Cancelled();
    if (!dataset.mixturePoints)
        throw std::invalid_argument("not the mixture");
    // The model's own copy of the data, shared rather than copying 10⁶ doubles.
    std::shared_ptr<const Eigen::VectorXd> data = dataset.mixturePoints;
    const std::lock_guard lock(m_dataMutex);
    m_data = data;
    m_dataSize = config.nData;
    m_dataSeed = config.dataSeed;
    return data;
}

} // namespace ui
