#pragma once
// A synthetic "model" whose per-point log-likelihood ratios are a fixed population, whatever
// θ and θ' are. It lets acceptance tests be checked against an exactly known Δ and spread.
#include <cmath>
#include <stdexcept>

#include "core/models/model.h"
#include "core/random/rng.h"

namespace teststats {

class PopulationModel final : public core::Model {
public:
    explicit PopulationModel(Eigen::VectorXd ratios) : m_ratios(std::move(ratios)) {}

    /// N ratios l_i drawn from `shape` (0 normal, 1 centred exponential: skewed) and then
    /// shifted and scaled so that their population mean and sd are exactly `mean` and `sd`.
    static PopulationModel make(core::DataIndex n, double mean, double sd, int shape, std::uint64_t seed)
    {
        core::Rng rng(seed);
        Eigen::VectorXd values(n);
        for (core::DataIndex i = 0; i < n; ++i)
            values[i] = shape == 0 ? rng.normal() : -std::log(rng.uniformOpen01());
        const double m = values.mean();
        const double s = std::sqrt((values.array() - m).square().mean());
        values = ((values.array() - m) / s * sd + mean).matrix();
        return PopulationModel(values);
    }

    std::string name() const override { return "population"; }
    int dimension() const override { return 1; }
    core::DataIndex dataSize() const override { return static_cast<core::DataIndex>(m_ratios.size()); }
    double logPrior(const core::Vector &) const override { return 0.0; }
    void logLikelihoodRatios(const core::Vector &, const core::Vector &, std::span<const core::DataIndex> rows,
                             std::span<double> out) const override
    {
        for (std::size_t k = 0; k < rows.size(); ++k)
            out[k] = m_ratios[rows[k]];
    }
    void logLikelihoodRatiosRange(const core::Vector &, const core::Vector &, core::DataIndex first,
                                  std::span<double> out) const override
    {
        for (std::size_t k = 0; k < out.size(); ++k)
            out[k] = m_ratios[first + static_cast<core::DataIndex>(k)];
    }
    double logLikelihoodSum(const core::Vector &) const override { return 0.0; }
    core::Vector initialTheta() const override { return core::Vector::Zero(1); }

    const Eigen::VectorXd &ratios() const { return m_ratios; }

private:
    Eigen::VectorXd m_ratios;
};

} // namespace teststats
