#include "core/models/control_variates.h"

#include <cmath>
#include <stdexcept>

#include "core/models/model_registry.h"

namespace core {

TaylorProxies::TaylorProxies(int order, Vector anchor, Vector gradient, Eigen::MatrixXd hessian)
    : m_order(order), m_anchor(std::move(anchor)), m_gradient(std::move(gradient)), m_hessian(std::move(hessian))
{
}

const PointWeights &TaylorProxies::derivativeBoundWeights() const
{
    return m_boundWeights.get([this] {
        auto bounds = pointDerivativeBounds();
        if (!bounds)
            throw std::invalid_argument("these Taylor proxies' remainders have no bound: the model's derivatives "
                                        "grow without bound");
        return std::move(*bounds);
    });
}

std::vector<double> TaylorProxies::pointMarginBounds() const
{
    throw std::invalid_argument("these Taylor proxies' remainders are not functions of one margin");
}

const PointWeights &TaylorProxies::marginBoundWeights() const
{
    if (!hasMarginBounds())
        throw std::invalid_argument("these Taylor proxies' remainders have no bound in the margin");
    return m_marginWeights.get([this] { return pointMarginBounds(); });
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
    requireCapability(model, ModelCapability::TaylorProxies, "a control-variate model");
    std::shared_ptr<const TaylorProxies> proxies = model.taylorProxies(anchor, order);
    if (!proxies)
        throw std::logic_error("the model '" + model.name() + "' offers Taylor proxies but made none");
    return proxies;
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
