#include "core/acceptance/austere_design.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/math/distributions/normal.hpp>
#include <boost/math/quadrature/gauss.hpp>

#include "core/correction/cancelled.h"

namespace core {
namespace {

// Φ by linear interpolation in a table of step 1/4096 over [−9, 9] (error < 2e-9). The
// program evaluates Φ L + 1 times per cell and look, millions of times per design; cell
// masses are differences of neighbouring values, so they still sum exactly.
double normalCdf(double x)
{
    constexpr double reach = 9.0, perUnit = 4096.0;
    static const std::vector<double> table = [] {
        const auto size = static_cast<std::size_t>(2 * reach * perUnit) + 2;
        std::vector<double> values(size);
        for (std::size_t i = 0; i < size; ++i)
            values[i] = 0.5 * std::erfc(-(-reach + static_cast<double>(i) / perUnit) / std::sqrt(2.0));
        return values;
    }();
    const double position = (x + reach) * perUnit;
    if (!(position > 0.0))
        return 0.0;
    if (position >= static_cast<double>(table.size() - 2))
        return 1.0;
    const auto i = static_cast<std::size_t>(position);
    const double f = position - static_cast<double>(i);
    return table[i] + f * (table[i + 1] - table[i]);
}

} // namespace

SequentialTestProfile austereProfile(double muStd, std::int64_t populationSize, std::int64_t batch, double epsilon,
                                     int cells)
{
    if (populationSize < 2 || batch < 1 || batch > populationSize)
        throw std::invalid_argument("need N >= 2 and 1 <= m <= N");
    if (!(epsilon > 0.0 && epsilon < 0.5))
        throw std::invalid_argument("epsilon must be in (0, 0.5)");
    if (cells < 10)
        throw std::invalid_argument("cells must be >= 10");
    const double n = static_cast<double>(populationSize);
    const double bound = boost::math::quantile(boost::math::normal(), 1.0 - epsilon); // G
    const double width = 2.0 * bound / cells;
    std::vector<double> mass(static_cast<std::size_t>(cells), 0.0), next(mass.size());
    std::vector<double> edges(static_cast<std::size_t>(cells) + 1);
    for (int k = 0; k <= cells; ++k)
        edges[static_cast<std::size_t>(k)] = -bound + k * width;

    SequentialTestProfile profile;
    double wrong = 0.0, decidedEarly = 0.0, survive = 1.0;
    double previous = 0.0; // π_{j−1}
    for (std::int64_t j = 1;; ++j) {
        const double rows = std::min<double>(static_cast<double>(j * batch), n);
        const double pi = rows / n;
        if (rows >= n) { // the last look reads everything and decides exactly
            profile.dataFraction += survive * 1.0;
            profile.allDataProbability = survive;
            break;
        }
        const double a = (pi - previous) / (1.0 - previous) / std::sqrt(pi * (1.0 - pi));
        const double c = previous > 0.0 ? std::sqrt(previous / pi * (1.0 - pi) / (1.0 - previous)) : 0.0;
        const double sd = std::sqrt((pi - previous) / (pi * (1.0 - previous)));
        double below = 0.0, above = 0.0;
        std::fill(next.begin(), next.end(), 0.0);
        // Sources: the cell midpoints (or the single point z₀ = 0 before the first look).
        const int sources = j == 1 ? 1 : cells;
        for (int s = 0; s < sources; ++s) {
            const double weight = j == 1 ? 1.0 : mass[static_cast<std::size_t>(s)];
            if (weight < 1e-300)
                continue;
            const double z = j == 1 ? 0.0 : -bound + (s + 0.5) * width;
            const double mean = muStd * a + z * c;
            // Late looks move z very little: only cells within 9 sd of the mean get any mass,
            // which cuts the cost per look from L² to L times a few cells.
            const auto firstCell = static_cast<int>(std::clamp(std::floor((mean - 9.0 * sd + bound) / width), 0.0, double(cells)));
            const auto lastCell = static_cast<int>(std::clamp(std::ceil((mean + 9.0 * sd + bound) / width), 0.0, double(cells)));
            double lowerCdf = normalCdf((edges[static_cast<std::size_t>(firstCell)] - mean) / sd);
            below += weight * (firstCell == 0 ? lowerCdf : 0.0);
            for (int k = firstCell; k < lastCell; ++k) {
                const double upperCdf = normalCdf((edges[static_cast<std::size_t>(k) + 1] - mean) / sd);
                next[static_cast<std::size_t>(k)] += weight * (upperCdf - lowerCdf);
                lowerCdf = upperCdf;
            }
            above += weight * (1.0 - lowerCdf);
        }
        // μ_std > 0 means accepting is right: leaving below is the error, and vice versa.
        wrong += muStd > 0.0 ? below : (muStd < 0.0 ? above : 0.0);
        decidedEarly += below + above;
        profile.dataFraction += (below + above) * pi;
        mass.swap(next);
        survive = 0.0;
        for (double m : mass)
            survive += m;
        previous = pi;
        if (survive < 1e-14) { // what is left cannot move any figure
            profile.allDataProbability = 0.0;
            break;
        }
    }
    profile.error = muStd == 0.0 ? 0.5 * decidedEarly : wrong;
    return profile;
}

namespace {
constexpr double kReach = 12.0;
constexpr double kStep = 0.1;

// ∫ f(u) du over [e^{logLo}, e^{logHi}] by composite Gauss–Legendre in log u, the variable in
// which the profiles are concentrated.
template <typename F>
double integrateOverU(double logLo, double logHi, F &&f)
{
    if (!(logHi > logLo))
        return 0.0;
    const int panels = 400;
    const double h = (logHi - logLo) / panels;
    double total = 0.0;
    for (int p = 0; p < panels; ++p)
        total += boost::math::quadrature::gauss<double, 7>::integrate(
            [&](double logU) { return f(logU) * std::exp(logU); }, logLo + p * h, logLo + (p + 1) * h);
    return total;
}

} // namespace

AustereDesignTable::AustereDesignTable(std::int64_t populationSize, std::int64_t batch, double epsilon, int cells,
                                       std::stop_token stop)
    : m_populationSize(static_cast<double>(populationSize)), m_batch(batch), m_epsilon(epsilon)
{
    // At exactly μ_std = 0 the wrong-way error is undefined; its one-sided limit is what the
    // integrals need, so the grid starts just off zero.
    const int points = gridPoints();
    for (int i = 0; i < points; ++i) {
        if (stop.stop_requested())
            throw Cancelled("AustereMH design cancelled");
        const auto profile = austereProfile(std::max(i * kStep, 1e-9), populationSize, batch, epsilon, cells);
        m_error.push_back(profile.error);
        m_dataFraction.push_back(profile.dataFraction);
    }
}

AustereDesignTable::AustereDesignTable(std::int64_t populationSize, std::int64_t batch, double epsilon,
                                       std::vector<double> error, std::vector<double> dataFraction)
    : m_populationSize(static_cast<double>(populationSize)), m_batch(batch), m_epsilon(epsilon),
      m_error(std::move(error)), m_dataFraction(std::move(dataFraction))
{
    const auto points = static_cast<std::size_t>(gridPoints());
    if (m_error.size() != points || m_dataFraction.size() != points)
        throw std::invalid_argument("an AustereMH design table needs " + std::to_string(points) + " grid values");
    if (populationSize < 2 || batch < 1 || batch > populationSize || !(epsilon > 0.0 && epsilon < 0.5))
        throw std::invalid_argument("invalid AustereMH design (N, m, epsilon)");
    for (std::size_t i = 0; i < points; ++i)
        if (!(m_error[i] >= 0.0 && m_error[i] <= 1.0) || !(m_dataFraction[i] >= 0.0 && m_dataFraction[i] <= 1.0))
            throw std::invalid_argument("AustereMH design values must lie in [0, 1]");
}

int AustereDesignTable::gridPoints()
{
    return static_cast<int>(std::lround(kReach / kStep)) + 1;
}

double AustereDesignTable::interpolate(const std::vector<double> &values, double muStd, double beyond) const
{
    const double position = std::abs(muStd) / kStep;
    const auto last = static_cast<double>(values.size() - 1);
    if (position >= last)
        return beyond;
    const auto i = static_cast<std::size_t>(position);
    const double f = position - static_cast<double>(i);
    return (1.0 - f) * values[i] + f * values[i + 1];
}

double AustereDesignTable::error(double muStd) const
{
    return interpolate(m_error, muStd, 0.0);
}

double AustereDesignTable::dataFraction(double muStd) const
{
    return interpolate(m_dataFraction, muStd, std::min(1.0, static_cast<double>(m_batch) / m_populationSize));
}

double AustereDesignTable::acceptanceError(double meanLambda, double sdLambda, double logPriorProposalRatio) const
{
    if (!(sdLambda > 0.0))
        return 0.0; // every look is exact
    const double delta = meanLambda + logPriorProposalRatio;
    const double logExact = std::min(0.0, delta);
    // μ_std(u) = (mean Λ − ψ(u)) √(N − 1) / σ_Λ with ψ(u) = log u − log prior/proposal ratio.
    const double scale = std::sqrt(m_populationSize - 1.0) / sdLambda;
    auto wrong = [&](double logU) { return error((delta - logU) * scale); };
    // Eq. 21: ∫_{P_a}^1 E du − ∫_0^{P_a} E du; below u = e^{Δ − 12/scale}, E vanishes.
    return integrateOverU(logExact, 0.0, wrong) - integrateOverU(std::min(logExact, delta - kReach / scale), logExact, wrong);
}

double AustereDesignTable::expectedDataFraction(double meanLambda, double sdLambda, double logPriorProposalRatio) const
{
    const double first = std::min(1.0, static_cast<double>(m_batch) / m_populationSize);
    if (!(sdLambda > 0.0))
        return first;
    const double delta = meanLambda + logPriorProposalRatio;
    const double scale = std::sqrt(m_populationSize - 1.0) / sdLambda;
    // Outside |μ_std| < 12 the test stops at its first look; integrate the excess over that.
    const double lo = delta - kReach / scale, hi = std::min(0.0, delta + kReach / scale);
    const double excess = integrateOverU(std::min(lo, hi), hi, [&](double logU) {
        return dataFraction((delta - logU) * scale) - first;
    });
    return first + excess;
}

} // namespace core
