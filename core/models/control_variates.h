#pragma once
/// Control variates for the minibatch tests: Taylor proxies of every point's log-likelihood
/// around an anchor θ̂ (Bardenet, Doucet & Holmes, "On Markov chain Monte Carlo methods for tall
/// data", JMLR 2017: the improved confidence sampler; Cornish et al., "Scalable Metropolis–Hastings
/// for exact Bayesian inference with large datasets", ICML 2019).
///
/// With q̂_i the proxy of order k ∈ {1, 2},
///   q̂_i(θ) = ℓ_i(θ̂) + g_i·(θ − θ̂) [+ ½ (θ − θ̂)ᵀ H_i (θ − θ̂)],
/// the log-likelihood ratio splits into an exact part and residuals:
///   Σ_i l_i(θ, θ') = Σ_i (q̂_i(θ') − q̂_i(θ)) + Σ_i r_i(θ, θ'),
/// where the first sum needs only G = Σ g_i and H = Σ H_i (computed once, O(d²) per iteration)
/// and only the residuals r_i are estimated from the minibatch. Any θ̂ keeps the estimate
/// unbiased (the proxies' sum is exact); a θ̂ far from where the chain is costs variance, not
/// correctness.
///
/// ControlVariateModel is a Model whose per-point ratios are the residuals and whose
/// exactLogLikelihoodRatioPart() is the proxies' sum, so every acceptance test works on it
/// unchanged: the minibatch test's variance is then that of the whole estimate, and the
/// full-data tests still get the exact Δ. Its prior, gradients, initial θ and full-data
/// log-likelihood are the base model's.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/models/model.h"

namespace core {

/// A model's per-point Taylor proxies around one anchor. A model with the TaylorProxies
/// capability makes its own (Model::taylorProxies): logistic regression (logreg, tall-logreg)
/// and the Gaussian mixture do.
class TaylorProxies {
public:
    virtual ~TaylorProxies() = default;
    int order() const { return m_order; }
    const Vector &anchor() const { return m_anchor; }
    /// Σ_i ∇ℓ_i(θ̂) and Σ_i ∇²ℓ_i(θ̂) (the latter used for order 2 only).
    const Vector &gradientSum() const { return m_gradient; }
    const Eigen::MatrixXd &hessianSum() const { return m_hessian; }

    /// Σ_i (q̂_i(to) − q̂_i(from)), exactly, from G and H: O(d²), no data read.
    double proxyRatioSum(const Vector &from, const Vector &to) const;
    /// r_k = l_{rows[k]}(from, to) − (q̂(to) − q̂(from)) of that row, untempered. No allocation.
    virtual void residuals(const Vector &from, const Vector &to, std::span<const DataIndex> rows,
                           std::span<double> out) const = 0;
    virtual void residualsRange(const Vector &from, const Vector &to, DataIndex first, std::span<double> out) const = 0;
    /// An upper bound on max_i |r_i(from, to)| from the Taylor remainder (untempered), without
    /// a pass over the data; std::nullopt where the model has none (the mixture's derivatives
    /// are unbounded in θ).
    virtual std::optional<double> residualBound(const Vector &from, const Vector &to) const = 0;
    /// Ū_i for every point i: a bound on every (k+1)-th partial derivative of −ℓ_i, so that
    /// |r_i(θ, θ')| ≤ Ū_i (‖θ − θ̂‖₁^{k+1} + ‖θ' − θ̂‖₁^{k+1}) / (k+1)! (Cornish et al. 2019,
    /// Sec. 3.2; ℓ₁ norms). One pass over the data; std::nullopt where the model has none
    /// (the mixture). SMH draws its points in proportion to them.
    virtual std::optional<std::vector<double>> pointDerivativeBounds() const = 0;
    /// The same as drawable weights, built on the first call and shared by every later one
    /// (from any thread). Throws std::invalid_argument when the model has none.
    const PointWeights &derivativeBoundWeights() const;

    /// Whether the model's log-likelihood of a point is a function ψ_i of its margin x̃_iᵀθ alone
    /// (logistic regression, the GLMs) with sup|ψ^{(k+1)}| finite, so that a remainder is a
    /// one-dimensional Taylor remainder in the margin: |R_i(θ)| ≤ sup|ψ^{(k+1)}| |x̃_iᵀ(θ − θ̂)|^{k+1}
    /// / (k+1)! ≤ V_i ‖θ − θ̂‖₂^{k+1} / (k+1)! by Cauchy–Schwarz, V_i = sup|ψ^{(k+1)}| ‖x̃_i‖₂^{k+1}.
    /// Where ‖x̃_i‖₂‖θ − θ̂‖₂ < max_j|x̃_ij|·‖θ − θ̂‖₁, as for dense covariates and isotropic moves,
    /// this is the tighter of the two bounds (SMH's `auto` choice, exact_minibatch_tests.h).
    virtual bool hasMarginBounds() const { return false; }
    /// V_i for every point (one pass over the data). Only where hasMarginBounds().
    virtual std::vector<double> pointMarginBounds() const;
    /// The same as drawable weights, built once and shared as derivativeBoundWeights() is.
    /// Throws std::invalid_argument where !hasMarginBounds().
    const PointWeights &marginBoundWeights() const;

protected:
    TaylorProxies(int order, Vector anchor, Vector gradient, Eigen::MatrixXd hessian);

private:
    int m_order;
    Vector m_anchor;
    Vector m_gradient;
    Eigen::MatrixXd m_hessian;
    LazyPointWeights m_boundWeights;
    LazyPointWeights m_marginWeights;
};

/// The proxies of `model` of order 1 or 2 around `anchor`, with their sums from one pass over
/// the data. Throws std::invalid_argument for another order, an anchor of the wrong dimension,
/// or a model without the TaylorProxies capability (the message names it).
std::shared_ptr<const TaylorProxies> makeTaylorProxies(const Model &model, const Vector &anchor, int order);

/// `base` with its ratios replaced by the proxies' residuals (see the top of this file).
class ControlVariateModel final : public Model {
public:
    /// Throws std::invalid_argument when either is null or their dimensions differ.
    ControlVariateModel(std::shared_ptr<const Model> base, std::shared_ptr<const TaylorProxies> proxies);

    std::string name() const override { return m_base->name(); }
    int dimension() const override { return m_base->dimension(); }
    DataIndex dataSize() const override { return m_base->dataSize(); }
    double logPrior(const Vector &theta) const override { return m_base->logPrior(theta); }
    /// The residuals r_i (the estimable part of l_i).
    void logLikelihoodRatios(const Vector &from, const Vector &to, std::span<const DataIndex> rows,
                             std::span<double> out) const override
    {
        m_proxies->residuals(from, to, rows, out);
    }
    void logLikelihoodRatiosRange(const Vector &from, const Vector &to, DataIndex first,
                                  std::span<double> out) const override
    {
        m_proxies->residualsRange(from, to, first, out);
    }
    /// Σ_i (q̂_i(to) − q̂_i(from)).
    double exactLogLikelihoodRatioPart(const Vector &from, const Vector &to) const override
    {
        return m_proxies->proxyRatioSum(from, to);
    }
    double logLikelihoodSum(const Vector &theta) const override { return m_base->logLikelihoodSum(theta); }
    Vector initialTheta() const override { return m_base->initialTheta(); }
    bool hasGradient() const override { return m_base->hasGradient(); }
    /// The base model's, less its collapsible lower bound: that bounds the base's likelihood,
    /// and this model's per-point ratios are the Taylor residuals, which it does not describe.
    CapabilitySet capabilities() const override
    {
        return m_base->capabilities().missingFrom(CapabilitySet{ModelCapability::CollapsibleLowerBound});
    }
    std::string whyItLacks(ModelCapability capability) const override
    {
        if (capability == ModelCapability::CollapsibleLowerBound && m_base->capabilities().has(capability))
            return "with control variates a point's ratio is its Taylor residual, which no lower bound on its "
                   "likelihood describes (run flymc without control variates)";
        return m_base->whyItLacks(capability);
    }
    void gradLogPrior(const Vector &theta, Vector &out) const override { m_base->gradLogPrior(theta, out); }
    void sumGradLogLikelihood(const Vector &theta, std::span<const DataIndex> rows, Vector &out) const override
    {
        m_base->sumGradLogLikelihood(theta, rows, out);
    }
    std::optional<Vector> pointGradientLipschitz() const override { return m_base->pointGradientLipschitz(); }
    std::optional<double> priorGradientLipschitz() const override { return m_base->priorGradientLipschitz(); }
    /// The residuals' Taylor-remainder bound (never a pass over the data).
    std::optional<double> logLikelihoodRatioBound(const Vector &from, const Vector &to) const override
    {
        return m_proxies->residualBound(from, to);
    }

    const Model &base() const { return *m_base; }
    const TaylorProxies &proxies() const { return *m_proxies; }
    const TaylorProxies *residualProxies() const override { return m_proxies.get(); }

private:
    std::shared_ptr<const Model> m_base;
    std::shared_ptr<const TaylorProxies> m_proxies;
};

} // namespace core
