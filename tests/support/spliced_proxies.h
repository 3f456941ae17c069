#pragma once
// Taylor proxies put together from two sources, for the suites' broken control variates: the
// exact sum's anchor, G and H from `sums`, everything the minibatch or the thinning reads
// (residuals, bounds) from `source`. With one source for both they are those proxies again;
// a suite breaks them by splicing two that differ, or by overriding a bound.
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/models/control_variates.h"

namespace testdata {

class SplicedProxies : public core::TaylorProxies {
public:
    SplicedProxies(const core::TaylorProxies &sums, std::shared_ptr<const core::TaylorProxies> source)
        : core::TaylorProxies(sums.order(), sums.anchor(), sums.gradientSum(), sums.hessianSum()),
          m_source(std::move(source))
    {
    }
    void residuals(const core::Vector &from, const core::Vector &to, std::span<const core::DataIndex> rows,
                   std::span<double> out) const override
    {
        m_source->residuals(from, to, rows, out);
    }
    void residualsRange(const core::Vector &from, const core::Vector &to, core::DataIndex first,
                        std::span<double> out) const override
    {
        m_source->residualsRange(from, to, first, out);
    }
    std::optional<double> residualBound(const core::Vector &from, const core::Vector &to) const override
    {
        return m_source->residualBound(from, to);
    }
    std::optional<std::vector<double>> pointDerivativeBounds() const override
    {
        return m_source->pointDerivativeBounds();
    }
    bool hasMarginBounds() const override { return m_source->hasMarginBounds(); }
    std::vector<double> pointMarginBounds() const override { return m_source->pointMarginBounds(); }

private:
    std::shared_ptr<const core::TaylorProxies> m_source;
};

} // namespace testdata
