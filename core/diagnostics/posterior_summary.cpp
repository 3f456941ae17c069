#include "core/diagnostics/posterior_summary.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <boost/math/distributions/beta.hpp>

namespace core {
namespace {

std::vector<double> pooled(const ChainDraws &chains)
{
    std::vector<double> all;
    for (const auto &chain : chains)
        all.insert(all.end(), chain.begin(), chain.end());
    return all;
}

double mean(const std::vector<double> &values)
{
    double sum = 0.0;
    for (double v : values)
        sum += v;
    return sum / static_cast<double>(values.size());
}

double standardDeviation(const std::vector<double> &values)
{
    const double m = mean(values);
    double sum = 0.0;
    for (double v : values)
        sum += (v - m) * (v - m);
    return std::sqrt(sum / static_cast<double>(values.size() - 1));
}

} // namespace

double mcseMean(const ChainDraws &chains)
{
    const double ess = effectiveSampleSize(chains); // checks the shape
    return standardDeviation(pooled(chains)) / std::sqrt(ess);
}

double mcseQuantile(const ChainDraws &chains, double prob)
{
    const double ess = quantileEffectiveSampleSize(chains, prob); // checks prob and the shape
    if (std::isnan(ess))
        return ess;
    std::vector<double> sorted = pooled(chains);
    std::sort(sorted.begin(), sorted.end());
    const boost::math::beta_distribution<double> beta(ess * prob + 1.0, ess * (1.0 - prob) + 1.0);
    const auto size = static_cast<double>(sorted.size());
    // ±1 standard deviation of a normal, as probabilities.
    const double low = boost::math::quantile(beta, 0.1586553) * size - 1.0;
    const double high = boost::math::quantile(beta, 0.8413447) * size - 1.0;
    const auto lowIndex = static_cast<std::size_t>(std::floor(std::max(low, 0.0)));
    const auto highIndex = static_cast<std::size_t>(std::ceil(std::min(high, size - 1.0)));
    return (sorted[highIndex] - sorted[lowIndex]) / 2.0;
}

ParameterSummary summarizeParameter(const ChainDraws &chains)
{
    ParameterSummary summary;
    summary.essBulk = bulkEffectiveSampleSize(chains); // checks the shape first
    const std::vector<double> all = pooled(chains);
    summary.mean = mean(all);
    summary.sd = standardDeviation(all);
    summary.mcseMean = mcseMean(chains);
    const bool finite = std::none_of(all.begin(), all.end(), [](double x) { return std::isnan(x); });
    const double nan = std::nan("");
    summary.q5 = finite ? pooledQuantile(chains, 0.05) : nan;
    summary.q50 = finite ? pooledQuantile(chains, 0.5) : nan;
    summary.q95 = finite ? pooledQuantile(chains, 0.95) : nan;
    summary.essTail = tailEffectiveSampleSize(chains);
    summary.rhat = splitRhat(chains);
    return summary;
}

} // namespace core
