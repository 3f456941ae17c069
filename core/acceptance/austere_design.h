#pragma once
/// Error and data usage of AustereMH's sequential test, by the dynamic program of Korattikara
/// et al.'s supplement ("Austerity in MCMC Land", Sec. A, Proposition 2 and Eq. 18–20), and the
/// resulting error in the acceptance probability (Sec. B, Eq. 21).
///
/// Under the CLT, the standardised statistics z_j = (l̄_j − μ₀)/σ_l of successive looks form a
/// Gaussian random walk whose law depends only on μ_std = (μ − μ₀)√(N − 1)/σ_l, the data
/// fractions π_j = j m / N and the bound G = Φ⁻¹(1 − ε). The program tracks the density of z
/// on L cells of [−G, G] from look to look; mass leaving below −G decides "reject", above G
/// "accept", and whatever survives to π = 1 decides exactly.
#include <cstdint>
#include <stop_token>
#include <vector>

namespace core {

struct SequentialTestProfile {
    /// Probability that the sequential test decides the wrong way (for μ_std = 0, the
    /// probability of deciding before the last look, halved: Eq. 20).
    double error = 0.0;
    /// Expected fraction of the data read, π̄ of Eq. 19.
    double dataFraction = 0.0;
    /// Probability of reaching the last look, i.e. of reading all N points.
    double allDataProbability = 0.0;
};

/// Runs the dynamic program. populationSize N ≥ 2, batch m in [1, N], epsilon ∈ (0, 0.5),
/// cells ≥ 10. Cost O(cells² · N/m). Throws std::invalid_argument on bad arguments.
SequentialTestProfile austereProfile(double muStd, std::int64_t populationSize, std::int64_t batch, double epsilon,
                                     int cells = 100);

/// One test design (N, m, ε) tabulated once on a grid of |μ_std| ∈ [0, 12] (the profile is
/// symmetric in μ_std), and the per-proposal figures it implies after integrating over u.
class AustereDesignTable {
public:
    /// Cells of [−G, G] in the dynamic program of the designer's grid (and of cached grids).
    static constexpr int kDefaultCells = 60;

    /// Runs the dynamic program 121 times. Throws like austereProfile.
    /// A stop request throws core::Cancelled between two of the dynamic programs, so a table
    /// being built at N = 10⁶ gives way within tens of milliseconds.
    AustereDesignTable(std::int64_t populationSize, std::int64_t batch, double epsilon, int cells = kDefaultCells,
                       std::stop_token stop = {});
    /// A table tabulated earlier (from a cache): `error` and `dataFraction` at the gridPoints()
    /// values of |μ_std|. Throws std::invalid_argument for wrong sizes or values outside [0, 1].
    AustereDesignTable(std::int64_t populationSize, std::int64_t batch, double epsilon, std::vector<double> error,
                       std::vector<double> dataFraction);
    /// Number of |μ_std| grid points (0, 0.1, …, 12).
    static int gridPoints();

    std::int64_t batch() const { return m_batch; }
    double epsilon() const { return m_epsilon; }
    std::int64_t populationSize() const { return static_cast<std::int64_t>(m_populationSize); }
    const std::vector<double> &errorGrid() const { return m_error; }
    const std::vector<double> &dataFractionGrid() const { return m_dataFraction; }

    /// E(μ_std) and π̄(μ_std), linearly interpolated; beyond the grid E = 0 and π̄ is the
    /// first look's fraction m/N.
    double error(double muStd) const;
    double dataFraction(double muStd) const;

    /// ΔP = P_{a,ε} − P_a for one proposal (Eq. 21), integrating E over u. In the Λ scale:
    /// meanLambda is the population mean of Λ_i and sdLambda their population standard
    /// deviation, so Δ = meanLambda + logPriorProposalRatio and P_a = min(1, e^Δ).
    double acceptanceError(double meanLambda, double sdLambda, double logPriorProposalRatio) const;
    /// E_u[π̄]: the expected fraction of the data the test reads for this proposal.
    double expectedDataFraction(double meanLambda, double sdLambda, double logPriorProposalRatio) const;

private:
    double interpolate(const std::vector<double> &values, double muStd, double beyond) const;

    double m_populationSize;
    std::int64_t m_batch;
    double m_epsilon;
    std::vector<double> m_error, m_dataFraction;
};

} // namespace core
