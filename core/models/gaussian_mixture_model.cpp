#include "core/models/gaussian_mixture_model.h"
#include "core/models/model_registry.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace core {

CapabilitySet GaussianMixtureModel::capabilities() const
{
    return modelEntry(name()).capabilities;
}
namespace {

// log(e^a + e^b) = max + log(1 + e^{−|a−b|}), stable for any a, b. log(1 + y) rather than
// log1p(y): Eigen vectorises log but not log1p, and for y ∈ (0, 1] the absolute error of
// log(1 + y) stays at the 1e-16 level, which is all a sum of log-likelihoods can use.
template <typename A, typename B>
auto logSumExp(const A &a, const B &b)
{
    return a.max(b) + ((-(a - b).abs()).exp() + 1.0).log();
}

} // namespace

GaussianMixtureModel::GaussianMixtureModel(Eigen::VectorXd data)
    : ScalarDataModel(std::move(data), "the Gaussian mixture")
{
}

double GaussianMixtureModel::logPrior(const Vector &theta) const
{
    return -0.5 * (theta[0] * theta[0] / kPriorVariance1 + theta[1] * theta[1] / kPriorVariance2);
}

// Rows are evaluated in place: `values` holds x on entry and the ratio on exit, so a batch
// costs no scratch memory.
void GaussianMixtureModel::ratiosInPlace(const Vector &from, const Vector &to, std::span<double> values) const
{
    constexpr double inv = 1.0 / (2.0 * kNoiseVariance);
    const double a1 = from[0], a2 = from[0] + from[1];
    const double b1 = to[0], b2 = to[0] + to[1];
    Eigen::Map<Eigen::ArrayXd> x(values.data(), static_cast<Eigen::Index>(values.size()));
    x = logSumExp(-(x - b1).square() * inv, -(x - b2).square() * inv)
        - logSumExp(-(x - a1).square() * inv, -(x - a2).square() * inv);
}

void GaussianMixtureModel::gradLogPrior(const Vector &theta, Vector &out) const
{
    out.resize(2);
    out[0] = -theta[0] / kPriorVariance1;
    out[1] = -theta[1] / kPriorVariance2;
}

void GaussianMixtureModel::sumGradLogLikelihood(const Vector &theta, std::span<const DataIndex> rows,
                                                Vector &out) const
{
    constexpr DataIndex kBlock = 64;
    const double theta1 = theta[0], theta2 = theta[1];
    const double *x = m_data.data();
    const auto total = static_cast<DataIndex>(rows.size());
    double sum1 = 0.0, sum2 = 0.0;
    for (DataIndex first = 0; first < total; first += kBlock) {
        const DataIndex count = std::min(kBlock, total - first);
        alignas(64) double buffer[kBlock];
        for (DataIndex k = 0; k < count; ++k)
            buffer[k] = x[rows[static_cast<std::size_t>(first + k)]];
        Eigen::Map<Eigen::ArrayXd, Eigen::Aligned64> centred(buffer, count);
        centred -= theta1;
        // log N(x; θ₁) − log N(x; θ₁ + θ₂) = θ₂ (θ₂ − 2(x − θ₁)) / (2σx²): linear in x, and
        // r = 1 / (1 + e^that) saturates cleanly to 0 or 1 when the exponent overflows.
        alignas(64) double share[kBlock];
        Eigen::Map<Eigen::ArrayXd, Eigen::Aligned64> responsibility(share, count);
        responsibility = ((theta2 * (theta2 - 2.0 * centred) / (2.0 * kNoiseVariance)).exp() + 1.0).inverse();
        sum1 += (centred - responsibility * theta2).sum();
        sum2 += (responsibility * (centred - theta2)).sum();
    }
    out.resize(2);
    out[0] = sum1 / kNoiseVariance;
    out[1] = sum2 / kNoiseVariance;
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
