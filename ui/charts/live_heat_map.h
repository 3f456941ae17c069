#pragma once
// The posterior heat map of a running mixture request: drawn once when the data are ready, and
// again, off every caller's thread, whenever the temperature changes during the run. A newer
// render replaces an older one, which stops within a row.
#include <memory>
#include <mutex>
#include <stop_token>
#include <thread>

#include <Eigen/Core>
#include <QObject>

#include "ui/charts/posterior_heat_map.h"

namespace ui {

class LiveHeatMap : public QObject {
    Q_OBJECT
public:
    /// Side of the square image in pixels.
    static constexpr int kSize = 200;

    using QObject::QObject;
    ~LiveHeatMap() override { setData(nullptr); }

    /// The mixture's log posterior at `temperature` over the metrics' grid, on the calling
    /// thread. Throws core::Cancelled when `stop` is requested.
    static PosteriorImage render(const Eigen::VectorXd &data, double temperature, std::stop_token stop = {});

    /// Thread-safe. The data a running request re-renders for (null when none runs); setting it
    /// stops and joins a render in progress.
    void setData(std::shared_ptr<const Eigen::VectorXd> data);
    /// Thread-safe. Re-renders at `temperature` on its own thread, if there are data.
    void renderInBackground(double temperature);

signals:
    /// Emitted on the rendering thread.
    void imageReady(const ui::PosteriorImage &image);

private:
    std::mutex m_mutex;
    std::shared_ptr<const Eigen::VectorXd> m_data;
    std::jthread m_render;
};

} // namespace ui
