#pragma once
/// Posterior of the mean μ of Gaussian data with known variance s²:
///   x_i ~ N(μ, s²), prior μ ~ N(m₀, v₀) or flat (v₀ = ∞).
/// The tempered posterior is Gaussian in closed form, which makes this the reference model for
/// testing that a chain's stationary distribution is right. With a flat prior and s² = 1 it is
/// the worst-case example of Seita et al. ("Minibatch Acceptance Test", Sec. 2.1, Eq. 5).
#include <cmath>
#include <limits>

#include "core/models/scalar_data_model.h"

namespace core {

class GaussianMeanModel final : public ScalarDataModel {
public:
    /// priorVariance = +∞ means a flat prior. Throws std::invalid_argument for empty or
    /// non-finite data, noiseVariance ≤ 0 or priorVariance ≤ 0.
    GaussianMeanModel(Eigen::VectorXd data, double noiseVariance, double priorMean = 0.0,
                      double priorVariance = std::numeric_limits<double>::infinity());

    std::string name() const override { return "gaussian-mean"; }
    int dimension() const override { return 1; }
    double logPrior(const Vector &theta) const override;
    double logLikelihoodSum(const Vector &theta) const override;
    Vector initialTheta() const override;
    bool hasGradient() const override { return true; }
    /// Its row of the model table (model_registry.h).
    CapabilitySet capabilities() const override;
    /// 0 for the flat prior; −(μ − m₀)/v₀ otherwise.
    void gradLogPrior(const Vector &theta, Vector &out) const override;
    /// Σ_k (x_{rows[k]} − μ) / s².
    void sumGradLogLikelihood(const Vector &theta, std::span<const DataIndex> rows, Vector &out) const override;
    /// |θ' − θ| / s² · max_i |x_i − (θ + θ')/2|, exact, from the data's stored extremes.
    std::optional<double> logLikelihoodRatioBound(const Vector &from, const Vector &to) const override;
    /// 1/s²: ∂ℓ_j = (x_j − μ)/s² for every j.
    std::optional<Vector> pointGradientLipschitz() const override { return Vector::Constant(1, 1.0 / m_noiseVariance); }
    /// 1/v₀, 0 for the flat prior.
    std::optional<double> priorGradientLipschitz() const override
    {
        return std::isfinite(m_priorVariance) ? 1.0 / m_priorVariance : 0.0;
    }

    /// Mean and variance of the exact posterior when the log-likelihood is divided by T.
    double posteriorMean(double temperature) const;
    double posteriorVariance(double temperature) const;

private:
    /// l(x) = (μ' − μ)(x − (μ + μ')/2) / s²: linear in x (Seita et al. Eq. 5 with s² = 1).
    void ratiosInPlace(const Vector &from, const Vector &to, std::span<double> values) const override;

    double m_noiseVariance;
    double m_priorMean;
    double m_priorVariance;
    double m_dataMean;
    double m_dataMin;
    double m_dataMax;
};

} // namespace core
