// The GLMs' Taylor proxies (control variates) and the bounds on their remainders that SMH draws
// its points by and MHSubLhd takes its range from (Cornish et al., "Scalable Metropolis–Hastings",
// ICML 2019, Sec. 3.2): every (k+1)-th partial derivative of ℓ_i is ℓ^{(k+1)}(y_i, z_i) times a
// product of k+1 features, so Ū_i = sup|ℓ^{(k+1)}| · max_j |x̃_ij|^{k+1}.
//
// Where sup|ℓ^{(k+1)}| does not exist (Poisson's e^z), the range of a move's residuals still has
// a bound: the remainder of ℓ_i between θ̂ and θ is ℓ^{(k+1)}(ξ)(x̃_i·(θ − θ̂))^{k+1}/(k+1)! with ξ
// between ẑ_i and z_i, so ξ ≤ Ẑ + M‖θ − θ̂‖₁ (Ẑ = max_i ẑ_i, M = max_ij |x̃_ij|) and
// |r_i| ≤ sup_{z ≤ Ẑ + M D}|ℓ^{(k+1)}| · M^{k+1} (D^{k+1} + D'^{k+1}) / (k+1)!, D = ‖θ − θ̂‖₁,
// D' = ‖θ' − θ̂‖₁, D taken as the larger of the two in the exponent. It depends on the move, so
// SMH, whose point weights must not, still has none.
#include <algorithm>
#include <cmath>

#include "core/models/model_computed_proxies.h"
#include "core/models/glm/glm_model.h"

namespace core {
namespace {

class GlmTaylorProxies final : public ModelComputedProxies<GlmModel> {
public:
    GlmTaylorProxies(const GlmModel &model, const Vector &anchor, int order, GlmModel::DerivativeSums sums)
        : ModelComputedProxies(model, order, anchor, std::move(sums.gradient), std::move(sums.hessian)),
          m_remainderDerivative(model.family().derivativeBound(order + 1))
    {
        // A pass for the anchor's largest margin only where the bound needs it.
        if (!m_remainderDerivative && model.family().derivativeBoundBelow(order + 1, 0.0))
            m_largestAnchorMargin = model.largestMargin(anchor);
    }

    std::optional<double> residualBound(const Vector &from, const Vector &to) const override
    {
        // |r_i| ≤ |R_i(θ')| + |R_i(θ)|, each remainder ≤ Ū ‖θ − θ̂‖₁^{k+1} / (k+1)!.
        const int power = order() + 1;
        const double factorial = order() == 1 ? 2.0 : 6.0;
        const double x = m_model.maxAbsFeature();
        const double a = (from - anchor()).lpNorm<1>(), b = (to - anchor()).lpNorm<1>();
        std::optional<double> derivative = m_remainderDerivative;
        if (!derivative && m_largestAnchorMargin) // near the anchor only (see the top of this file)
            derivative = m_model.family().derivativeBoundBelow(power, *m_largestAnchorMargin + x * std::max(a, b));
        if (!derivative)
            return std::nullopt;
        return *derivative * std::pow(x, power) * (std::pow(a, power) + std::pow(b, power)) / factorial;
    }
    std::optional<std::vector<double>> pointDerivativeBounds() const override
    {
        if (!m_remainderDerivative)
            return std::nullopt;
        std::vector<double> bounds = m_model.rowMaxAbsFeatures();
        const int power = order() + 1;
        for (double &x : bounds)
            x = *m_remainderDerivative * std::pow(x, power);
        return bounds;
    }
    // ℓ_i depends on θ through the margin x̃_iᵀθ alone: V_i = sup|ℓ^{(k+1)}| ‖x̃_i‖₂^{k+1}.
    bool hasMarginBounds() const override { return m_remainderDerivative.has_value(); }
    std::vector<double> pointMarginBounds() const override
    {
        std::vector<double> bounds = m_model.rowNorms();
        const int power = order() + 1;
        for (double &x : bounds)
            x = *m_remainderDerivative * std::pow(x, power);
        return bounds;
    }

private:
    /// sup|ℓ^{(k+1)}| over every response and margin; none where it is unbounded (Poisson).
    std::optional<double> m_remainderDerivative;
    /// Ẑ = max_i x̃_i·θ̂, where the residuals' range needs it (no global bound, one below a margin).
    std::optional<double> m_largestAnchorMargin;
};

} // namespace

std::shared_ptr<const TaylorProxies> GlmModel::taylorProxies(const Vector &anchor, int order) const
{
    return std::make_shared<GlmTaylorProxies>(*this, anchor, order, derivativeSums(anchor));
}

} // namespace core
