#include "core/models/gaussian_mixture_model.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace core {
namespace {

// log(e^a + e^b) = max + log(1 + e^{−|a−b|}), stable for any a, b. log(1 + y) rather than
// log1p(y): Eigen vectorises log but not log1p, and for y ∈ (0, 1] the absolute error of
// log(1 + y) stays at the 1e-16 level, which is all a sum of log-likelihoods can use.
template <typename A, typename B>
auto logSumExp(const A &a, const B &b)
{
    return a.max(b) + ((-(a - b).abs()).exp() + 1.0).log();
}

// Rows are evaluated in place: `values` holds x on entry and the ratio on exit, so a batch
// costs no scratch memory.
void ratiosInPlace(Eigen::Map<Eigen::ArrayXd> values, const Vector &from, const Vector &to)
{
    constexpr double inv = 1.0 / (2.0 * GaussianMixtureModel::kNoiseVariance);
    const double a1 = from[0], a2 = from[0] + from[1];
    const double b1 = to[0], b2 = to[0] + to[1];
    values = logSumExp(-(values - b1).square() * inv, -(values - b2).square() * inv)
             - logSumExp(-(values - a1).square() * inv, -(values - a2).square() * inv);
}

} // namespace

GaussianMixtureModel::GaussianMixtureModel(Eigen::VectorXd data) : m_data(std::move(data))
{
    if (m_data.size() < 1)
        throw std::invalid_argument("the Gaussian mixture needs at least one data point");
    if (!m_data.allFinite())
        throw std::invalid_argument("the Gaussian mixture data contain NaN or infinite values");
}

double GaussianMixtureModel::logPrior(const Vector &theta) const
{
    return -0.5 * (theta[0] * theta[0] / kPriorVariance1 + theta[1] * theta[1] / kPriorVariance2);
}

void GaussianMixtureModel::logLikelihoodRatios(const Vector &from, const Vector &to,
                                               std::span<const DataIndex> rows,
                                               std::span<double> out) const
{
    const double *x = m_data.data();
    for (std::size_t k = 0; k < rows.size(); ++k)
        out[k] = x[rows[k]];
    ratiosInPlace(Eigen::Map<Eigen::ArrayXd>(out.data(), static_cast<Eigen::Index>(rows.size())), from, to);
}

void GaussianMixtureModel::logLikelihoodRatiosRange(const Vector &from, const Vector &to, DataIndex first,
                                                    std::span<double> out) const
{
    Eigen::Map<Eigen::ArrayXd> values(out.data(), static_cast<Eigen::Index>(out.size()));
    values = m_data.segment(first, values.size()).array();
    ratiosInPlace(values, from, to);
}

double GaussianMixtureModel::pointLogLikelihood(double x, double theta1, double theta2)
{
    const double inv = 1.0 / (2.0 * kNoiseVariance);
    const double a = -(x - theta1) * (x - theta1) * inv;
    const double b = -(x - theta1 - theta2) * (x - theta1 - theta2) * inv;
    const double constant = std::log(0.5) - 0.5 * std::log(2.0 * std::numbers::pi * kNoiseVariance);
    return constant + std::max(a, b) + std::log1p(std::exp(-std::abs(a - b)));
}

double GaussianMixtureModel::logLikelihoodSum(const Vector &theta) const
{
    double total = 0.0;
    for (Eigen::Index i = 0; i < m_data.size(); ++i)
        total += pointLogLikelihood(m_data[i], theta[0], theta[1]);
    return total;
}

} // namespace core
