#pragma once
/// The exact tempered posterior of the Gaussian mixture on a 2-D grid, and the paper's
/// measures of how well a set of samples matches it (Seita et al., "Minibatch Acceptance Test",
/// Sec. 6.1 and its appendix C.2.2, Eq. 39).
///
/// Evaluating Σ_i log p(x_i | θ) over 10⁶ points at every grid node is too slow, so the data
/// are binned finely and each bin contributes count_b · log p(x̄_b | θ) at its own mean x̄_b.
/// The first-order error then cancels exactly, and the rest is bounded by
///   |error| ≤ ½ sup|∂²ₓ log p| · Σ_b Σ_{i∈b} (x_i − x̄_b)² / T,
/// with sup|∂²ₓ log p| = max(½, θ₂²/16 − ½) for σx² = 2. binningErrorBound() reports it.
#include <cstdint>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

namespace core {

struct PosteriorGridSpec {
    double theta1Min = -2.0, theta1Max = 3.0;
    double theta2Min = -3.0, theta2Max = 3.0;
    int bins1 = 50, bins2 = 60;      ///< metric bins (cells of 0.1 × 0.1 by default)
    int subdivisions = 5;            ///< midpoint-rule points per bin and axis
    int dataBins = 4000;             ///< bins used to summarise the data
};

/// How a set of samples compares with the binned true posterior.
struct PosteriorMetrics {
    std::int64_t samples = 0;
    std::int64_t outside = 0;          ///< samples outside the grid
    double totalVariation = 0.0;       ///< ½ Σ_j |c_j/n − P_j|
    double chiSquared = 0.0;           ///< Pearson χ² over cells with n·P_j ≥ 5, the rest pooled
    int chiSquaredCells = 0;           ///< cells in that χ² (degrees of freedom + 1)
    double poissonLogLikelihood = 0.0; ///< Eq. 39: Σ_j c_j log(nP_j) − nP_j − log Γ(c_j + 1)
};

class GaussianMixturePosterior {
public:
    /// Throws std::invalid_argument for empty data, T ≤ 0 or a degenerate grid, and Cancelled
    /// when `stop` is requested (checked once per row of the grid's sub-cells).
    GaussianMixturePosterior(const Eigen::VectorXd &data, double temperature, PosteriorGridSpec spec = {},
                             std::stop_token stop = {});

    /// log p0(θ) + Σ_i log p(x_i | θ) / T from the binned data (unnormalised).
    double logDensity(double theta1, double theta2) const { return logDensity(theta1, theta2, m_temperature); }
    /// The same at another temperature (the bins do not depend on T): lp__ of a chain whose
    /// temperature changed during the run.
    double logDensity(double theta1, double theta2, double temperature) const;
    double temperature() const { return m_temperature; }
    /// log P_j, the normalised posterior mass of metric bin (i1, i2), row-major in i1.
    const Eigen::MatrixXd &binLogProbability() const { return m_binLogProbability; }
    /// Posterior mass left outside the grid, estimated from the grid's border (≈ 0).
    double outsideMass() const { return m_outsideMass; }
    double binningErrorBound() const { return m_binningErrorBound; }
    const PosteriorGridSpec &spec() const { return m_spec; }

    /// Metrics for samples given as rows (θ₁, θ₂). Independent samples give TV → 0; an MCMC
    /// chain's autocorrelation inflates χ² and TV, so compare methods at equal sample counts.
    PosteriorMetrics compare(const Eigen::Ref<const Eigen::MatrixXd> &samples) const;
    /// Same for a row-major sample matrix.
    PosteriorMetrics compare(const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> &samples,
                             std::int64_t rows) const;

private:
    PosteriorGridSpec m_spec;
    double m_temperature;
    Eigen::ArrayXd m_binMeans, m_binCounts;
    Eigen::MatrixXd m_binLogProbability;
    double m_outsideMass = 0.0;
    double m_binningErrorBound = 0.0;
};

} // namespace core
