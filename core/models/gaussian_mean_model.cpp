#include "core/models/gaussian_mean_model.h"
#include "core/models/model_registry.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace core {

CapabilitySet GaussianMeanModel::capabilities() const
{
    return modelEntry(name()).capabilities;
}

GaussianMeanModel::GaussianMeanModel(Eigen::VectorXd data, double noiseVariance, double priorMean,
                                     double priorVariance)
    : ScalarDataModel(std::move(data), "the Gaussian mean model"), m_noiseVariance(noiseVariance),
      m_priorMean(priorMean), m_priorVariance(priorVariance)
{
    if (!(noiseVariance > 0.0) || !std::isfinite(noiseVariance))
        throw std::invalid_argument("noise variance must be finite and > 0");
    if (!(priorVariance > 0.0))
        throw std::invalid_argument("prior variance must be > 0 (use infinity for a flat prior)");
    m_dataMean = m_data.mean();
    m_dataMin = m_data.minCoeff();
    m_dataMax = m_data.maxCoeff();
}

std::optional<double> GaussianMeanModel::logLikelihoodRatioBound(const Vector &from, const Vector &to) const
{
    const double mid = 0.5 * (to[0] + from[0]);
    return std::abs(to[0] - from[0]) / m_noiseVariance * std::max(std::abs(m_dataMax - mid), std::abs(m_dataMin - mid));
}

double GaussianMeanModel::logPrior(const Vector &theta) const
{
    if (std::isinf(m_priorVariance))
        return 0.0;
    const double d = theta[0] - m_priorMean;
    return -0.5 * d * d / m_priorVariance;
}

void GaussianMeanModel::ratiosInPlace(const Vector &from, const Vector &to, std::span<double> values) const
{
    const double step = (to[0] - from[0]) / m_noiseVariance;
    const double mid = 0.5 * (to[0] + from[0]);
    Eigen::Map<Eigen::ArrayXd> x(values.data(), static_cast<Eigen::Index>(values.size()));
    x = step * (x - mid);
}

double GaussianMeanModel::logLikelihoodSum(const Vector &theta) const
{
    const double constant = -0.5 * std::log(2.0 * std::numbers::pi * m_noiseVariance);
    return static_cast<double>(m_data.size()) * constant
           - 0.5 * (m_data.array() - theta[0]).square().sum() / m_noiseVariance;
}

void GaussianMeanModel::gradLogPrior(const Vector &theta, Vector &out) const
{
    out.resize(1);
    out[0] = std::isinf(m_priorVariance) ? 0.0 : -(theta[0] - m_priorMean) / m_priorVariance;
}

void GaussianMeanModel::sumGradLogLikelihood(const Vector &theta, std::span<const DataIndex> rows, Vector &out) const
{
    // The score is linear in x: only the sum of the rows is needed.
    const double *x = m_data.data();
    double sum = 0.0;
    for (const DataIndex row : rows)
        sum += x[row];
    out.resize(1);
    out[0] = (sum - static_cast<double>(rows.size()) * theta[0]) / m_noiseVariance;
}

Vector GaussianMeanModel::initialTheta() const
{
    return Vector::Constant(1, m_dataMean);
}

double GaussianMeanModel::posteriorVariance(double temperature) const
{
    const double likelihoodPrecision = static_cast<double>(m_data.size()) / (m_noiseVariance * temperature);
    const double priorPrecision = std::isinf(m_priorVariance) ? 0.0 : 1.0 / m_priorVariance;
    return 1.0 / (likelihoodPrecision + priorPrecision);
}

double GaussianMeanModel::posteriorMean(double temperature) const
{
    const double likelihoodPrecision = static_cast<double>(m_data.size()) / (m_noiseVariance * temperature);
    const double priorPrecision = std::isinf(m_priorVariance) ? 0.0 : 1.0 / m_priorVariance;
    return posteriorVariance(temperature) * (likelihoodPrecision * m_dataMean + priorPrecision * m_priorMean);
}

} // namespace core
