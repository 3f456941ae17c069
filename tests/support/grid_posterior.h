#pragma once
// The exact posterior of a one-parameter model, integrated on a fine grid (trapezoids): its
// CDF and mean, what the stationary-distribution tests compare chains with.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "core/models/model.h"

namespace teststats {

class GridPosterior {
public:
    /// p(θ) ∝ prior · exp(log-likelihood / T) on [from, to] in `cells` cells; the mass outside
    /// must be negligible (take ±10 sds).
    GridPosterior(const core::Model &model, double from, double to, double temperature = 1.0, int cells = 4000)
        : m_grid(static_cast<std::size_t>(cells) + 1), m_cdf(static_cast<std::size_t>(cells) + 1, 0.0)
    {
        std::vector<double> logDensity(m_grid.size());
        double peak = -1e300;
        for (std::size_t k = 0; k < m_grid.size(); ++k) {
            m_grid[k] = from + (to - from) * static_cast<double>(k) / cells;
            const core::Vector theta = core::Vector::Constant(1, m_grid[k]);
            logDensity[k] = model.logPrior(theta) + model.logLikelihoodSum(theta) / temperature;
            peak = std::max(peak, logDensity[k]);
        }
        double mean = 0.0, square = 0.0;
        for (std::size_t k = 1; k < m_grid.size(); ++k) {
            const double a = std::exp(logDensity[k - 1] - peak), b = std::exp(logDensity[k] - peak);
            const double width = m_grid[k] - m_grid[k - 1];
            m_mass += 0.5 * (a + b) * width;
            mean += 0.5 * (a * m_grid[k - 1] + b * m_grid[k]) * width;
            square += 0.5 * (a * m_grid[k - 1] * m_grid[k - 1] + b * m_grid[k] * m_grid[k]) * width;
            m_cdf[k] = m_mass;
        }
        m_mean = mean / m_mass;
        m_variance = square / m_mass - m_mean * m_mean;
    }

    double mean() const { return m_mean; }
    double variance() const { return m_variance; }

    double cdf(double x) const
    {
        if (x <= m_grid.front())
            return 0.0;
        if (x >= m_grid.back())
            return 1.0;
        const auto cells = static_cast<double>(m_grid.size() - 1);
        const auto k = static_cast<std::size_t>((x - m_grid.front()) / (m_grid.back() - m_grid.front()) * cells);
        const double t = (x - m_grid[k]) / (m_grid[k + 1] - m_grid[k]);
        return (m_cdf[k] + t * (m_cdf[k + 1] - m_cdf[k])) / m_mass;
    }

private:
    std::vector<double> m_grid, m_cdf;
    double m_mass = 0.0, m_mean = 0.0, m_variance = 0.0;
};

} // namespace teststats
