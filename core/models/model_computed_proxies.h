#pragma once
/// Taylor proxies whose residuals the model computes itself, over listed rows or a range of
/// them: logistic regression's and the GLMs'. Each adds its own remainder bounds.
#include <span>
#include <utility>

#include "core/models/control_variates.h"

namespace core {

template <typename OwnModel>
class ModelComputedProxies : public TaylorProxies {
public:
    ModelComputedProxies(const OwnModel &model, int order, const Vector &anchor, Vector gradientSum,
                         Eigen::MatrixXd hessianSum)
        : TaylorProxies(order, anchor, std::move(gradientSum), std::move(hessianSum)), m_model(model)
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

protected:
    const OwnModel &m_model;
};

} // namespace core
