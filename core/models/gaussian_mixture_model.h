#pragma once
/// Posterior of the two mixture means of the Welling–Teh mixture (Seita et al., "Minibatch
/// Acceptance Test", Sec. 6.1, Eq. 22):
///   prior θ ~ N(0, diag(σ₁², σ₂²)) with σ₁² = 10, σ₂² = 1,
///   likelihood p(x | θ) = ½ N(x; θ₁, σx²) + ½ N(x; θ₁ + θ₂, σx²), σx² = 2.
/// The prior is never tempered; the acceptance tests divide the log-likelihood by T.
#include <memory>

#include "core/models/scalar_data_model.h"

namespace core {

class GaussianMixtureModel final : public ScalarDataModel {
public:
    static constexpr double kPriorVariance1 = 10.0;
    static constexpr double kPriorVariance2 = 1.0;
    static constexpr double kNoiseVariance = 2.0;

    /// Takes the data (N ≥ 1). Throws std::invalid_argument on empty data or non-finite values.
    explicit GaussianMixtureModel(Eigen::VectorXd data);

    std::string name() const override { return "gmm"; }
    int dimension() const override { return 2; }
    double logPrior(const Vector &theta) const override;
    double logLikelihoodSum(const Vector &theta) const override;
    /// The prior mean (0, 0): between the posterior's two modes, so burn-in is visible.
    Vector initialTheta() const override { return Vector::Zero(2); }
    bool hasGradient() const override { return true; }
    /// Its row of the model table (model_registry.h).
    CapabilitySet capabilities() const override;
    /// Defined beside its proxies' class (mixture_taylor_proxies.cpp).
    std::shared_ptr<const TaylorProxies> taylorProxies(const Vector &anchor, int order) const override;
    /// (−θ₁/σ₁², −θ₂/σ₂²).
    void gradLogPrior(const Vector &theta, Vector &out) const override;
    /// With r(x) the responsibility of the component at θ₁ + θ₂,
    /// ∂/∂θ₁ log p(x|θ) = (x − θ₁ − r θ₂)/σx² and ∂/∂θ₂ log p(x|θ) = r (x − θ₁ − θ₂)/σx²,
    /// summed over the rows in stack blocks of 64 with Eigen's vectorised exp.
    void sumGradLogLikelihood(const Vector &theta, std::span<const DataIndex> rows, Vector &out) const override;

    /// log p(x | θ) for one point, with its normalising constant.
    static double pointLogLikelihood(double x, double theta1, double theta2);

private:
    /// l(x) = log(e^{−(x−θ₁')²/2σx²} + e^{−(x−θ₁'−θ₂')²/2σx²}) − the same at θ, vectorised.
    void ratiosInPlace(const Vector &from, const Vector &to, std::span<double> values) const override;
};

} // namespace core
