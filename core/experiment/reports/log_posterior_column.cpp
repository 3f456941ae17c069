#include "core/experiment/reports/log_posterior_column.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace core {

std::vector<double> logPosteriorColumn(const ChainResult &chain, const GaussianMixturePosterior &binned)
{
    std::vector<double> lp(static_cast<std::size_t>(chain.completed));
    for (std::int64_t t = 0; t < chain.completed; ++t)
        lp[static_cast<std::size_t>(t)] = binned.logDensity(chain.samples(t, 0), chain.samples(t, 1), chain.temperatureAt(t));
    return lp;
}

std::vector<double> logPosteriorColumn(const ChainResult &chain, const Model &model, std::stop_token stop)
{
    const auto rows = static_cast<std::size_t>(chain.completed);
    // Only rows where θ moved need a pass; the others repeat their predecessor's value.
    std::vector<char> repeats(rows, 0);
    std::vector<std::int64_t> moved;
    for (std::int64_t t = 0; t < chain.completed; ++t) {
        if (t > 0 && chain.samples.row(t) == chain.samples.row(t - 1))
            repeats[static_cast<std::size_t>(t)] = 1;
        else
            moved.push_back(t);
    }
    std::vector<double> logLikelihood(rows);
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        Vector theta(chain.samples.cols());
        for (std::size_t k = next++; k < moved.size() && !stop.stop_requested(); k = next++) {
            const std::int64_t t = moved[k];
            theta = chain.samples.row(t).transpose();
            logLikelihood[static_cast<std::size_t>(t)] = model.logLikelihoodSum(theta);
        }
    };
    {
        const unsigned cores = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
        std::vector<std::jthread> pool;
        for (unsigned h = 1; h < cores && moved.size() > 64; ++h)
            pool.emplace_back(work);
        work();
    } // joins the pool
    if (stop.stop_requested())
        return {};
    std::vector<double> lp(rows);
    Vector theta(chain.samples.cols());
    for (std::size_t t = 0; t < rows; ++t) {
        if (repeats[t])
            logLikelihood[t] = logLikelihood[t - 1];
        theta = chain.samples.row(static_cast<Eigen::Index>(t)).transpose();
        lp[t] = model.logPrior(theta) + logLikelihood[t] / chain.temperatureAt(static_cast<std::int64_t>(t));
    }
    return lp;
}

double logPosteriorColumnCost(const ChainResult &chain, const Model &model)
{
    std::int64_t distinct = 0;
    for (std::int64_t t = 0; t < chain.completed; ++t)
        if (t == 0 || chain.samples.row(t) != chain.samples.row(t - 1))
            ++distinct;
    return static_cast<double>(distinct) * static_cast<double>(model.dataSize());
}

} // namespace core
