#include "ui/correction_plot_cache.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <stop_token>

#include <QThread>

#include "core/correction/cancelled.h"
#include "ui/queued_hand_off.h"

namespace ui {

// One background thread and the stop source of its solves.
struct CorrectionPlotCache::Prewarm {
    std::stop_source stop;
    QThread *thread = nullptr;

    ~Prewarm()
    {
        stop.request_stop();
        thread->wait();
        delete thread;
    }
};

CorrectionPlotCache::CorrectionPlotCache(QObject *parent) : QObject(parent) {}

CorrectionPlotCache::~CorrectionPlotCache() = default;

const std::vector<double> &CorrectionPlotCache::sliderSigmas()
{
    static const std::vector<double> sigmas = [] {
        std::vector<double> values;
        // Multiples of 0.05 computed as k / 20, so that each equals the value a spin box with
        // two decimals shows (0.15, not 0.15000000000000002).
        for (int k = 1; k / 20.0 < core::kLogisticSd; ++k)
            values.push_back(k / 20.0);
        return values;
    }();
    return sigmas;
}

const CorrectionPlot *CorrectionPlotCache::find(const core::CorrectionParams &params) const
{
    const auto found = std::find_if(m_plots.begin(), m_plots.end(),
                                    [&](const CorrectionPlot &plot) { return plot.params == params; });
    return found == m_plots.end() ? nullptr : &*found;
}

void CorrectionPlotCache::insert(const CorrectionPlot &plot)
{
    std::erase_if(m_plots, [&](const CorrectionPlot &old) { return old.params == plot.params; });
    if (m_plots.size() >= kCapacity)
        m_plots.erase(m_plots.begin());
    m_plots.push_back(plot);
}

void CorrectionPlotCache::stopPrewarm()
{
    m_prewarm.reset(); // stops, and waits: a solve notices its stop token within milliseconds
}

bool CorrectionPlotCache::isPrewarming() const
{
    return m_prewarm && m_prewarm->thread->isRunning();
}

void CorrectionPlotCache::prewarm(const core::CorrectionParams &around)
{
    stopPrewarm();
    std::vector<core::CorrectionParams> wanted;
    for (double sigma : sliderSigmas()) {
        core::CorrectionParams params = around;
        params.sigma = sigma;
        if (!find(params))
            wanted.push_back(params);
    }
    // Nearest first: the next slider step either way is the likeliest next table.
    std::stable_sort(wanted.begin(), wanted.end(), [&](const auto &a, const auto &b) {
        return std::abs(a.sigma - around.sigma) < std::abs(b.sigma - around.sigma);
    });
    if (wanted.empty())
        return;
    m_prewarm = std::make_unique<Prewarm>();
    const std::stop_token stop = m_prewarm->stop.get_token();
    m_prewarm->thread = QThread::create([this, wanted = std::move(wanted), stop] {
        for (const core::CorrectionParams &params : wanted) {
            if (stop.stop_requested())
                return;
            try {
                CorrectionPlot plot = computeCorrectionPlot(params, {}, stop);
                // `this` outlives the thread (its destructor waits), and insert() runs on the
                // GUI thread, which owns the cache.
                [[maybe_unused]] const QueuedHandOff handOff;
                QMetaObject::invokeMethod(this, [this, plot = std::move(plot)] {
                    insert(plot);
                    emit prewarmed(plot.params);
                }, Qt::QueuedConnection);
            } catch (const core::Cancelled &) {
                return;
            } catch (const std::exception &) {
                // A σ this solver cannot fit is solved (and reported) when the user picks it.
            }
        }
    });
    m_prewarm->thread->start(QThread::IdlePriority);
}

} // namespace ui
