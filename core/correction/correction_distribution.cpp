#include "core/correction/correction_distribution.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include <Eigen/Core>

#include "core/correction/folded_normal_equations.h"
#include "core/correction/nnls_solver.h"
#include "core/correction/ridge_solver.h"
#include "core/validation/range_checks.h"

namespace core {

namespace {

/// Beyond 9 standard deviations Φ is within 1.2e-19 of 0 or 1: below double resolution of F.
constexpr double kBandSds = 9.0;

std::string shortNumber(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", value);
    return buffer;
}

double normalCdf(double t) { return 0.5 * std::erfc(-t * M_SQRT1_2); }

double logisticCdf(double x) { return x >= 0.0 ? 1.0 / (1.0 + std::exp(-x)) : std::exp(x) / (1.0 + std::exp(x)); }

/// Forwards progress and turns a stop request into core::Cancelled.
class Reporter {
public:
    Reporter(std::function<void(double)> progress, std::stop_token stop)
        : m_progress(std::move(progress)), m_stop(std::move(stop)) {}

    void operator()(double fraction) const
    {
        if (m_stop.stop_requested())
            throw Cancelled("correction solve cancelled");
        if (m_progress)
            m_progress(std::clamp(fraction, 0.0, 1.0));
    }
    /// A sub-range [from, to] of the overall progress.
    std::function<void(double)> range(double from, double to) const
    {
        return [this, from, to](double f) { (*this)(from + (to - from) * f); };
    }
    const std::stop_token &stop() const { return m_stop; }

private:
    std::function<void(double)> m_progress;
    std::stop_token m_stop;
};

std::vector<double> solveNnlsMasses(const CorrectionParams &params, const Reporter &report, bool &converged)
{
    FoldedNormalEquations eq = buildFoldedNormalEquations(params, false, true, report.range(0.0, 0.5));
    // For symmetric u (b = 0): ‖Mu - v‖² = ‖M̃Sa - ṽ‖² + (n/4)(wᵀa - 1)².
    Eigen::MatrixXd &q = eq.symmetricGram;
    const double massWeight = 0.25 * eq.rows;
    q.noalias() += massWeight * eq.weights * eq.weights.transpose();
    const Eigen::VectorXd p = eq.symmetricRhs + massWeight * eq.weights;
    const NnlsResult result = solveNnls(q, p, NnlsOptions{}, report.range(0.5, 0.85));
    converged = result.converged;
    report(0.85);
    return unfoldMasses(result.x, Eigen::VectorXd(), params.grid);
}

} // namespace

void validate(const CorrectionParams &params)
{
    if (params.grid < kMinCorrectionGrid || params.grid > kMaxCorrectionGrid)
        throw std::invalid_argument("grid must be in [" + std::to_string(kMinCorrectionGrid) + ", " +
                                    std::to_string(kMaxCorrectionGrid) + "]; got " + std::to_string(params.grid));
    if (!(params.range > 0.0 && params.range <= kMaxCorrectionRange))
        throw std::invalid_argument("range must be in (0, " + shortNumber(kMaxCorrectionRange) + "]; got " +
                                    shortNumber(params.range));
    if (!(params.sigma > 0.0 && params.sigma < kLogisticSd))
        throw std::invalid_argument("sigma must be in (0, 1.8138) (below sqrt(pi^2/3), the logistic sd); got " +
                                    shortNumber(params.sigma));
    if (!(params.lambda >= 0.0 && std::isfinite(params.lambda)))
        throw std::invalid_argument("lambda must be finite and >= 0; got " + shortNumber(params.lambda));
    if (params.solver != CorrectionSolver::Ridge && params.solver != CorrectionSolver::Nnls)
        throw std::invalid_argument("solver must be ridge or nnls; got enumerator " +
                                    std::to_string(static_cast<int>(params.solver)));
}

CorrectionDistribution CorrectionDistribution::solve(const CorrectionParams &params,
                                                     std::function<void(double)> progress, std::stop_token stop)
{
    validate(params);
    const auto start = std::chrono::steady_clock::now();
    const Reporter report(std::move(progress), std::move(stop));
    report(0.0);
    CorrectionStats stats;
    std::vector<double> masses = params.solver == CorrectionSolver::Ridge
                                     ? solveRidgeMasses(params, report.range(0.0, 0.85), report.stop())
                                     : solveNnlsMasses(params, report, stats.solverConverged);

    long double total = 0.0L;
    for (double &m : masses) {
        if (!std::isfinite(m))
            throw std::runtime_error("correction solve produced a non-finite mass");
        m = std::max(m, 0.0);
        total += m;
    }
    if (!(total > 0.0L))
        throw std::runtime_error("correction solve produced no positive mass");
    stats.rawMass = static_cast<double>(total);
    stats.solveGridLinfError = correctionGridLinfError(params, masses, 1);
    report(0.9);
    for (double &m : masses)
        m = static_cast<double>(m / total);
    stats.linfError = correctionGridLinfError(params, masses, 4);
    stats.solveSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    report(1.0);
    return CorrectionDistribution(params, std::move(masses), stats);
}

CorrectionDistribution CorrectionDistribution::fromMasses(const CorrectionParams &params, std::vector<double> masses,
                                                          const CorrectionStats &stats)
{
    validate(params);
    if (masses.size() != 2 * static_cast<std::size_t>(params.grid) + 1)
        throw std::invalid_argument("masses must have 2 grid + 1 entries");
    const long double total = requireNonNegativeSum("masses", masses);
    if (std::fabs(static_cast<double>(total) - 1.0) > 1e-9)
        throw std::invalid_argument("masses must sum to 1");
    return CorrectionDistribution(params, std::move(masses), stats);
}

CorrectionDistribution::CorrectionDistribution(const CorrectionParams &params, std::vector<double> masses,
                                               const CorrectionStats &stats)
    : m_params(params), m_stats(stats), m_masses(std::move(masses))
{
    const int n = params.grid;
    const double h = spacing();
    m_support.resize(m_masses.size());
    m_cumulative.resize(m_masses.size() + 1);
    std::vector<double> weights;
    long double running = 0.0L, first = 0.0L, second = 0.0L;
    for (int j = -n; j <= n; ++j) {
        const auto index = static_cast<std::size_t>(j + n);
        const double y = j * h;
        const double m = m_masses[index];
        m_support[index] = y;
        m_cumulative[index] = static_cast<double>(running);
        running += m;
        first += static_cast<long double>(m) * y;
        second += static_cast<long double>(m) * y * y;
        if (m > 0.0) {
            weights.push_back(m);
            m_atomValues.push_back(y);
        }
    }
    m_cumulative.back() = static_cast<double>(running);
    m_mean = static_cast<double>(first);
    m_variance = static_cast<double>(second - first * first);
    m_alias = AliasTable(weights);
}

double CorrectionDistribution::convolvedCdf(double x) const
{
    if (std::isnan(x))
        return x;
    const int n = m_params.grid;
    const double h = spacing(), sigma = m_params.sigma;
    // Atoms below the band count fully, atoms above not at all; clamp before converting so a
    // huge |x| cannot overflow the index.
    const double lowIndex = std::clamp(std::ceil((x - kBandSds * sigma) / h), -n - 1.0, n + 1.0);
    const double highIndex = std::clamp(std::floor((x + kBandSds * sigma) / h), -n - 1.0, n + 1.0);
    const int lo = std::max(static_cast<int>(lowIndex), -n);
    const int hi = std::min(static_cast<int>(highIndex), n);
    double cdf = m_cumulative[static_cast<std::size_t>(std::clamp(static_cast<int>(lowIndex), -n, n + 1) + n)];
    for (int j = lo; j <= hi; ++j) {
        const double m = m_masses[static_cast<std::size_t>(j + n)];
        if (m > 0.0)
            cdf += m * normalCdf((x - j * h) / sigma);
    }
    return cdf;
}

double CorrectionDistribution::cdfError(double x) const { return convolvedCdf(x) - logisticCdf(x); }

double correctionGridLinfError(const CorrectionParams &params, const std::vector<double> &masses, int refinement)
{
    const long n = params.grid, r = refinement;
    if (refinement < 1)
        throw std::invalid_argument("refinement must be >= 1");
    if (masses.size() != static_cast<std::size_t>(2 * n + 1))
        throw std::invalid_argument("masses must have 2 grid + 1 entries");
    const double h = params.range / params.grid;
    const double scale = h / (r * params.sigma);
    // F(x_k) = Σ_{Y_j < x_k} u_j + ½ u_{x_k} + Σ_j u_j e(k - r j) with e(t) = Φ(t·scale) - H(t):
    // the step part is a running sum and e vanishes outside the band |t| ≤ width.
    const long width = static_cast<long>(std::ceil(kBandSds / scale));
    std::vector<double> excess(static_cast<std::size_t>(2 * width + 1));
    for (long t = -width; t <= width; ++t)
        excess[static_cast<std::size_t>(t + width)] =
            t < 0 ? 0.5 * std::erfc(-t * scale * M_SQRT1_2) : (t > 0 ? -0.5 * std::erfc(t * scale * M_SQRT1_2) : 0.0);
    const double *e = excess.data() + width;

    std::vector<long> atom;
    std::vector<double> mass;
    for (long j = -n; j <= n; ++j)
        if (masses[static_cast<std::size_t>(j + n)] != 0.0) {
            atom.push_back(j);
            mass.push_back(masses[static_cast<std::size_t>(j + n)]);
        }
    const std::size_t count = atom.size();
    std::size_t below = 0, bandLow = 0, bandHigh = 0; // atoms [0, below) lie strictly left of x_k
    long double stepSum = 0.0L;
    double worst = 0.0;
    for (long k = -2 * n * r; k <= 2 * n * r; ++k) {
        while (below < count && r * atom[below] < k)
            stepSum += mass[below++];
        while (bandLow < count && r * atom[bandLow] < k - width)
            ++bandLow;
        while (bandHigh < count && r * atom[bandHigh] <= k + width)
            ++bandHigh;
        double cdf = static_cast<double>(stepSum);
        if (below < count && r * atom[below] == k)
            cdf += 0.5 * mass[below];
        double band = 0.0;
        for (std::size_t a = bandLow; a < bandHigh; ++a)
            band += mass[a] * e[k - r * atom[a]];
        const double x = static_cast<double>(k) * h / r;
        worst = std::max(worst, std::fabs(cdf + band - logisticCdf(x)));
    }
    return worst;
}

} // namespace core
