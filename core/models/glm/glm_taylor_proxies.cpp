// The GLMs' Taylor proxies (control variates) and the bounds on their remainders that SMH draws
// its points by and MHSubLhd takes its range from (Cornish et al., "Scalable Metropolis–Hastings",
// ICML 2019, Sec. 3.2): every (k+1)-th partial derivative of ℓ_i is ℓ^{(k+1)}(y_i, z_i) times a
// product of k+1 features, so Ū_i = sup|ℓ^{(k+1)}| · max_j |x̃_ij|^{k+1}.
#include <cmath>

#include "core/models/control_variates.h"
#include "core/models/glm/glm_model.h"

namespace core {
namespace {

class GlmTaylorProxies final : public TaylorProxies {
public:
    GlmTaylorProxies(const GlmModel &model, const Vector &anchor, int order, GlmModel::DerivativeSums sums)
        : TaylorProxies(order, anchor, std::move(sums.gradient), std::move(sums.hessian)), m_model(model),
          m_remainderDerivative(model.family().derivativeBound(order + 1))
    {
    }

    void residuals(const Vector &from, const Vector &to, std::span<const DataIndex> rows,
                   std::span<double> out) const override
    {
        m_model.taylorResiduals(from, to, anchor(), order(), rows, out);
    }
    void residualsRange(const Vector &from, const Vector &to, DataIndex first, std::span<double> out) const override
    {
        m_model.taylorResidualsRange(from, to, anchor(), order(), first, out);
    }
    std::optional<double> residualBound(const Vector &from, const Vector &to) const override
    {
        if (!m_remainderDerivative)
            return std::nullopt;
        // |r_i| ≤ |R_i(θ')| + |R_i(θ)|, each remainder ≤ Ū ‖θ − θ̂‖₁^{k+1} / (k+1)!.
        const int power = order() + 1;
        const double factorial = order() == 1 ? 2.0 : 6.0;
        const double x = m_model.maxAbsFeature();
        return *m_remainderDerivative * std::pow(x, power)
               * (std::pow((from - anchor()).lpNorm<1>(), power) + std::pow((to - anchor()).lpNorm<1>(), power))
               / factorial;
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

private:
    const GlmModel &m_model;
    /// sup|ℓ^{(k+1)}| over every response and margin; none where it is unbounded (Poisson).
    std::optional<double> m_remainderDerivative;
};

} // namespace

std::shared_ptr<const TaylorProxies> GlmModel::taylorProxies(const Vector &anchor, int order) const
{
    return std::make_shared<GlmTaylorProxies>(*this, anchor, order, derivativeSums(anchor));
}

} // namespace core
