#include "ui/charts/correction_plot_cache.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <stop_token>
#include <utility>

#include <QThread>

#include "core/correction/cancelled.h"
#include "ui/run/queued_hand_off.h"

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

const std::vector<double> &CorrectionPlotCache::sliderLambdas()
{
    static const std::vector<double> lambdas = [] {
        std::vector<double> values;
        // m · 10^e as the quotient or product of integers: the correctly rounded double, the
        // one "0.002" parses to, which is what the spin box holds.
        for (int e = -3; e <= 3; ++e)
            for (int m : {1, 2, 5}) {
                if (e == 3 && m > 1)
                    break;
                values.push_back(e < 0 ? m / std::pow(10.0, -e) : m * std::pow(10.0, e));
            }
        return values;
    }();
    return lambdas;
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
    // Each table with its distance from `around` in slider steps: the next step either way,
    // of either slider, is the likeliest next table.
    std::vector<std::pair<double, core::CorrectionParams>> steps;
    const double sigmaStep = sliderSigmas()[1] - sliderSigmas()[0];
    for (double sigma : sliderSigmas()) {
        core::CorrectionParams params = around;
        params.sigma = sigma;
        if (!find(params))
            steps.emplace_back(std::abs(sigma - around.sigma) / sigmaStep, params);
    }
    if (around.solver == core::CorrectionSolver::Ridge && around.lambda > 0.0) {
        const double lambdaStep = std::log(10.0) / 3.0; // three stops per decade
        for (double lambda : sliderLambdas()) {
            core::CorrectionParams params = around;
            params.lambda = lambda;
            if (!find(params))
                steps.emplace_back(std::abs(std::log(lambda / around.lambda)) / lambdaStep, params);
        }
    }
    std::stable_sort(steps.begin(), steps.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    std::vector<core::CorrectionParams> wanted;
    for (auto &[distance, params] : steps)
        wanted.push_back(params);
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
