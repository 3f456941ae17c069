#pragma once
// First-order Taylor proxies of the reference Gaussian mean (gaussian_mean_posterior.h) around
// an anchor θ̂: G = Σ (x_i − θ̂) / s², s² = 1. The model has no proxies of its own (its quadratic
// log-likelihood leaves nothing to estimate); the gradient-driven moves that take their control
// variates from proxies (SGLD-CV, the Zig-Zag process) read only the anchor and G, so the other
// members are never called.
#include <optional>
#include <span>
#include <vector>

#include "core/models/control_variates.h"
#include "tests/support/gaussian_mean_posterior.h"

class GaussianMeanProxies final : public core::TaylorProxies {
public:
    explicit GaussianMeanProxies(double anchor)
        : core::TaylorProxies(1, core::Vector::Constant(1, anchor),
                              core::Vector::Constant(1, (GaussianMeanPosterior::x.array() - anchor).sum()),
                              Eigen::MatrixXd::Zero(1, 1))
    {
    }
    void residuals(const core::Vector &, const core::Vector &, std::span<const core::DataIndex>,
                   std::span<double>) const override
    {
    }
    void residualsRange(const core::Vector &, const core::Vector &, core::DataIndex, std::span<double>) const override {}
    std::optional<double> residualBound(const core::Vector &, const core::Vector &) const override { return std::nullopt; }
    std::optional<std::vector<double>> pointDerivativeBounds() const override { return std::nullopt; }
};
