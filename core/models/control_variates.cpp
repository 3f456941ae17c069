#include "core/models/control_variates.h"

#include <cmath>
#include <stdexcept>

#include "core/models/gaussian_mixture_model.h"
#include "core/models/logistic_regression_model.h"

namespace core {
namespace {

class LogisticTaylorProxies final : public TaylorProxies {
public:
    LogisticTaylorProxies(const LogisticRegressionModel &model, const Vector &anchor, int order,
                          LogisticRegressionModel::TaylorSums sums)
        : TaylorProxies(order, anchor, std::move(sums.gradient), std::move(sums.hessian)), m_model(model)
    {
        // Bounds on the (k+1)-th derivatives of every ℓ_i (Cornish et al. 2019): ¼ x²
        // for k = 1, |x|³/(6√3) for k = 2, with x the largest feature (or the bias's 1).
        const double x = model.maxAbsFeature();
        m_derivativeBound = order == 1 ? 0.25 * x * x : x * x * x / (6.0 * std::sqrt(3.0));
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

private:
    const LogisticRegressionModel &m_model;
    double m_derivativeBound = 0.0;
};

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

TaylorProxies::TaylorProxies(int order, Vector anchor, Vector gradient, Eigen::MatrixXd hessian)
    : m_order(order), m_anchor(std::move(anchor)), m_gradient(std::move(gradient)), m_hessian(std::move(hessian))
{
}

const PointWeights &TaylorProxies::derivativeBoundWeights() const
{
    return m_boundWeights.get([this] {
        auto bounds = pointDerivativeBounds();
        if (!bounds)
            throw std::invalid_argument("the mixture's Taylor remainders have no bound (its derivatives grow without "
                                        "bound in theta): logreg and tall-logreg have one");
        return std::move(*bounds);
    });
}

double TaylorProxies::proxyRatioSum(const Vector &from, const Vector &to) const
{
    // Once per iteration: plain loops over H's columns, so that nothing is allocated (Eigen's
    // H·b would make a temporary vector).
    double sum = m_gradient.dot(to - from);
    if (m_order == 2) {
        double quadratic = 0.0;
        const Eigen::Index d = m_anchor.size();
        for (Eigen::Index j = 0; j < d; ++j) {
            const double aj = from[j] - m_anchor[j], bj = to[j] - m_anchor[j];
            double column = 0.0;
            for (Eigen::Index i = 0; i < d; ++i)
                column += m_hessian(i, j) * ((to[i] - m_anchor[i]) * bj - (from[i] - m_anchor[i]) * aj);
            quadratic += column;
        }
        sum += 0.5 * quadratic;
    }
    return sum;
}

std::shared_ptr<const TaylorProxies> makeTaylorProxies(const Model &model, const Vector &anchor, int order)
{
    if (order != 1 && order != 2)
        throw std::invalid_argument("control variates: the Taylor order must be 1 or 2; got " + std::to_string(order));
    if (anchor.size() != model.dimension() || !anchor.allFinite())
        throw std::invalid_argument("control variates: the anchor must be a finite point of dimension "
                                    + std::to_string(model.dimension()));
    if (const auto *logistic = dynamic_cast<const LogisticRegressionModel *>(&model))
        return std::make_shared<LogisticTaylorProxies>(*logistic, anchor, order, logistic->taylorSums(anchor));
    if (const auto *mixture = dynamic_cast<const GaussianMixtureModel *>(&model)) {
        Vector gradient = Vector::Zero(2);
        Eigen::MatrixXd hessian = Eigen::MatrixXd::Zero(2, 2);
        for (const double x : mixture->data()) {
            const MixturePointDerivatives d = mixtureDerivatives(x, anchor);
            gradient += Vector{{d.g1, d.g2}};
            hessian += Eigen::Matrix2d{{d.h11, d.h12}, {d.h12, d.h22}};
        }
        return std::make_shared<MixtureTaylorProxies>(*mixture, anchor, order, std::move(gradient), std::move(hessian));
    }
    throw std::invalid_argument("control variates need a model with Taylor proxies: logreg, tall-logreg or gmm; '"
                                + model.name() + "' has none");
}

ControlVariateModel::ControlVariateModel(std::shared_ptr<const Model> base, std::shared_ptr<const TaylorProxies> proxies)
    : m_base(std::move(base)), m_proxies(std::move(proxies))
{
    if (!m_base || !m_proxies)
        throw std::invalid_argument("ControlVariateModel needs a model and its proxies");
    if (m_proxies->anchor().size() != m_base->dimension())
        throw std::invalid_argument("ControlVariateModel: the proxies' anchor does not fit the model's dimension");
}

} // namespace core
