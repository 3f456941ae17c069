// The Gaussian mixture's Taylor proxies: control variates without a remainder bound (the
// mixture's derivatives grow without bound in θ), so SMH and MHSubLhd's bound cannot use them.
#include <cmath>

#include "core/models/control_variates.h"
#include "core/models/gaussian_mixture_model.h"

namespace core {
namespace {

// The mixture x ~ ½ N(θ₁, v) + ½ N(θ₁ + θ₂, v): with μ = (θ₁, θ₁ + θ₂) = Jθ, responsibilities
// ρ_k and e_k = (x − μ_k)/v, the gradient in μ is g_μ = (ρ₁e₁, ρ₂e₂) and the Hessian
// diag(ρ_k(e_k² − 1/v)) − g_μ g_μᵀ (the mixture's log-sum-exp rule); in θ, Jᵀg and JᵀHJ.
struct MixturePointDerivatives {
    double g1, g2, h11, h12, h22;
};

MixturePointDerivatives mixtureDerivatives(double x, const Vector &at)
{
    const double v = GaussianMixtureModel::kNoiseVariance;
    const double mu1 = at[0], mu2 = at[0] + at[1];
    const double e1 = (x - mu1) / v, e2 = (x - mu2) / v;
    // ρ₂ = 1 / (1 + exp(log φ₁ − log φ₂)), in a form that cannot overflow.
    const double logRatio = (-(x - mu1) * (x - mu1) + (x - mu2) * (x - mu2)) / (2.0 * v);
    const double rho2 = logRatio > 0 ? std::exp(-logRatio) / (1.0 + std::exp(-logRatio)) : 1.0 / (1.0 + std::exp(logRatio));
    const double rho1 = 1.0 - rho2;
    const double gm1 = rho1 * e1, gm2 = rho2 * e2;
    const double hm11 = rho1 * (e1 * e1 - 1.0 / v) - gm1 * gm1;
    const double hm22 = rho2 * (e2 * e2 - 1.0 / v) - gm2 * gm2;
    const double hm12 = -gm1 * gm2;
    // J = [[1, 0], [1, 1]]: θ₁ moves both means, θ₂ the second.
    return {gm1 + gm2, gm2, hm11 + 2.0 * hm12 + hm22, hm12 + hm22, hm22};
}

class MixtureTaylorProxies final : public TaylorProxies {
public:
    MixtureTaylorProxies(const GaussianMixtureModel &model, const Vector &anchor, int order, Vector gradient,
                         Eigen::MatrixXd hessian)
        : TaylorProxies(order, anchor, std::move(gradient), std::move(hessian)), m_model(model)
    {
    }

    void residuals(const Vector &from, const Vector &to, std::span<const DataIndex> rows,
                   std::span<double> out) const override
    {
        m_model.logLikelihoodRatios(from, to, rows, out);
        for (std::size_t k = 0; k < rows.size(); ++k)
            out[k] -= proxyDifference(m_model.data()[rows[k]], from, to);
    }
    void residualsRange(const Vector &from, const Vector &to, DataIndex first, std::span<double> out) const override
    {
        m_model.logLikelihoodRatiosRange(from, to, first, out);
        for (std::size_t k = 0; k < out.size(); ++k)
            out[k] -= proxyDifference(m_model.data()[first + static_cast<DataIndex>(k)], from, to);
    }
    std::optional<double> residualBound(const Vector &, const Vector &) const override { return std::nullopt; }
    std::optional<std::vector<double>> pointDerivativeBounds() const override { return std::nullopt; }

private:
    double proxyDifference(double x, const Vector &from, const Vector &to) const
    {
        const MixturePointDerivatives d = mixtureDerivatives(x, anchor());
        const double step1 = to[0] - from[0], step2 = to[1] - from[1];
        double difference = d.g1 * step1 + d.g2 * step2;
        if (order() == 2) {
            const auto quadratic = [&](const Vector &at) {
                const double a = at[0] - anchor()[0], b = at[1] - anchor()[1];
                return 0.5 * (d.h11 * a * a + 2.0 * d.h12 * a * b + d.h22 * b * b);
            };
            difference += quadratic(to) - quadratic(from);
        }
        return difference;
    }

    const GaussianMixtureModel &m_model;
};

} // namespace

std::shared_ptr<const TaylorProxies> GaussianMixtureModel::taylorProxies(const Vector &anchor, int order) const
{
    Vector gradient = Vector::Zero(2);
    Eigen::MatrixXd hessian = Eigen::MatrixXd::Zero(2, 2);
    for (const double x : data()) {
        const MixturePointDerivatives d = mixtureDerivatives(x, anchor);
        gradient += Vector{{d.g1, d.g2}};
        hessian += Eigen::Matrix2d{{d.h11, d.h12}, {d.h12, d.h22}};
    }
    return std::make_shared<MixtureTaylorProxies>(*this, anchor, order, std::move(gradient), std::move(hessian));
}

} // namespace core
