// Logistic regression's Taylor proxies: the control variates of logreg and tall-logreg, with the
// derivative bounds SMH draws its points by (Cornish et al., "Scalable Metropolis–Hastings",
// 2019, Sec. 3.2).
#include <cmath>

#include "core/models/model_computed_proxies.h"
#include "core/models/logistic_regression_model.h"

namespace core {
namespace {

class LogisticTaylorProxies final : public ModelComputedProxies<LogisticRegressionModel> {
public:
    LogisticTaylorProxies(const LogisticRegressionModel &model, const Vector &anchor, int order,
                          LogisticRegressionModel::TaylorSums sums)
        : ModelComputedProxies(model, order, anchor, std::move(sums.gradient), std::move(sums.hessian))
    {
        // Bounds on the (k+1)-th derivatives of every ℓ_i (Cornish et al. 2019): ¼ x²
        // for k = 1, |x|³/(6√3) for k = 2, with x the largest feature (or the bias's 1).
        const double x = model.maxAbsFeature();
        m_derivativeBound = order == 1 ? 0.25 * x * x : x * x * x / (6.0 * std::sqrt(3.0));
    }

    std::optional<double> residualBound(const Vector &from, const Vector &to) const override
    {
        // |r_i| ≤ |R_i(θ')| + |R_i(θ)|, each Taylor remainder ≤ U ‖θ − θ̂‖₁^{k+1} / (k+1)!.
        const int power = order() + 1;
        const double factorial = order() == 1 ? 2.0 : 6.0;
        return m_derivativeBound
               * (std::pow((from - anchor()).lpNorm<1>(), power) + std::pow((to - anchor()).lpNorm<1>(), power))
               / factorial;
    }
    std::optional<std::vector<double>> pointDerivativeBounds() const override
    {
        std::vector<double> bounds = m_model.rowMaxAbsFeatures();
        const double scale = order() == 1 ? 0.25 : 1.0 / (6.0 * std::sqrt(3.0));
        for (double &x : bounds)
            x = scale * (order() == 1 ? x * x : x * x * x);
        return bounds;
    }
    // psi(z) = log sigma(+-z) of the margin: the same sup |psi^(k+1)| as above, times ‖x̃_i‖₂^{k+1}.
    bool hasMarginBounds() const override { return true; }
    std::vector<double> pointMarginBounds() const override
    {
        std::vector<double> bounds = *m_model.pointLipschitzConstants(); // ‖x̃_i‖₂, the bias included
        const double scale = order() == 1 ? 0.25 : 1.0 / (6.0 * std::sqrt(3.0));
        for (double &x : bounds)
            x = scale * (order() == 1 ? x * x : x * x * x);
        return bounds;
    }

private:
    double m_derivativeBound = 0.0;
};

} // namespace

std::shared_ptr<const TaylorProxies> LogisticRegressionModel::taylorProxies(const Vector &anchor, int order) const
{
    return std::make_shared<LogisticTaylorProxies>(*this, anchor, order, taylorSums(anchor));
}

} // namespace core
