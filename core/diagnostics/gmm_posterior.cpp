#include "core/diagnostics/gmm_posterior.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/correction/cancelled.h"
#include "core/models/gaussian_mixture_model.h"

namespace core {
namespace {

// log Γ(x) without a data race: std::lgamma also stores the sign of Γ(x) in the global
// `signgam`, so two chains measuring their posterior fit at once write it together (a race
// ThreadSanitizer reports). lgamma_r returns the sign instead.
double logGamma(double x)
{
    int sign = 0;
    return ::lgamma_r(x, &sign);
}

double logSumExp(const Eigen::ArrayXd &values)
{
    const double top = values.maxCoeff();
    return top + std::log((values - top).exp().sum());
}

} // namespace

GaussianMixturePosterior::GaussianMixturePosterior(const Eigen::VectorXd &data, double temperature,
                                                   PosteriorGridSpec spec, std::stop_token stop)
    : m_spec(spec), m_temperature(temperature)
{
    if (data.size() < 1 || !data.allFinite())
        throw std::invalid_argument("posterior needs finite, non-empty data");
    if (!(temperature > 0.0) || !std::isfinite(temperature))
        throw std::invalid_argument("temperature must be finite and > 0");
    if (spec.bins1 < 1 || spec.bins2 < 1 || spec.subdivisions < 1 || spec.dataBins < 1
        || !(spec.theta1Max > spec.theta1Min) || !(spec.theta2Max > spec.theta2Min))
        throw std::invalid_argument("degenerate posterior grid");

    // Summarise the data: count, mean and within-bin sum of squares per fine bin.
    const double lo = data.minCoeff(), hi = data.maxCoeff();
    const double width = std::max(hi - lo, 1e-12) / spec.dataBins;
    Eigen::ArrayXd counts = Eigen::ArrayXd::Zero(spec.dataBins), sums = counts, sumSquares = counts;
    for (Eigen::Index i = 0; i < data.size(); ++i) {
        const int b = std::min(spec.dataBins - 1, static_cast<int>((data[i] - lo) / width));
        counts[b] += 1.0;
        sums[b] += data[i];
    }
    std::vector<int> keep;
    for (int b = 0; b < spec.dataBins; ++b)
        if (counts[b] > 0)
            keep.push_back(b);
    m_binMeans.resize(static_cast<Eigen::Index>(keep.size()));
    m_binCounts.resize(m_binMeans.size());
    for (std::size_t k = 0; k < keep.size(); ++k) {
        m_binCounts[static_cast<Eigen::Index>(k)] = counts[keep[k]];
        m_binMeans[static_cast<Eigen::Index>(k)] = sums[keep[k]] / counts[keep[k]];
    }
    for (Eigen::Index i = 0; i < data.size(); ++i) {
        const int b = std::min(spec.dataBins - 1, static_cast<int>((data[i] - lo) / width));
        const double d = data[i] - sums[b] / counts[b];
        sumSquares[b] += d * d;
    }
    const double maxAbsTheta2 = std::max(std::abs(spec.theta2Min), std::abs(spec.theta2Max));
    const double curvature = std::max(0.5, maxAbsTheta2 * maxAbsTheta2 / 16.0 - 0.5);
    m_binningErrorBound = 0.5 * curvature * sumSquares.sum() / temperature;

    // Midpoint rule on sub-cells, normalised in log space so far tails keep finite logs.
    const int s = spec.subdivisions;
    const int n1 = spec.bins1 * s, n2 = spec.bins2 * s;
    const double h1 = (spec.theta1Max - spec.theta1Min) / n1, h2 = (spec.theta2Max - spec.theta2Min) / n2;
    Eigen::ArrayXXd logDensityGrid(n1, n2);
    for (int i = 0; i < n1; ++i) {
        if (stop.stop_requested())
            throw Cancelled("the exact posterior's grid was stopped");
        for (int j = 0; j < n2; ++j)
            logDensityGrid(i, j) = logDensity(spec.theta1Min + (i + 0.5) * h1, spec.theta2Min + (j + 0.5) * h2);
    }
    Eigen::ArrayXd flat = logDensityGrid.reshaped();
    const double logTotal = logSumExp(flat);
    m_binLogProbability.resize(spec.bins1, spec.bins2);
    for (int i = 0; i < spec.bins1; ++i)
        for (int j = 0; j < spec.bins2; ++j) {
            Eigen::ArrayXd cell = logDensityGrid.block(i * s, j * s, s, s).reshaped();
            m_binLogProbability(i, j) = logSumExp(cell) - logTotal;
        }
    // Mass near the border hints at mass beyond it; report the outer ring's share.
    double border = 0.0;
    for (int i = 0; i < n1; ++i)
        for (int j = 0; j < n2; ++j)
            if (i == 0 || j == 0 || i == n1 - 1 || j == n2 - 1)
                border += std::exp(logDensityGrid(i, j) - logTotal);
    m_outsideMass = border;
}

double GaussianMixturePosterior::logDensity(double theta1, double theta2, double temperature) const
{
    constexpr double inv = 1.0 / (2.0 * GaussianMixtureModel::kNoiseVariance);
    const Eigen::ArrayXd a = -(m_binMeans - theta1).square() * inv;
    const Eigen::ArrayXd b = -(m_binMeans - theta1 - theta2).square() * inv;
    const double logLik = (m_binCounts * (a.max(b) + ((-(a - b).abs()).exp() + 1.0).log())).sum();
    const double logPrior = -0.5 * (theta1 * theta1 / GaussianMixtureModel::kPriorVariance1
                                    + theta2 * theta2 / GaussianMixtureModel::kPriorVariance2);
    return logPrior + logLik / temperature;
}

PosteriorMetrics GaussianMixturePosterior::compare(const Eigen::Ref<const Eigen::MatrixXd> &samples) const
{
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rowMajor = samples;
    return compare(rowMajor, rowMajor.rows());
}

PosteriorMetrics GaussianMixturePosterior::compare(
    const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> &samples, std::int64_t rows) const
{
    if (samples.cols() != 2)
        throw std::invalid_argument("posterior metrics need samples with two columns (theta.1, theta.2)");
    PosteriorMetrics metrics;
    metrics.samples = rows;
    if (rows <= 0)
        return metrics;
    const auto &sp = m_spec;
    Eigen::MatrixXd counts = Eigen::MatrixXd::Zero(sp.bins1, sp.bins2);
    for (std::int64_t t = 0; t < rows; ++t) {
        const double u = (samples(t, 0) - sp.theta1Min) / (sp.theta1Max - sp.theta1Min);
        const double v = (samples(t, 1) - sp.theta2Min) / (sp.theta2Max - sp.theta2Min);
        if (!(u >= 0.0 && u < 1.0 && v >= 0.0 && v < 1.0)) {
            ++metrics.outside;
            continue;
        }
        counts(static_cast<int>(u * sp.bins1), static_cast<int>(v * sp.bins2)) += 1.0;
    }
    const double n = static_cast<double>(rows);
    const double logN = std::log(n);
    double pooledObserved = static_cast<double>(metrics.outside), pooledExpected = n * m_outsideMass;
    double tv = std::abs(static_cast<double>(metrics.outside) / n - m_outsideMass);
    double loglik = 0.0;
    for (int i = 0; i < sp.bins1; ++i)
        for (int j = 0; j < sp.bins2; ++j) {
            const double logP = m_binLogProbability(i, j);
            const double p = std::exp(logP), c = counts(i, j), expected = n * p;
            tv += std::abs(c / n - p);
            loglik += c * (logN + logP) - expected - logGamma(c + 1.0);
            if (expected >= 5.0) {
                metrics.chiSquared += (c - expected) * (c - expected) / expected;
                ++metrics.chiSquaredCells;
            } else {
                pooledObserved += c;
                pooledExpected += expected;
            }
        }
    if (pooledExpected > 0.0) {
        metrics.chiSquared += (pooledObserved - pooledExpected) * (pooledObserved - pooledExpected) / pooledExpected;
        ++metrics.chiSquaredCells;
    }
    if (metrics.outside > 0) // Eq. 39 for the outside cell, with its tiny estimated mass
        loglik += static_cast<double>(metrics.outside) * (logN + std::log(std::max(m_outsideMass, 1e-300)))
                  - logGamma(static_cast<double>(metrics.outside) + 1.0);
    metrics.totalVariation = 0.5 * tv;
    metrics.poissonLogLikelihood = loglik;
    return metrics;
}

} // namespace core
