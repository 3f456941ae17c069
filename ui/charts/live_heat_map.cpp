#include "ui/charts/live_heat_map.h"

#include "core/correction/cancelled.h"
#include "core/diagnostics/gmm_posterior.h"
#include "ui/run/queued_hand_off.h"

namespace ui {

PosteriorImage LiveHeatMap::render(const Eigen::VectorXd &data, double temperature, std::stop_token stop)
{
    const core::PosteriorGridSpec grid; // the metrics' grid; the chart shows the same window
    return renderLogPosterior(data, temperature, grid.theta1Min, grid.theta1Max, grid.theta2Min, grid.theta2Max,
                              QSize(kSize, kSize), kDefaultHeatMapLogRange, stop);
}

void LiveHeatMap::setData(std::shared_ptr<const Eigen::VectorXd> data)
{
    std::jthread finished;
    {
        const std::lock_guard lock(m_mutex);
        m_data = std::move(data);
        finished = std::move(m_render);
    }
    if (finished.joinable()) {
        finished.request_stop();
        finished.join(); // outside the lock: the render does not take it, but keep it short
    }
}

void LiveHeatMap::renderInBackground(double temperature)
{
    const std::lock_guard lock(m_mutex);
    if (!m_data)
        return;
    // Replacing the jthread stops and joins an older render; it checks its stop token every
    // row, so the join is a few milliseconds at most.
    m_render = std::jthread([this, data = m_data, temperature](std::stop_token stop) {
        try {
            // imageReady's one receiver forwards it as the worker's posteriorImageReady, whose
            // receivers are queued to the GUI thread.
            emitQueued(*this, &LiveHeatMap::imageReady, render(*data, temperature, stop));
        } catch (const core::Cancelled &) {
            // a newer temperature or the end of the run took over
        }
    });
}

} // namespace ui
