#pragma once
// The true tempered posterior before any run: whenever the form shows the Gaussian mixture
// with a new N, data seed or T, the data are generated (kept while N and the seed stay) and
// the heat map rendered in the background, so the target is on screen at launch and follows
// every dataset or T change, not only once a run has generated its data.
#include <memory>
#include <mutex>
#include <stop_token>
#include <vector>

#include <Eigen/Core>
#include <QFuture>
#include <QObject>

#include "core/experiment/settings/run_config.h"
#include "ui/run/latest_job.h"
#include "ui/charts/posterior_heat_map.h"

namespace ui {

class PosteriorPreview : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    /// Stops the jobs and waits for them (each stops within a row of the image).
    ~PosteriorPreview() override;

    /// GUI thread. Renders the posterior of `config` if it is the mixture and differs from the
    /// last one asked for; other datasets have no exact posterior, and ask for nothing.
    void request(const core::RunConfig &config);
    /// A run draws the posterior of `config` itself: drop any job in progress, and count
    /// `config` as drawn.
    void drawnByRun(const core::RunConfig &config);

signals:
    /// The newest request's image, on the GUI thread.
    void imageReady(const ui::PosteriorImage &image);

private:
    // The data of (N, data seed), generated at most once for each pair asked for in a row.
    std::shared_ptr<const Eigen::VectorXd> dataFor(const core::RunConfig &config, std::stop_token stop);

    LatestJob m_latest;
    std::stop_source m_stop;
    std::vector<QFuture<void>> m_jobs;
    bool m_asked = false;
    core::RunConfig m_last;

    std::mutex m_dataMutex; // jobs on the pool share the cached data
    std::shared_ptr<const Eigen::VectorXd> m_data;
    std::int64_t m_dataSize = 0;
    std::uint64_t m_dataSeed = 0;
};

} // namespace ui
